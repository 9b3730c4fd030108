"""The fast path: a question that names a symbol or a file the index knows.

The seed's anchored patterns (`^[a-z_][a-z0-9_]*$` and the like) match any lower-case word
("hello") and miss names inside a sentence. Here a token is a target only when the index has
it: a symbol (`parse_args`, `HTTPClient`, `Client.get`) or a file (`config.toml`,
`src/app/cli.py`). Names are looked for anywhere in the question: in backticks, or shaped like
code (an underscore, an inner capital, a dot between names, a call's parentheses), or the
whole question being one word. Plain words are not names: "client" in "how does the client
retry?" is prose, `Client` is a name."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from frontdesk.assistants.codeqa.retrieval.symbol_index import SymbolHit, SymbolIndex, Usage

__all__ = [
    "BACKTICKED",
    "CODE_SHAPED",
    "FILE_SHAPED",
    "WORDISH",
    "Targets",
    "ask_kind",
    "asked_name",
    "missing_name",
    "named_targets",
]

BACKTICKED = re.compile(r"`([^`\n]{1,120})`")
WORDISH = re.compile(r"[A-Za-z_][\w.$/-]*(?:\(\))?")
CODE_SHAPED = re.compile(
    r"_|[a-z][A-Z]|[A-Z]{2,}[a-z]|^[A-Z][a-z]+[A-Z]|\(\)$|[A-Za-z_]\.[A-Za-z_]"
)
FILE_SHAPED = re.compile(r"^[\w./-]*\.[A-Za-z0-9]{1,8}$|/")
_LOCATE = re.compile(
    r"\b(?:where\s+(?:is|are|'s|do\s+I\s+find)\b(?!.*\b(?:used|called)\b)|defined|definition|"
    r"declared|declaration|locate|find\s+the\s+(?:definition|file))",
    re.IGNORECASE,
)
_USAGES = re.compile(
    r"\b(?:what|who|which\s+\w+)\s+(?:calls?|uses?|invokes?|references?)\b|\b(?:callers?|"
    r"usages?|call\s+sites?)\b|\bwhere\s+(?:is|are)\s+.+\s+(?:used|called)\b",
    re.IGNORECASE,
)


# The name a "what calls X" / "where is X defined" question asks about, even a plain word
# ("who calls invoke?"): the word after the verb, or between "where is" and "defined".
_ASKED = re.compile(
    r"\b(?:calls?|uses?|invokes?|references?|callers\s+of|usages?\s+of)\s+`?([A-Za-z_][\w.]*)"
    r"(?:\(\))?`?|\bwhere\s+(?:is|are)\s+`?([A-Za-z_][\w.]*)(?:\(\))?`?\s+(?:defined|declared|"
    r"used|called)\b",
    re.IGNORECASE,
)
_NOT_NAMES = frozenset({"the", "a", "an", "this", "that", "these", "those", "it", "my", "our",
                        "your", "its", "their", "any", "each", "every", "some"})  # fmt: skip


def asked_name(question: str) -> str | None:
    """The name a usages or locate question asks about, if it names one."""
    match = _ASKED.search(BACKTICKED.sub(lambda m: m.group(1), question))
    name = match and (match.group(1) or match.group(2)).rstrip(".")
    return name if name and name.lower() not in _NOT_NAMES else None


def missing_name(question: str, targets: Targets) -> str | None:
    """A code-shaped name asked about ("what calls build_graph?") that the index does not
    have: the answer is that it is not there, not a guess from whatever search finds."""
    if ask_kind(question) == "explain" or targets.symbols:
        return None
    name = asked_name(question)
    shaped = name and (CODE_SHAPED.search(name) or f"`{name}" in question)
    return name if shaped else None


@dataclass(frozen=True)
class Targets:
    """What a question names that the index has."""

    symbols: dict[str, list[SymbolHit]] = field(default_factory=dict)  # name -> definitions
    files: dict[str, list[str]] = field(default_factory=dict)  # token -> paths

    def __bool__(self) -> bool:
        return bool(self.symbols or self.files)

    def usages(self, index: SymbolIndex) -> dict[str, list[Usage]]:
        return {name: index.usages(name) for name in self.symbols}


def named_targets(question: str, index: SymbolIndex) -> Targets:
    symbols: dict[str, list[SymbolHit]] = {}
    files: dict[str, list[str]] = {}
    stripped = question.strip().rstrip("?!.").strip()
    one_word = bool(re.fullmatch(r"[\w.$/-]+(?:\(\))?", stripped))
    candidates = [m.group(1).strip() for m in BACKTICKED.finditer(question)]
    if ask_kind(question) != "explain" and (asked := asked_name(question)):
        candidates.append(asked)  # "who calls invoke?": a plain word, asked about as a name
    candidates += [
        m.group(0) for m in WORDISH.finditer(BACKTICKED.sub(" ", question))
        if one_word or CODE_SHAPED.search(m.group(0)) or FILE_SHAPED.search(m.group(0))
    ]  # fmt: skip
    for raw in candidates:
        token = raw.removesuffix("()").rstrip(".,;:")
        if not token:
            continue
        if FILE_SHAPED.search(token) and (paths := index.files_named(token)):
            files[token] = paths
            continue
        hits = index.definitions(token)
        if not hits and "." in token:  # module.function or obj.method: the last part
            hits = index.definitions(token.rsplit(".", 1)[-1])
        if hits:
            symbols[token] = hits
    return Targets(symbols, files)


def ask_kind(question: str) -> str:
    """ "usages" (what calls X), "locate" (where is X defined) or "explain" (anything else)."""
    if _USAGES.search(question):
        return "usages"
    if _LOCATE.search(question):
        return "locate"
    return "explain"
