"""Is a message a question asking for information, or a request to do something? Does it ask
whether something exists?

"How late can I cancel my room?" contains "cancel" and reads, to an embedding classifier, much
like "cancel my room"; but it asks about a policy the knowledge base answers. A message that
opens with a question word asks for information. Requests open otherwise: "cancel my room",
"can you book...", "is it possible to get a table...", "please upgrade me".
"""

from __future__ import annotations

import re

from frontdesk.guardrails import normalize_text

QUESTION_WORDS = frozenset(
    {"how", "what", "whats", "when", "whens", "where", "wheres", "which", "who", "whos", "why"}
)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", normalize_text(text).replace("'", ""))


def asks_for_information(text: str) -> bool:
    """Whether `text` opens with a question word ("what", "how late", "where's"...)."""
    words = _words(text)
    return bool(words) and words[0] in QUESTION_WORDS


# "is there an irish pub", "do you have a kids club", "does mohegan sun have a golf course";
# not "do i have to pay", which asks about an obligation.
_EXISTENCE = re.compile(
    r"^(?:(?:is|are) there|any|have you got|(?:do|does) (?!i )(?:\w+ ){1,2}have(?! to\b))\b"
)


def asks_whether_exists(text: str) -> bool:
    """Whether `text` asks if there is such a thing ("is there an irish pub?"): the answer
    should name it, not just say yes."""
    return bool(_EXISTENCE.match(" ".join(_words(text))))
