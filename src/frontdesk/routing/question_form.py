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


# Words of a request for advice on how to gamble, not for what is offered.
_ADVICE_WORDS = frozenset(
    {
        "win",
        "winning",
        "wins",
        "strategy",
        "strategies",
        "odds",
        "beat",
        "tip",
        "tips",
        "trick",
        "tricks",
        "system",
        "payout",
        "payouts",
        "pays",
        "pay",
        "loose",
        "hot",
        "lucky",
        "should",
        "best",
        "bet",
        "betting",
        "chances",
        "chance",
        "edge",
    }
)


# Who runs a game, where it is: questions about the place. Not "how" or "which" or "when",
# which open advice as often ("how do i double my money", "when is a slot due to hit").
_PLACE_QUESTION_WORDS = frozenset({"who", "whos", "where", "wheres"})


def asks_whether_offered(text: str) -> bool:
    """Whether `text` asks if a game or perk is there ("do you have craps tables", "does
    ascend get free valet"), or who runs it and where it is ("who runs the sportsbook"),
    without asking how to play or win."""
    words = _words(text)
    if _ADVICE_WORDS.intersection(words):
        return False
    return asks_whether_exists(text) or bool(
        words
        and (
            (words[0] in ("do", "does") and "get" in words[:5]) or words[0] in _PLACE_QUESTION_WORDS
        )
    )


# A yes/no question about what the guest must or may do: "do i need to cancel a day ahead",
# "can i bring a backpack into the arena", "is there a fee if i cancel late", "are purses
# allowed". Requests open otherwise: "can you book", "cancel my room", "can i book a table".
_OBLIGATION_OR_PERMISSION = re.compile(
    r"^(?:(?:do|will|would|am) (?:i|we) (?:need|have|get|lose|be)\b"
    r"|(?:can|may|could) (?:i|we) (?:bring|take|carry|wear|have)\b"
    r"|(?:is|are) there (?:a |an |any )?(?:fee|charge|penalty|deadline)s?\b"
    r"|(?:is|are) (?!it )(?:\w+ ){1,3}(?:allowed|permitted|required|refundable|possible)\b)"
)


def asks_about_rules(text: str) -> bool:
    """Whether `text` asks what the rules let or make the guest do, rather than asking the
    assistant to do something."""
    return bool(_OBLIGATION_OR_PERMISSION.match(" ".join(_words(text))))


# Words that greet; small talk that asks nothing about the place ("how are you", "what's up").
_GREETING_WORDS = frozenset(
    """
    hi hii hiya hello helloo hey heyy heyyy hola buenas buenos yo sup howdy greetings morning
    afternoon evening aloha salut ahoy hallo bonjour ciao
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_SMALL_TALK = re.compile(
    r"\b(?:how (?:are|r) (?:you|u|ya|things)(?: \w+)?|how s it going|how is (?:it|everything) going"
    r"|how is everything|how have you been|what s (?:up|new|good|going on)|whats (?:up|new|good))\b"
)
# What opens a question about the place once small talk is set aside.
_ASKS = re.compile(
    r"\b(?:is there|are there|do (?:you|u|y all|yall)|does|can (?:i|we|my|u|you)|could|where|"
    r"when|what|how much|how many|how late|how long|how do|which|who|why|any)\b"
)


def is_greeting(text: str) -> bool:
    """Whether `text` only greets or makes small talk ("hey, how are you today?", "hi, I just
    arrived"), asking nothing about the place: "yo is there anywhere to see standup here"
    greets, but asks where; "left my jacket at the bar, who do i call" asks who."""
    folded = " ".join(_words(text))
    if _ASKS.search(_SMALL_TALK.sub(" ", folded)):
        return False
    words = set(folded.split())
    return bool(words & _GREETING_WORDS) or bool(_SMALL_TALK.search(folded)) or len(words) <= 3
