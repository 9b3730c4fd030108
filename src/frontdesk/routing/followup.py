"""Does a message lean on the one before it? ("and on sundays?", "what time does it close?")

Any assistant with conversations needs this to route and search a follow-up together with the
previous question; it is a cheap, deterministic guess, not a model call.
"""

from __future__ import annotations

import re

# A message this short rarely stands alone.
FOLLOW_UP_WORDS = 6
# Words that point back at something said before. Not "that" or "there": they mostly open a
# clause ("a script that sorts") or a question ("is there a pool").
REFERRING_WORDS = frozenset({"it", "its", "they", "them", "their", "those"})


def is_follow_up(text: str) -> bool:
    """Whether a message likely leans on the previous one: very short, or referring back."""
    words = re.findall(r"[a-z']+", text.casefold())
    return len(words) <= FOLLOW_UP_WORDS or not REFERRING_WORDS.isdisjoint(words)
