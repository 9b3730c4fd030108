"""Sensitive numbers and secrets a guest texts us (feature map item 12; seed §9.13, §9.22):
Social Security numbers, payment card numbers (13-19 digits passing the Luhn check) and
passwords. Found here, masked for storage, reported to the gate as `pii_*` hits.

Unlike the other families this one scans the WHOLE message, not the capped windows: a number
in the middle of a long message must still be masked before the text is stored. Every regex
here is linear (bounded repetitions, digit runs anchored by look-arounds), so that is safe.

The scan runs on `visible_text` (NFKC, invisible characters removed, case kept), so
fullwidth digits and zero-width characters between digits do not hide a number, and the
masked text keeps the guest's own capitalisation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from frontdesk.guardrails.normalize import visible_text

PII_SSN = "pii_ssn"
PII_CARD = "pii_card"
PII_PASSWORD = "pii_password"
PII_PATTERN_IDS: tuple[str, ...] = (PII_SSN, PII_CARD, PII_PASSWORD)

SSN_MASK = "[redacted-ssn]"
CARD_MASK = "[redacted-card]"
PASSWORD_MASK = "[redacted-password]"

# 123-45-6789 or 123 45 6789 (the same separator twice), not part of a longer number.
_SSN_SHAPED = re.compile(r"(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])")
# Nine bare digits right after the words that name them: "my ssn is 123456789".
_SSN_NAMED = re.compile(
    r"\b(?:ssn|social\s+security(?:\s+(?:number|no|num))?|seguro\s+social)\D{0,15}?"
    r"(?<!\d)(\d{9})(?!\d)",
    re.IGNORECASE,
)
# The ways card numbers are written: one run of 13-19 digits, groups of four (Visa,
# Mastercard, Discover: 4-4-4-4, 4-4-4-4-3) or Amex/Diners 4-6-5 and 4-6-4.
_CARD_CANDIDATE = re.compile(
    r"(?<![\d-])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2}(?:[ -]\d{1,4}){1,2}|\d{4}[ -]\d{6}[ -]\d{4,5})"
    r"(?![\d-])"
)
_NOT_A_SECRET = (
    r"(?:not|wrong|incorrect|invalid|expired|no|the|same|too|still|always|correct|right|reset"
    r"|locked|changed|different|fine|ok|okay|el|la|incorrecta|mala)\b"
)
# "my password is X", "mi contraseña es X", "password: X". A bare "password" is guest wording
# ("what's the wifi password?", "I forgot my password"), so a value has to follow.
_PASSWORD = re.compile(
    r"(?:\b(?:my|mi)\s+(?:\w+\s+){0,2}(?:password|passcode|passwd|pin(?:\s+(?:number|code))?"
    r"|contrase[nñ]a|clave)(?:\s+(?:is|es)\s*:?|\s*[:=])"
    r"|\b(?:password|passcode|passwd|contrase[nñ]a)\s*[:=])"
    rf"\s*(?!{_NOT_A_SECRET})(?P<secret>[^\s?]{{3,64}})",
    re.IGNORECASE,
)


def luhn_valid(digits: str) -> bool:
    """The Luhn checksum every payment card number satisfies."""
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def _card_spans(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in _CARD_CANDIDATE.finditer(text):
        digits = "".join(char for char in match.group(0) if char.isdigit())
        if 13 <= len(digits) <= 19 and luhn_valid(digits):
            spans.append(match.span())
    return spans


@dataclass(frozen=True, slots=True)
class PiiScan:
    """`pattern_ids` in `PII_PATTERN_IDS` order; `redacted_text` is the message itself when
    nothing was found, else its visible text with every finding masked."""

    pattern_ids: tuple[str, ...]
    redacted_text: str


def scan_pii(text: str) -> PiiScan:
    view = visible_text(text)
    masks: list[tuple[int, int, str]] = []
    found: set[str] = set()
    for match in _SSN_SHAPED.finditer(view):
        masks.append((*match.span(), SSN_MASK))
        found.add(PII_SSN)
    for match in _SSN_NAMED.finditer(view):
        masks.append((*match.span(1), SSN_MASK))
        found.add(PII_SSN)
    for start, end in _card_spans(view):
        masks.append((start, end, CARD_MASK))
        found.add(PII_CARD)
    for match in _PASSWORD.finditer(view):
        masks.append((*match.span("secret"), PASSWORD_MASK))
        found.add(PII_PASSWORD)
    if not masks:
        return PiiScan(pattern_ids=(), redacted_text=text)
    return PiiScan(
        pattern_ids=tuple(pattern_id for pattern_id in PII_PATTERN_IDS if pattern_id in found),
        redacted_text=_apply_masks(view, masks),
    )


def _apply_masks(view: str, masks: list[tuple[int, int, str]]) -> str:
    """Replace the spans, merging overlaps (an SSN found by shape and by name)."""
    pieces = []
    cursor = 0
    for start, end, mask in sorted(masks):
        if end <= cursor:
            continue
        if start < cursor:
            start = cursor
        else:
            pieces.append(view[cursor:start])
            pieces.append(mask)
        cursor = end
    pieces.append(view[cursor:])
    return "".join(pieces)
