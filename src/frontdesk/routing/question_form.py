"""Is a message a question asking for information, or a request to do something?

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


def asks_for_information(text: str) -> bool:
    """Whether `text` opens with a question word ("what", "how late", "where's"...)."""
    words = re.findall(r"[a-z]+", normalize_text(text).replace("'", ""))
    return bool(words) and words[0] in QUESTION_WORDS
