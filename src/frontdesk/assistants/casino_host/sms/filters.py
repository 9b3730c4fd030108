"""After-model reply filters: promotional compliance (WP2 item 19, seed §1.12).

Two checks on every agent reply, in this order:
1. Gaming-outcome promises, for every agent: the whole reply becomes
   SAFE_GAMING_LANGUAGE_FALLBACK ("regulatory violation in all US jurisdictions", seed §1.12).
2. Comp language from any agent but comp_agent: the offer phrase becomes "a special offer",
   since only comp_agent may state an offer (it is the one that checked the guest's
   eligibility); a hallucinated "$25 credit" from the dining agent would be a promise the
   casino did not make.

Decisions where the seed is silent or loose:
- The seed never defines SAFE_GAMING_LANGUAGE_FALLBACK; the texts below are ours. They pass
  the style rules and fit one GSM-7 SMS in both languages (the Spanish one avoids á í ó ú).
- What is replaced is an offer phrase, as in the seed's rewrite pattern (seed §1.12): a dollar
  amount with its comp noun ("$25 credit", "$20 in free play", "$10 off"), an amount after an
  offer verb ("enjoy $25"), "complimentary", "free play"/"freeplay", and their Spanish forms
  ("crédito de $25", "juego gratis", "de cortesía"). A bare price ("entrées from $25") is
  information, not an offer, and stays; replacing it would read "entrées from a special offer".
  Articles are kept right: "a $25 credit" -> "a special offer", "your $25 credit" -> "your
  special offer", "a complimentary dinner" -> "a special offer on dinner".
- "you'll win" (and "you will/are going to win", "can't lose", Spanish "va a ganar",
  "ganará") always counts as a promise. "guaranteed" and "sure thing" count when the same
  sentence is about gaming (win, jackpot, odds, slots, bet...): "Sure thing, I booked your
  table" and "your table is guaranteed until 9 PM" are ordinary host replies the seed's bare
  pattern would have thrown away.
- Both languages' patterns always run (WP1 item 45: EN+ES guardrails always run); `language`
  only picks the wording of the fallback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from frontdesk.assistants.casino_host.sms.change import Change, rules_of
from frontdesk.assistants.casino_host.sms.segment import split_sentences

COMP_AGENT = "comp_agent"

SAFE_GAMING_LANGUAGE_FALLBACKS = {
    "en": (
        "Casino games are games of chance, so I can't promise a win. "
        "I'm happy to help with dining, shows or your stay."
    ),
    "es": (
        "Los juegos del casino son de azar, no puedo prometerle premios. "
        "Con gusto le ayudo con restaurantes, shows o su visita."
    ),
}
SAFE_GAMING_LANGUAGE_FALLBACK = SAFE_GAMING_LANGUAGE_FALLBACKS["en"]

SPECIAL_OFFER = "a special offer"
SPECIAL_OFFER_ES = "una oferta especial"

_MONEY = r"\$\s?\d[\d,]*(?:\.\d{1,2})?"
_COMP_NOUN = r"(?:off|credits?|bonus|free\s*play|play|vouchers?|comps?|cash\s*back|gift\s+cards?)"
_QUALIFIER = r"(?:dining|food|resort|slot|match|hotel|spa|promo|promotional|bonus|gift|bar|free)"
_AMOUNT_WITH_NOUN = rf"{_MONEY}\s*(?:(?:in|of)\s+)?(?:{_QUALIFIER}\s+){{0,2}}{_COMP_NOUN}\b"
_OFFER_VERB = (
    r"get|gets|getting|receive|earn|enjoy|claim|give\s+you|giving\s+you|here['’]s|here\s+is"
)
# Words after "complimentary" that are not the thing offered ("complimentary for members").
_NOT_A_NOUN = frozenset(
    {"for", "to", "with", "and", "or", "if", "when", "at", "on", "in", "as", "so", "but", "by",
     "from", "of", "tonight", "today", "tomorrow", "this", "that", "these", "those", "the", "a",
     "an", "your", "our", "is", "are"}
)  # fmt: skip

_ES_OFFER = re.compile(
    rf"(?i)(?:\b(?:un|una)\s+)?(?:\b(?:cr[eé]ditos?|bonos?|descuentos?|cup[oó]n(?:es)?)\s+de\s+"
    rf"{_MONEY}|{_MONEY}\s+(?:de|en)\s+(?:cr[eé]dito|descuento|bono|juego\s+(?:gratis|libre))"
    r"|\bjuegos?\s+(?:gratis|libres?))"
)
_ES_COURTESY = re.compile(r"(?i)\bde\s+cortes[ií]a\b")
_EN_OFFER = re.compile(
    rf"(?i)(?:\b(?P<verb>{_OFFER_VERB})\s+(?:(?P<verb_det>a|an)\s+)?"
    rf"(?P<verb_amount>{_AMOUNT_WITH_NOUN}|{_MONEY}(?!\d))"
    rf"|(?:\b(?P<det>a|an|the|your|our|this|that)\s+)?"
    rf"(?:(?P<amount>{_AMOUNT_WITH_NOUN})|(?P<comp>complimentary)(?:\s+(?P<noun>[^\W\d_]+))?"
    r"|(?P<play>free\s*play)\b))"
)

_WIN_PROMISE = re.compile(
    r"(?i)\byou(?:['’]ll|\s+will|['’]re\s+going\s+to|\s+are\s+going\s+to)\s+"
    r"(?:be\s+(?:a\s+)?)?(?:win|wins|winning|winner|hit\s+(?:the|a)\s+jackpot)\b"
    r"|\byou\s+(?:can['’]?t|cannot)\s+lose\b"
    r"|\bvas?\s+a\s+ganar\b|\bganar[aá]s?\b|\bno\s+puede\s+perder\b"
)
_GUARANTEE = re.compile(
    r"(?i)\b(?:guarantee[sd]?|sure\s+thing|sure\s+bet|surefire|can['’]?t\s+miss"
    r"|garantizad[oa]s?|garantiza|seguro\s+que\s+gana)"
)
_GAMING = re.compile(
    r"(?i)\b(?:win|wins|winning|winner|winnings|jackpots?|payouts?|pays?\s+out|odds|luck|lucky"
    r"|slots?|machines?|bets?|betting|wager\w*|gambl\w*|blackjack|roulette|poker|craps"
    r"|baccarat|table\s+games?|money|cash|ganar|gana|ganancias?|premios?|apuestas?"
    r"|tragamonedas|m[aá]quinas?|suerte|ruleta)\b"
)


@dataclass(frozen=True)
class FilteredReply:
    """The reply after the filters, what they changed, and whether the whole reply was
    replaced by the safe gaming fallback."""

    text: str
    changes: tuple[Change, ...]
    fallback_used: bool

    @property
    def rules(self) -> set[str]:
        return rules_of(self.changes)


def promises_a_win(text: str) -> str | None:
    """The phrase that promises a gaming outcome, or None."""
    direct = _WIN_PROMISE.search(text)
    if direct:
        return direct.group()
    for sentence in split_sentences(text):
        guarantee = _GUARANTEE.search(sentence)
        if guarantee and _GAMING.search(sentence):
            return guarantee.group()
    return None


def _with_case_of(source: str, phrase: str) -> str:
    return phrase[0].upper() + phrase[1:] if source[:1].isupper() else phrase


def _english_offer(match: re.Match[str]) -> str:
    if match.group("verb"):
        offer = _with_case_of(match.group("verb_det") or "a", SPECIAL_OFFER)
        return f"{match.group('verb')} {offer}"
    determiner = match.group("det")
    if determiner and determiner.lower() not in ("a", "an"):
        offer = f"{determiner} special offer"
    else:
        offer = _with_case_of(determiner or match.group()[0], SPECIAL_OFFER)
    noun = match.group("noun")
    if noun and noun.lower() not in _NOT_A_NOUN:
        return f"{offer} on {noun}"
    return f"{offer} {noun}" if noun else offer


def _replace_comp_language(text: str, changes: list[Change]) -> str:
    replaced = text
    for pattern, replacement in (
        (_ES_OFFER, lambda m: _with_case_of(m.group(), SPECIAL_OFFER_ES)),
        (_ES_COURTESY, lambda m: "con " + SPECIAL_OFFER_ES),
        (_EN_OFFER, _english_offer),
    ):
        for match in pattern.finditer(replaced):
            changes.append(Change("comp_language", f"replaced {match.group()!r}"))
        replaced = pattern.sub(replacement, replaced)
    return replaced


def filter_reply(text: str, *, agent: str, language: str = "en") -> FilteredReply:
    """Apply the after-model filters to an agent's reply. `language` ("en"/"es") picks the
    fallback's wording; unknown languages get English."""
    changes: list[Change] = []
    promise = promises_a_win(text)
    if promise is not None:
        fallback = SAFE_GAMING_LANGUAGE_FALLBACKS.get(language, SAFE_GAMING_LANGUAGE_FALLBACK)
        changes.append(Change("win_promise", f"replaced the reply, it promised {promise!r}"))
        return FilteredReply(fallback, tuple(changes), fallback_used=True)
    if agent != COMP_AGENT:
        text = _replace_comp_language(text, changes)
    return FilteredReply(text, tuple(changes), fallback_used=False)
