"""A refund's invoice and amount read from what the customer says about their own bills.

Customers rarely quote an invoice number. They say "the October bill", "the one for 95 zł",
"ostatnia faktura", "the roaming one", and ask for "the difference" or "the full amount". The
signed-in customer's invoices answer all of these in code: a description that fits one
invoice fills the slot; one that fits several becomes a question naming them, and the answer
("the September one", "ta druga") picks among those. The latest message that says anything
about the invoice or the amount wins, so a correction ("no, the September one", "actually 20
zł") replaces what was said before.

Pure functions over `InvoiceRecord`s and the customer's messages: no store, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from frontdesk.assistants.telecom import extract
from frontdesk.assistants.telecom.billing_db import InvoiceRecord

# Month words, English and Polish (every case ending a customer types, with and without
# diacritics). "May" only where it names a month ("the may bill", "in may"), not "may I".
_MONTHS: tuple[tuple[int, str], ...] = (
    (1, r"january|jan|stycz\w*"),
    (2, r"february|feb|lut(?:y|ego|ym|ow\w*)"),
    (3, r"march|mar(?:zec|ca|cu|cow\w*)"),
    (4, r"april|apr|kwie\w*"),
    (5, r"(?<=in |or |of )may|may(?=(?:'s)? (?:bill|invoice|one|statement))|maj(?:a|u|ow\w*)?"),
    (6, r"june|jun|czerw\w*"),
    (7, r"july|jul|lip(?:iec|ca|cu|cow\w*)"),
    (8, r"august|aug|sierp\w*"),
    (9, r"september|sept|sep|wrze[sś]\w*|wrzes\w*"),
    (10, r"october|oct|pa[zź]dziern\w*"),
    (11, r"november|nov|listopad\w*"),
    (12, r"december|dec|grud\w*"),
)
_MONTH_PATTERNS = [(n, re.compile(rf"\b(?:{p})\b", re.IGNORECASE)) for n, p in _MONTHS]
_NUMERIC_MONTH = re.compile(r"\b(?:(\d{1,2})[/.-](20\d\d)|(20\d\d)[/.-](\d{1,2}))\b")
_INVOICE_WORDS = r"(?:one|invoice|bill|statement|faktur\w*|rachun\w*)"
_LATEST = re.compile(
    rf"\b(?:latest|last|most recent|newest|current|this month'?s)\s+(?:\w+\s+)?{_INVOICE_WORDS}"
    r"|\b(?:ostatni(?:a|ą|ej|ego|m|e)?|najnowsz\w*|bieżąc\w*|biezac\w*)\b",
    re.IGNORECASE,
)
_PREVIOUS = re.compile(
    rf"\b(?:previous|prior)\s+(?:\w+\s+)?{_INVOICE_WORDS}|\bone before\b|"
    rf"\b(?:bill|invoice) before\b|\b(?:poprzedni(?:a|ą|ej|ego|m|e)?|przedostatni\w*)\b",
    re.IGNORECASE,
)
# An invoice above the plan's price, said of an invoice: "the roaming one", "the higher bill",
# "the invoice with the extra charge", "faktura z roamingiem". Not "a roaming add-on I never
# ordered" alone: that is the reason, and says nothing of which bill.
_ABOVE = (
    r"(?:roaming\w*|extra charge|add-?on|higher|bigger|expensive|droższ\w*|drozsz\w*|"
    r"wyższ\w*|wyzsz\w*|większ\w*|wieksz\w*|dodatkow\w*)"
)
_ABOVE_PLAN = re.compile(
    rf"\b{_ABOVE}\s+(?:\w+\s+)?{_INVOICE_WORDS}\b|"
    rf"\b{_INVOICE_WORDS}\s+(?:with|z|ze)\s+(?:the\s+|an?\s+)?(?:\w+\s+)?{_ABOVE}|"
    # "a roaming charge on one of my bills", "dodatkowa opłata na jednej z faktur"
    rf"\b{_ABOVE}\s+(?:\w+\s+)?(?:on|in|na|w)\s+(?:one of\s+|jednej z\s+)?(?:my\s+|moich\s+)?"
    rf"{_INVOICE_WORDS}",
    re.IGNORECASE,
)
# A number that is an invoice's total: said of an invoice ("the one for 95", "the invoice
# that came to 145 zl", "faktura na 95 zł") or put before it ("the 145 zl bill"). Not "a
# refund of 45 zł": that is the amount asked.
_NUM = r"(\d{1,6}(?:[.,]\d{1,2})?)"
_TOTAL = [
    re.compile(
        rf"\b{_INVOICE_WORDS}\W+(?:[\w']+\W+){{0,4}}?(?:came to|comes to|come to|was|is|for|of|"
        rf"totall?ing|total of|na|wynosi\w*|opiewa\w*(?: na)?|z kwotą|z kwota)\s+"
        rf"(?:about\s+|around\s+|około\s+|okolo\s+)?{_NUM}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\b{_NUM}\s*(?:pln|zł|zl|złot\w*|zlot\w*)?[- ]+(?:\w+\s+)?{_INVOICE_WORDS}",
        re.IGNORECASE,
    ),
]
# Which of the invoices just offered: "the first", "the second one", "ta druga".
_ORDINALS = (
    (0, r"first|1st|pierwsz\w*|earlier|older|wcześniejsz\w*|wczesniejsz\w*|starsz\w*"),
    (1, r"second|2nd|drug\w*"),
    (2, r"third|3rd|trzeci\w*"),
    (-1, r"later|newer|późniejsz\w*|pozniejsz\w*|nowsz\w*"),
)
_ORDINAL_PATTERNS = [(i, re.compile(rf"\b(?:{p})\b", re.IGNORECASE)) for i, p in _ORDINALS]
_BARE_NUMBER = re.compile(r"^\D{0,40}?(\d{1,6}(?:[.,]\d{1,2})?)\D{0,40}$")


@dataclass(frozen=True)
class InvoiceLookup:
    """What a message says about the invoice: nothing (`described` False), or the invoices
    that fit its description (one: found; several: to be asked; none: fits nothing)."""

    described: bool
    matches: tuple[InvoiceRecord, ...] = ()


def _period_month(period: str) -> int:
    return int(period[5:7])


def months_named(text: str) -> set[int]:
    found = {n for n, pattern in _MONTH_PATTERNS if pattern.search(text)}
    for month_a, _year_a, _year_b, month_b in _NUMERIC_MONTH.findall(text):
        month = int(month_a or month_b)
        if 1 <= month <= 12:
            found.add(month)
    return found


def _totals_named(text: str, invoices: Sequence[InvoiceRecord]) -> set[Decimal]:
    totals = {i.amount_pln for i in invoices}
    named = set()
    for pattern in _TOTAL:
        for raw in pattern.findall(text):
            value = Decimal(raw.replace(",", "."))
            if value in totals:
                named.add(value)
    return named


def lookup_invoice(
    text: str, invoices: Sequence[InvoiceRecord], plan_price: Decimal | None
) -> InvoiceLookup:
    """The invoices among `invoices` (the customer's, oldest first) that `text` describes."""
    if not invoices:
        return InvoiceLookup(False)
    explicit = extract.invoice_id([text])
    if explicit is not None:
        return InvoiceLookup(True, tuple(i for i in invoices if i.invoice_id == explicit))
    fits = list(invoices)
    described = False
    if months := months_named(text):
        described = True
        fits = [i for i in fits if _period_month(i.period) in months]
    if totals := _totals_named(text, invoices):
        described = True
        fits = [i for i in fits if i.amount_pln in totals]
    if plan_price is not None and _ABOVE_PLAN.search(text):
        above = [i for i in fits if i.amount_pln > plan_price]
        if above:  # "higher" with no invoice above the plan describes nothing we can use
            described, fits = True, above
    if _PREVIOUS.search(text):
        return InvoiceLookup(True, tuple(fits[-2:-1]))
    if _LATEST.search(text):
        return InvoiceLookup(True, tuple(fits[-1:]))
    return InvoiceLookup(described, tuple(fits) if described else ())


def describes_invoice(text: str) -> bool:
    """Whether a message says which invoice in words ("the September one", "ta ostatnia", "the
    second", "the roaming one"): an answer to the agent's question, however long."""
    patterns = [_LATEST, _PREVIOUS, _ABOVE_PLAN, *_TOTAL, *(p for _, p in _ORDINAL_PATTERNS)]
    return bool(months_named(text)) or any(p.search(text) for p in patterns)


def pick_offered(text: str, offered: Sequence[InvoiceRecord]) -> InvoiceRecord | None:
    """The invoice an answer picks among those the agent offered ("the second", "ta z
    września", "the 145 one"), or None when it does not pick exactly one."""
    if not offered:
        return None
    found = lookup_invoice(text, offered, None)
    if found.described:
        return found.matches[0] if len(found.matches) == 1 else None
    picked = {
        offered[i]
        for i, pattern in _ORDINAL_PATTERNS
        if -len(offered) <= i < len(offered) and pattern.search(text)
    }
    if len(picked) == 1:
        return picked.pop()
    numbers = {Decimal(n.replace(",", ".")) for n in re.findall(r"\d+(?:[.,]\d{1,2})?", text)}
    by_total = [i for i in offered if i.amount_pln in numbers]
    return by_total[0] if len(by_total) == 1 else None


def amount_asked(
    text: str,
    invoice: InvoiceRecord | None,
    plan_price: Decimal | None,
    *,
    bare_number_answers: bool = False,
) -> Decimal | None:
    """The refund amount a message asks for: one with its currency (extract.amount_pln),
    "the difference" over the plan's price, "the full amount" of the invoice, or (when the
    agent has just asked for the amount) a bare number, "20"."""
    stated = extract.amount_pln([text])
    if stated is not None:
        return Decimal(str(stated))
    if (
        invoice is not None
        and plan_price is not None
        and invoice.amount_pln > plan_price
        and extract.asks_difference(text)
    ):
        return invoice.amount_pln - plan_price
    if invoice is not None and extract.asks_whole(text):
        return invoice.amount_pln
    bare = _BARE_NUMBER.match(text.strip()) if bare_number_answers else None
    if bare and extract.invoice_id([text]) is None:
        return Decimal(bare.group(1).replace(",", "."))
    return None
