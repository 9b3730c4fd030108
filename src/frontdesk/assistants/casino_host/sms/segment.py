"""Cut a reply into the SMS that will be sent (WP1 item 32, seed §3.5, §9.15).

The parts are separate SMS, each a single unconcatenated message of at most 160 GSM-7 or
70 UCS-2 units in its own encoding, not the 153/67-unit parts of one concatenated message:
- the feature map reads the seed as "max 2 separate SMS each ≤160 GSM-7 units or ≤70 UCS-2"
  (item 32) and sends the second one after a multi_segment delay (item 33, seed §9.21), which only
  separate messages can have;
- each part then bills as one segment and reads as a whole on any handset, including those
  that show concatenated parts one by one or out of order;
- each part is encoded on its own, so an English first SMS keeps its 160 units even when the
  second one holds an accented word.

Cuts prefer sentence ends past 40% of the part's limit, else word boundaries (seed §3.5); a single word longer than an SMS is cut hard as a last resort. Cuts fall between
characters, so an extension character's escape pair is never separated. When the text cannot
fit in `max_parts`, whole sentences are dropped from the end, except a closing question, which
stays; nothing is ever appended (no "..." or "…", seed §9.15): the parts hold only the text's
own characters.
"""

from __future__ import annotations

import re
import unicodedata

from frontdesk.assistants.casino_host.sms.gsm import (
    GSM7_CHARS,
    GSM7_EXTENSION_CHARS,
    GSM7_SINGLE_UNITS,
    encoding_of,
    fits_one_sms,
    fold_lookalikes,
    single_limit,
    units,
)

# A sentence ends at . ! or ? (runs allowed, closing quotes/brackets after) before a space or
# the end of the text.
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]]*(?=\s|$)")
# Tokens ending in "." that do not end a sentence ("Dr. Ruiz", "8 p.m. in the lounge").
ABBREVIATIONS = frozenset(
    {"mr.", "mrs.", "ms.", "dr.", "st.", "sr.", "sra.", "srta.", "dra.", "a.m.", "p.m.", "vs.",
     "approx.", "no.", "ud.", "uds.", "av.", "ave.", "jr."}
)  # fmt: skip
# The seed's rule: a sentence boundary is used when the part it closes is past 40% of the limit.
SENTENCE_CUT_MIN_SHARE = 0.4
# Characters that belong to the character before them (a hard cut must not separate them).
_JOINERS = {"\u200d", "\ufe0e", "\ufe0f", "\u20e3"}


def sentence_ends(text: str) -> list[int]:
    """End offsets (exclusive) of the sentences of `text`, abbreviations excepted."""
    ends = []
    for match in _SENTENCE_END.finditer(text):
        token_start = max(text.rfind(" ", 0, match.start()), text.rfind("\n", 0, match.start()))
        token = text[token_start + 1 : match.end()].lower().strip("\"'()[]¿¡")
        if token in ABBREVIATIONS:
            continue
        ends.append(match.end())
    return ends


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped; text after the last end is a sentence too."""
    sentences, start = [], 0
    for end in sentence_ends(text):
        if text[start:end].strip():
            sentences.append(text[start:end].strip())
        start = end
    if text[start:].strip():
        sentences.append(text[start:].strip())
    return sentences


def _fitting_end(text: str, start: int) -> int:
    """Largest end such that text[start:end] fits one SMS (monotone: a prefix of a fitting
    text fits too, even when the full text is UCS-2 and the prefix GSM-7)."""
    gsm, gsm_units, utf16_units = True, 0, 0
    for index in range(start, len(text)):
        char = text[index]
        if gsm and char not in GSM7_CHARS:
            gsm = False
        if gsm:
            gsm_units += 2 if char in GSM7_EXTENSION_CHARS else 1
        utf16_units += 2 if ord(char) > 0xFFFF else 1
        if (gsm and gsm_units > single_limit("GSM-7")) or (
            not gsm and utf16_units > single_limit("UCS-2")
        ):
            return index
    return len(text)


def _hard_cut(text: str, start: int, end: int) -> int:
    """Back `end` off combining marks, emoji modifiers and joiners, keeping at least a char."""
    cut = end
    while cut > start + 1 and (
        unicodedata.combining(text[cut])
        or text[cut] in _JOINERS
        or 0x1F3FB <= ord(text[cut]) <= 0x1F3FF
        or text[cut - 1] == "\u200d"
    ):
        cut -= 1
    return cut


def _cut(text: str, start: int, sentence_end_set: set[int], prefer_sentences: bool) -> int:
    """End of the part that starts at `start` (text[start] is not whitespace)."""
    limit_end = _fitting_end(text, start)
    if limit_end == len(text):
        return limit_end
    word_end = sentence_end = None
    for end in range(limit_end, start, -1):
        at_boundary = end == len(text) or text[end].isspace()
        if not at_boundary or text[end - 1].isspace():
            continue
        if word_end is None:
            word_end = end
        if end in sentence_end_set:
            sentence_end = end
            break
    if prefer_sentences and sentence_end is not None:
        # 40% of the limit that binds this part: the encoding of the longest text that fits.
        limit = single_limit(encoding_of(text[start:limit_end]))
        if units(text[start:sentence_end]) > SENTENCE_CUT_MIN_SHARE * limit:
            return sentence_end
    if word_end is not None:
        return word_end
    return _hard_cut(text, start, limit_end)


def _pack(text: str, max_parts: int, prefer_sentences: bool) -> tuple[list[str], bool]:
    """Fill up to `max_parts` SMS from the start of `text`; True when all of it went in."""
    sentence_end_set = set(sentence_ends(text))
    parts: list[str] = []
    position = 0
    while len(parts) < max_parts:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return parts, True
        end = _cut(text, position, sentence_end_set, prefer_sentences)
        parts.append(text[position:end].rstrip())
        position = end
    return parts, not text[position:].strip()


def _shortenings(body: str) -> list[str]:
    """Shorter texts made of whole sentences, most content first: the leading sentences plus
    the closing question when the text ends with one (the question is what the guest answers,
    seed §9.1 "shares first, asks second"), then the leading sentences alone."""
    sentences = split_sentences(body)
    leading = [" ".join(sentences[:count]) for count in range(len(sentences) - 1, 0, -1)]
    last = sentences[-1] if sentences else ""
    if len(sentences) < 2 or not ("?" in last or "¿" in last):
        return leading
    with_question = [f"{kept} {last}" for kept in leading[1:]]
    return with_question + leading


def split_sms(text: str, *, max_parts: int = 2) -> list[str]:
    """The SMS to send for `text`: at most `max_parts`, each one unconcatenated SMS.

    Look-alike punctuation is folded to GSM-7 first (curly quotes, dashes, odd spaces; see
    gsm.LOOKALIKES), because one curly apostrophe would otherwise halve an English SMS.
    The first of these that fits is sent:
    1. all of the text, with sentence-end cuts when they cost nothing, else word cuts;
    2. whole sentences only (see _shortenings): the leading ones, keeping a closing question;
    3. (one sentence longer than `max_parts` SMS) the text cut at a word boundary.
    An empty text gives no parts.
    """
    if max_parts < 1:
        raise ValueError("max_parts must be at least 1")
    body = fold_lookalikes(text).strip()
    if not body:
        return []
    if fits_one_sms(body):
        return [body]
    # All of it if it fits at all; once sentences go, each SMS should end a sentence where it
    # can, so shortenings try sentence cuts on every candidate before word cuts.
    attempts = [(body, True), (body, False)]
    # A text longer than max_parts full SMS cannot fit (no character is under one unit).
    shortenings = [
        kept for kept in _shortenings(body) if len(kept) <= max_parts * GSM7_SINGLE_UNITS
    ]
    attempts += [(candidate, True) for candidate in shortenings]
    attempts += [(candidate, False) for candidate in shortenings]
    for candidate, prefer_sentences in attempts:
        parts, complete = _pack(candidate, max_parts, prefer_sentences)
        if complete:
            return parts
    parts, _ = _pack(body, max_parts, prefer_sentences=False)
    return parts
