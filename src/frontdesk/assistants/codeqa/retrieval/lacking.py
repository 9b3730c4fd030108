"""What a question asks about that the repository does not have.

Search always finds some code, and the 0.5B model then describes it as the thing asked for:
asked where `HTTPDigestAuth.handle_407` deals with proxy challenges, it explains `handle_401`;
asked which file negotiates HTTP/2, it explains the adapter. Two things the index settles in
code, before the model:
- a name shaped like code (`AsyncSession`, `Response.raise_for_redirect`, `secho_via_pager`)
  that no file of the repository holds, as a symbol or as a word;
- the thing a question asks about ("does it support websockets?", "which module generates man
  pages", "and the nushell one?") when a word of it appears nowhere in the repository, not even
  misspelt ("diffrent" is "different").
Both are answered as absent. A word the repository holds anywhere (code, tests, docs) is never
called missing: the model then explains what the search finds.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from frontdesk.assistants.codeqa.retrieval.fast_path import (
    BACKTICKED,
    CODE_SHAPED,
    FILE_SHAPED,
    WORDISH,
)
from frontdesk.assistants.codeqa.retrieval.tokenizer import code_terms

__all__ = ["lacking_words", "unknown_names"]

HasTerm = Callable[[str], bool]

# What follows these names the thing asked about.
_THING = re.compile(
    r"(?:\bdoes\s+(?:it|this|\w+)\s+(?:support|have|do|handle)|\bis\s+there(?:\s+an?|\s+any)?"
    r"(?:\s+support\s+for)?|\bsupport\s+for|\btests?\s+for|"
    r"\b(?:which|what)\s+(?:\w+\s+)?(?:file|module|class|function|method|code|part)s?\s+"
    r"(?:handles?|does|generates?|implements?|deals?\s+with|runs?|builds?|renders?|parses?)|"
    r"\b(?:where|how)\s+does\s+(?:it|this|\w+)\s+(?:compute|calculate|implement|build|render|"
    r"generate|parse|store|apply|validate|negotiate)s?(?:\s+the)?|"
    r"\bwhere(?:\s+is|\s+are|'s|\s+does)(?=.*\b(?:implemented|defined|handled|done|live|"
    r"happens?|built|rendered)\b)(?:\s+the)?|"
    r"^(?:and|ok|so|also)(?:\s+where(?:\s+is|'s))?(?:\s+the)?(?=.*\b(?:one|version)\b))\s+"
    r"(?P<thing>[^?.,;:()]+)",
    re.IGNORECASE,
)
# Where the thing's phrase stops: the rest of the question is about something else.
_THING_END = re.compile(
    r"\s+(?:like|in|that|which|where|when|so|because|from|with|and\s+where|implemented|defined|"
    r"handled|done|live|happens?|built|rendered|one|version)\b.*$",
    re.IGNORECASE,
)
# Words of the question's frame, not of the thing.
_FRAME = frozenset(
    code_terms(
        "support supports supported file module class function method code part tests test "
        "logic implementation version thing stuff feature library repository repo it this that "
        "one ones any an the of for there"
    )
)
_CLOSE = 0.85


def unknown_names(question: str, has_term: HasTerm, is_symbol: Callable[[str], bool]) -> list[str]:
    """The names shaped like code that the question uses and the repository nowhere holds.
    A dotted name (`Session.default_timeout`) is missing when its last part is."""
    tokens = [m.group(1) for m in BACKTICKED.finditer(question)]
    tokens += [
        m.group(0)
        for m in WORDISH.finditer(BACKTICKED.sub(" ", question))
        if CODE_SHAPED.search(m.group(0))
    ]
    missing = []
    for raw in tokens:
        name = raw.strip().removesuffix("()").rstrip(".,;:")
        if not name or FILE_SHAPED.search(name) or not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            continue
        parts = name.split(".")
        if any(len(p) < 2 for p in parts):  # "e.g", "i.e": prose
            continue
        last = parts[-1]
        if is_symbol(name) or is_symbol(last) or has_term(last.lower()):
            continue
        if name not in missing:
            missing.append(name)
    return missing


def asked_things(question: str) -> list[str]:
    """The things a question asks about, in its own words ("http/2", "man pages")."""
    things = []
    for match in _THING.finditer(question.strip()):
        thing = _THING_END.sub("", match.group("thing")).strip()
        if thing:
            things.append(thing)
    return things


def lacking_words(
    question: str, has_term: HasTerm, words: Callable[[], frozenset[str]]
) -> list[str]:
    """The words of the asked things that appear nowhere in the repository, as written there
    or misspelt; none when the question names no thing or the repository has all its words.
    `words`: the repository's words as written, five letters or more (for misspellings)."""
    lacking: list[str] = []
    for thing in asked_things(question):
        for word in re.findall(r"[A-Za-z][\w/-]*", thing):
            terms = [t for t in code_terms(word) if t not in _FRAME and not t.isdigit()]
            if not terms or any(has_term(t) for t in terms) or _misspelt(word.lower(), words):
                continue
            if word.lower() not in lacking:
                lacking.append(word.lower())
    return lacking


def _misspelt(word: str, words: Callable[[], frozenset[str]]) -> bool:
    """Whether `word` is a misspelling of a word the repository holds: close to it, and
    beginning as it does ("diffrent": different; "async" is not "sync")."""
    if len(word) < 5:
        return False
    close = difflib.get_close_matches(word, words(), n=3, cutoff=_CLOSE)
    return any(c[:2] == word[:2] for c in close)
