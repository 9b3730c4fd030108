"""Does a billing message ask for money back, in so many words?

The tool chooser is an embedding classifier with an English model. A complaint that ends in
"refund me the difference" reads to it much like a question about the plan, and Polish ("chcę
zwrot za awarię", "potrzebuję zwrotu") lands anywhere. A customer who asks for a refund must
get the refund flow, so that wording is decided here, before the classifier is asked.

A message asks for a refund when it names getting money back (refund, money back, compensation,
withdrawing from the contract; "zwrot", "rekompensata", "odstąpienie") and is neither about a
case already made ("status of my refund", "czy zwrot został przyjęty") nor a question about the
rules ("how long does a refund take", "jakie są zasady zwrotów"). A question that asks for the
refund itself ("can I get 10 PLN back?", "czy mogę prosić o zwrot?") is a request.
"""

from __future__ import annotations

import re

from frontdesk.agentkit.tool_calling import Chooser
from frontdesk.assistants.telecom.route_words import QUESTION_OPENERS
from frontdesk.guardrails import normalize_text

REFUND_TOOL = "open_refund_case"

_MONEY_BACK = re.compile(
    r"\brefund\w*|\bmoney back\b|\b(?:get|have|want|need|give me|pay me)\b[^.?!]{0,25}\bback\b|"
    r"\breimburs\w*|\bcompensat\w*|\bwithdraw\w* from (?:the |my |this )?(?:contract|agreement)|"
    r"\bzwrot\w*|\bzwroc\w*|\boddajcie\b|\boddac\b|\brekompensat\w*|\bodstapi\w*|\bodstep\w*|"
    r"\bpieniadze z powrotem\b"
)
# About a case already made: its status, whether it was accepted, a case number.
_ABOUT_A_CASE = re.compile(
    r"\bstatus of\b|\b(?:refund|case|claim|request) status\b|\bupdate on\b|\bapproved\b|"
    r"\baccepted\b|\bdecided\b|\bhappened to\b|\bshow my\b|\bcheck on\b|"
    r"\bmy (?:refund )?(?:case|claim|request)s? (?:is|was|has)\b|\brefund (?:cases|claims)\b|"
    r"\br\d{5,9}\b|\bstatus (?:zwrotu|reklamacji|zg[lł]oszenia|mojego|mojej)\b|\bzatwierdz\w*|"
    r"\brozpatrz\w*|\bprzyjet\w*|\bco z (?:moim|moja)\b|\bsprawdz\w*"
)
_ABOUT_THE_RULES = re.compile(
    r"\bpolicy\b|\brules?\b|\bhow long\b|\bhow many (?:business )?days\b|\bprocessing time\b|"
    r"\brefundable\b|\bprocessed\b|\bwhich account\b|\bzasad\w*|\bregulamin\w*|"
    r"\bile (?:trwa|dni|czasu)\b|\bjak d[lł]ugo\b|\bpodlega\w*|\bkonto\b|\bwraca\b"
)
# A question that asks for the refund itself, not about refunds.
_ASKS_FOR_IT = re.compile(
    r"^(?:can|could|may) (?:i|we) (?:please )?(?:get|have|ask for|request|claim)\b|"
    r"^(?:can|could|would) you (?:please )?(?:refund|give|return|pay|send|process|open)\b|"
    r"^czy (?:moge|mozna|mozecie|mogliby|mog[lł]\w+) (?:prosic|dostac|otrzymac|zwrocic|oddac)"
)
# "I don't want a refund, just explain the bill": money back named, and declined.
_NOT_WANTED = re.compile(
    r"\b(?:don'?t|do not|no longer) (?:want|need)\b[^.?!]{0,20}\b(?:refund|money|compensation)|"
    r"\bnie (?:chce|potrzebuje)\w* (?:juz )?(?:zwrot|pieni|rekompens)"
)
_PREPOSITION = re.compile(r"^(?:in|on|to|for|within|na|w|po|do|od|za)\s+")
_GREETING = re.compile(
    r"^(?:(?:hi|hello|hey|hej|siema|witam|czesc|dzien dobry|good (?:morning|afternoon|evening))"
    r"\b[\s,.!-]*)+"
)


def requests_refund(text: str) -> bool:
    """Whether the message asks for money back (see the module's note)."""
    plain = normalize_text(text).strip()  # lower case, Polish accents gone but "ł"
    if not _MONEY_BACK.search(plain) or _NOT_WANTED.search(plain):
        return False
    if _ABOUT_A_CASE.search(plain) or _ABOUT_THE_RULES.search(plain):
        return False
    # "na jakie konto", "in how many days": the question word after a preposition.
    opening = _PREPOSITION.sub("", _GREETING.sub("", plain))
    words = re.findall(r"[a-z]+", opening.replace("'", ""))
    if words and words[0] in QUESTION_OPENERS:
        return _ASKS_FOR_IT.search(opening) is not None
    return True


def refund_first(chooser: Chooser) -> Chooser:
    """`chooser`, except that a message asking for money back chooses the refund tool."""

    def choose(text: str) -> tuple[str, float]:
        return (REFUND_TOOL, 1.0) if requests_refund(text) else chooser(text)

    return choose
