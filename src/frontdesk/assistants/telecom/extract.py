"""Billing arguments read straight from the customer's words: invoice, case and customer ids,
amounts, and whether a refund reason is stated.

Ids and amounts have a form a pattern finds exactly ("INV-20251001", "R10001", "100 PLN",
"45 zł", "Amount: 100"); the model is asked only for what has no such form (which reason). The
latest message that holds one wins, so a correction ("sorry, INV-20251002") replaces the
earlier value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_INVOICE = re.compile(r"\binv[-\s]?(\d{4,10})\b", re.IGNORECASE)
_NUMBER = r"(\d{1,7}(?:[.,]\d{1,2})?)"
_CURRENCY = r"(?:pln|zł|zl|złotych|zlotych|złote|zlote|zloty)"
_AMOUNTS = [
    re.compile(rf"{_NUMBER}\s*{_CURRENCY}\b", re.IGNORECASE),
    re.compile(rf"\b{_CURRENCY}\s*{_NUMBER}", re.IGNORECASE),
    re.compile(
        rf"\b(?:amount|kwota|kwotę|kwote)\s*(?:of|is|to|wynosi|:)?\s*{_NUMBER}", re.IGNORECASE
    ),
]
_USER_ID = re.compile(r"\b(u\d{3,})\b", re.IGNORECASE)
_CASE_ID = re.compile(r"\b(r\d{5,9})\b", re.IGNORECASE)
# Words that give a refund's reason, English and Polish (stems; matched in lower case): an
# overcharge, a service that did not work, the 14-day withdrawal, or a reason in so many words.
_REASON = re.compile(
    r"overcharg|too much|wrong (?:charge|amount|bill)|extra charge|twice|double|"
    r"by mistake|mistaken|never ordered|outage|not work|didn'?t work|did not work|no signal|"
    r"no service|was down|cooling|withdraw|changed my mind|goodwill|reason|because|"
    r"za dużo|za duzo|nadpłat|nadplat|naliczon|błędn|bledn|podwójn|podwojn|awari|"
    r"nie działa|nie dziala|nie było|nie bylo|brak zasięgu|brak zasiegu|odstąp|odstap|"
    r"odstęp|odstep|rezygn|powód|powod|bo |ponieważ|poniewaz"
)


def invoice_id(texts: Sequence[str]) -> str | None:
    for text in reversed(texts):
        found = _INVOICE.findall(text)
        if found:
            return f"INV-{found[-1]}"
    return None


# Words that make the amount after them a bill's total or the plan's price, not the refund
# asked for: "refund 30 zł on the invoice that came to 95 zł", "my plan is 65 zł", "z faktury
# opiewającej na 95 zł zwróćcie 30 zł".
_TOTAL_CUE = re.compile(
    r"(?:came to|comes to|come to|totall?ing|total of|total was|total is|"
    r"(?:invoice|bill|statement|one) (?:of|for|was|is|says|said|shows)|"
    r"(?:my )?plan (?:is|costs|was|of)|abonament\w* (?:wynosi|kosztuje|to|jest)|"
    r"(?:my |the )?(?:normal|usual|regular|standard|zwyk[lł]\w*|standardow\w*)|"
    r"(?:faktur\w*|rachun\w*) (?:na|za|z kwotą|z kwota)|opiew\w* na|na kwotę|na kwote)\s+$",
    re.IGNORECASE,
)
# "the 45 PLN invoice", "the 45 zł plan": an amount put before a bill or a plan is its price.
_BEFORE_BILL = re.compile(
    rf"^{_NUMBER}\s*{_CURRENCY}[\s-]+(?:a month\s+|monthly\s+)?"
    r"(?:invoice|bill|statement|one|plan|abonament\w*)\b",
    re.IGNORECASE,
)


def _is_total(text: str, start: int) -> bool:
    return bool(_TOTAL_CUE.search(text[:start]) or _BEFORE_BILL.match(text[start:]))


# "Refund the difference", "the extra", "zwróćcie różnicę / nadpłatę": the invoice above the
# plan's price, less the price. "I was overcharged" alone names a reason, not an amount.
_DIFFERENCE = re.compile(
    r"\bdifference\b|\b(?:the|that|this) (?:extra|excess|overcharge|surplus)\b|"
    r"\b(?:różnic\w*|roznic\w*|nadwyżk\w*|nadwyzk\w*|nadpłatę|nadplate)",
    re.IGNORECASE,
)
# "The full amount", "całą kwotę", "w całości": the whole bill, not "the whole week" or "przez
# cały tydzień".
_WHOLE = re.compile(
    r"\b(?:full|whole|entire|total)\s+(?:amount|sum|bill|invoice|refund|price)\b|"
    r"\ball of it\b|\bthe (?:whole|full) (?:thing|lot)\b|"
    r"\b(?:ca[łl]\w*|pe[łl]n\w*)\s+(?:kwot\w*|sum\w*|faktur\w*|rachun\w*|zwrot\w*|op[łl]at\w*)|"
    r"\bw ca[łl]o[śs]ci\b|\bca[łl]o[śs][ćc]\b",
    re.IGNORECASE,
)


def asks_difference(text: str) -> bool:
    """Whether the message asks for the part of a bill above the plan ("refund the extra")."""
    return _DIFFERENCE.search(text) is not None


def asks_whole(text: str) -> bool:
    """Whether the message asks for a bill's whole amount ("całą kwotę", "the full amount")."""
    return _WHOLE.search(text) is not None


def amount_pln(texts: Sequence[str]) -> float | None:
    """The last amount with a currency (or named as the amount) in the latest message with one.

    Customers give context first and the amount they want last ("billed 145 PLN, my plan is
    45 PLN, refund the 100 PLN"). Percentages and counts without a currency are not amounts.
    An amount given as a bill's total or the plan's price is passed over when the message asks
    for another, or for "the difference" or "the full amount" (refund_slots works those out).
    """
    for text in reversed(texts):
        hits = [(m.start(), m.group(1)) for pattern in _AMOUNTS for m in pattern.finditer(text)]
        asked = [(start, value) for start, value in hits if not _is_total(text, start)]
        if asked:
            return float(max(asked)[1].replace(",", "."))
        if hits:  # only a bill's total or the plan's price: the amount, unless another is asked
            relative = asks_difference(text) or asks_whole(text)
            return None if relative else float(max(hits)[1].replace(",", "."))
    return None


def user_id(texts: Sequence[str]) -> str | None:
    for text in reversed(texts):
        found = _USER_ID.findall(text)
        if found:
            return found[-1].lower()
    return None


def case_id(texts: Sequence[str]) -> str | None:
    for text in reversed(texts):
        found = _CASE_ID.findall(text)
        if found:
            return found[-1].upper()
    return None


def states_reason(text: str) -> bool:
    """Whether the message gives a reason for a refund (which one may be the model's to read)."""
    return (
        _REASON.search(text.casefold()) is not None
        or any(pattern.search(text) for pattern in _STATED_REASONS.values())
        or _OTHER_REASON.search(text) is not None
    )


# The reasons, by the words customers give them in, English and Polish (with and without
# diacritics): the names the agent offers ("overcharge", "nadpłata", "awaria usługi") and the
# ways people say them ("charged me twice", "the internet was dead", "changed my mind",
# "doliczyli opłatę, której nie zamawiałam"). A message that gives one reason is read in code;
# one that gives two, or none of these, is the model's to read.
_STATED_REASONS = {
    "overcharge": re.compile(
        r"\bovercharg\w*|\b(?:charged|billed) (?:me )?(?:twice|double|more|too much|extra|for)\b|"
        r"\bdouble[- ]?charg\w*|\bnever (?:sent|used|made|received)\b|"
        r"\b(?:charged|billed)\b[^.?!]{0,20}\bby mistake\b|"
        r"\bpaid (?:it )?twice\b|\btoo much\b|\bwrong (?:charge|amount|bill)\b|"
        r"\bextra charge|\b(?:never|didn'?t|did not|not) (?:order|ask|sign)\w*|"
        r"\bmore than (?:my|the) plan|\bhigher than (?:my plan|usual|it should)|"
        r"\bnadpłat\w*|\bnadplat\w*|\bza du[żz]o\b|\bnalicz\w*|\bdolicz\w*|\bpodw[óo]jn\w*|"
        r"\bdwa razy\b|\bnie zamawia\w*|\bponad abonament|\bwi[ęe]cej ni[żz]\b|"
        r"\bobci[ąa][żz]\w*|\bnie (?:wysy[łl]a|korzysta|u[żz]ywa)\w*|"
        r"\bpolicz\w* (?:mi )?(?:pe[łl]n|ca[łl])\w*",
        re.IGNORECASE,
    ),
    "service_outage": re.compile(
        r"\boutage\b|\b(?:was|went|been|is) (?:completely )?down\b|\bnot working\b|"
        r"\b(?:didn'?t|did not|wasn'?t|stopped|doesn'?t) work\w*|\bno (?:signal|service|"
        r"internet|connection|coverage)\b|\bwas dead\b|\bawari\w*|\bnie dzia[łl]a\w*|"
        r"\bbrak (?:zasi[ęe]gu|internetu|sygna[łl]u|po[łl][ąa]czenia)|\bbez internetu\b|"
        r"\bnie (?:by[łl]o|mia[łl]\w*) (?:internetu|zasi[ęe]gu|sygna[łl]u|sieci|netu)|"
        r"\bbrak (?:sieci|netu)\b",
        re.IGNORECASE,
    ),
    "within_cooling_off": re.compile(
        r"\bcooling[- ]off\b|\bwithdraw\w*|\bchanged my mind\b|\b14 days\b|\bfourteen days\b|"
        r"\bodst[ąa]\w*|\bodst[ęe]p\w*|\b14 dni\w*|\bczternast\w* dni\w*|\brozmy[śs]li\w*|"
        r"\b(?:z)?rezygn\w* z umowy|\bwypis\w* (?:si[ęe] )?z umowy",
        re.IGNORECASE,
    ),
}
# Any other reason, said in words: counted only when none of the above is.
_OTHER_REASON = re.compile(
    r"\bgoodwill\b|\bgesture\b|\bcompensation\b|\bon hold\b|\bhotline\b|\brude\b|"
    r"\bpromised\b|\bobieca\w*|\brekompensat\w*|\bdobrej woli\b|\binfolini\w*|"
    r"\bstolen\b|\btheft\b|\blost my (?:phone|sim)\b|\bkradzie[żz]\w*|\b(?:s|u)kradzion\w*|"
    r"\bukrad\w*|\bzgubi\w*",
    re.IGNORECASE,
)


# "not an outage", "to nie awaria": a reason named to rule it out.
_NEGATED = re.compile(r"(?:\bnot|\bnie|n't)\s+(?:\w+\s+)?$", re.IGNORECASE)


def _names(pattern: re.Pattern[str], text: str) -> bool:
    return any(not _NEGATED.search(text[: m.start()]) for m in pattern.finditer(text))


def stated_reason(texts: Sequence[str]) -> str | None:
    """The refund reason the latest message that gives one gives, when it gives only one
    (a reason named to rule it out, "not an outage", is not given)."""
    for text in reversed(texts):
        named = {reason for reason, pattern in _STATED_REASONS.items() if _names(pattern, text)}
        if named:
            return named.pop() if len(named) == 1 else None
        if _OTHER_REASON.search(text):
            return "other"
    return None


# The customer drops the request: "never mind", "forget it", "jednak nie", "anuluj". Not "I
# changed my mind", which is how a withdrawal within the cooling-off period is asked for.
_CANCEL = re.compile(
    r"\bnever ?mind\b|\bforget (?:it|about it|that)\b|\bcancel (?:it|that|this|the request|"
    r"the refund|my request)\b|\bdon'?t bother\b|\bscrap (?:it|that)\b|\bdrop it\b|"
    r"^\W*(?:ok\W+|okay\W+)?no need\b|\bnot needed\b|\bi'?ll (?:just )?pay\b|\bdon'?t (?:open|need|want) (?:a|the|"
    r"any)?\s*(?:refund|case|claim)|^\W*leave it\b|"
    r"\bniewa[żz]ne\b|\banuluj\w*|\bjednak nie\b|\bnie trzeba\b|\bzapomnij\b|\bodpuszcz\w*|"
    r"\bdaj(?:my)? spok[óo]j\b|\bzrezygnuj\w* (?:ze? )?(?:zwrotu|reklamacji|zg[łl]oszenia|tego)\b|"
    r"\brezygnuj\w* (?:ze? )?(?:zwrotu|reklamacji|zg[łl]oszenia|tego)\b|\bzap[łl]ac[ęe]\b",
    re.IGNORECASE,
)


def cancels(text: str) -> bool:
    """Whether the message drops the request being made."""
    return _CANCEL.search(text) is not None


# The customer corrects what they just said: "sorry, I meant INV-20251102", "actually make it
# 20 PLN", "nie, chodziło mi o wrzesień", "sorki, ma być 35 zł".
_CORRECTION = re.compile(
    r"^\W*(?:a\s+)?(?:no|nope|nie|sorry|sorki|sory|oops|actually|wait|przepraszam|correction)\b|"
    r"\bi meant\b|\bi mean\b|\bmy (?:mistake|bad)\b|\bwrong (?:invoice|amount|number)\b|"
    r"\bmake it\b|\bshould (?:be|have been)\b|\bchange it to\b|\bpomyli\w*|\bpomyłk\w*|"
    r"\bpomylk\w*|\bchodzi(?:ło|lo)? mi\b|\bma by[ćc]\b|\bmia[łl](?:a|o|em|am)? by[ćc]\b|"
    r"\bpopraw\w*|"
    r"\bzmie[ńn] na\b",
    re.IGNORECASE,
)


def corrects(text: str) -> bool:
    """Whether the message corrects something the customer said before."""
    return _CORRECTION.search(text) is not None
