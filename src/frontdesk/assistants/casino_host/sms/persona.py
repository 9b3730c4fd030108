"""The persona envelope's deterministic rules (WP2 item 24): sanitize, then style.

sanitize() follows the seed's sanitize_llm_output (seed §7.8). apply_style() enforces the SMS
style guide (seed §9.15) without a model call and says what it changed; violations() checks
a text against the same rules without changing it, so apply_style's output has none.

Decisions where the seed is silent (one rule per step, in the order they run):
- line breaks: lines are joined with a space; a line without end punctuation gets a period
  when the next one starts a sentence, list items are joined with commas.
- links: removed; a sentence that only pointed at its link ("Book here: <url>") is dropped.
- emoji: removed; with emoji_allowed the last one stays (the guide places it "at end").
- ellipsis: "..." and "…" become " - " before a lower-case word (the seed's "em dash", in
  GSM-7), else a period; next to other punctuation they just go.
- questions: "??" and "?!" collapse to "?"; the first question is kept and any later question
  sentence is dropped. Turning a question into a statement ("How many people.") reads wrong,
  and the guest answers one question anyway; the first one is the one the reply leads with.
- exclamations: "!!" collapses; the first is kept, later ones become periods (their "¡" goes).
- ALL-CAPS words (2+ letters) are lowered, capitalised at a sentence start, "I" kept; words in
  DEFAULT_KEEP_CAPS (acronyms, AM/PM, the keywords a guest texts back) or `keep_caps` stay.
- numbers: a number word becomes digits only where it counts something (see patterns).
- guest name: an address at the start (after an optional greeting, "Hi Maria,") is kept; any
  other address is removed with its commas. The name is never added, except that on a
  first message a bare opening greeting gets it ("Hi! I'm Seven" -> "Hi Maria! I'm Seven").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from frontdesk.assistants.casino_host.sms import patterns as p
from frontdesk.assistants.casino_host.sms.change import Change, rules_of
from frontdesk.assistants.casino_host.sms.segment import split_sentences

_PROMPT_LEAK = re.compile(r"(?i)system\s*(?:message|prompt)\s*:")
# A speaker label the model wrote before its reply ("Seven: Hi!").
_ROLE_LABEL = re.compile(r"(?i)^\s*(?:assistant|ai|bot|seven|host|system)\s*:\s*")
# A labelled state dump ("plan: {...}", seed §7.8), or any brace group: no reply to a guest
# holds braces, and an unfilled "{guest_name}" placeholder is a leak as well.
_STATE_GROUP = re.compile(r"(?i)(?:\b(?:whisper|plan|state|config)\s*:\s*)?\{[^{}]*\}")
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\(\s*[^()\s]*\s*\)")
_MARKDOWN_CHARS = re.compile(r"[*_#`]")


def sanitize(text: str) -> str:
    """Strip leaked prompt labels, state dumps and markdown (seed §7.8)."""
    cleaned = _PROMPT_LEAK.sub("", text)
    cleaned = _ROLE_LABEL.sub("", cleaned)
    cleaned = _MARKDOWN_LINK.sub(r"\1", cleaned)
    previous = None
    while previous != cleaned:  # innermost groups first, so nested dumps go whole
        previous, cleaned = cleaned, _STATE_GROUP.sub("", cleaned)
    cleaned = cleaned.replace("{", "").replace("}", "")
    cleaned = _MARKDOWN_CHARS.sub("", cleaned)
    cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    cleaned = re.sub(r"[ \t]+(?=[,.!?;:])", "", cleaned)
    return cleaned.strip()


@dataclass(frozen=True)
class StyledReply:
    """The styled text, what was changed, and how many SMS it may take (1 for a first
    message, which must fit one SMS, seed §9.2; else 2, seed §9.15)."""

    text: str
    changes: tuple[Change, ...]
    max_parts: int

    @property
    def rules(self) -> set[str]:
        return rules_of(self.changes)


def _join_lines(text: str, changes: list[Change]) -> str:
    lines = p.LINE_BREAK.split(text)
    if len(lines) == 1:
        return text
    pieces: list[str] = []
    previous_was_item = False
    for line in lines:
        is_item = bool(p.LIST_MARKER.match(line))
        line = p.LIST_MARKER.sub("", line).strip()
        if not line:
            continue
        if pieces and not re.search(r"[.!?,;:\-]$", pieces[-1]):
            if previous_was_item and is_item:
                pieces[-1] += ","
            elif line[0].isupper() or line[0] in "¿¡":
                pieces[-1] += "."
        pieces.append(line)
        previous_was_item = is_item
    changes.append(Change("line_break", f"joined {len(lines)} lines into one"))
    return " ".join(pieces)


def _strip_link(match: re.Match[str]) -> str:
    link = match.group()
    kept = link.rstrip(p.URL_TRAILING_PUNCTUATION)
    return link[len(kept) :]


def _remove_urls(text: str, changes: list[Change]) -> str:
    links = p.URL.findall(text)
    if not links:
        return text
    changes.append(Change("url", "removed " + ", ".join(links)))
    sentences = split_sentences(text)
    kept, without_links = [], []
    for sentence in sentences:
        if not p.URL.search(sentence):
            kept.append(sentence)
            continue
        cleaned = p.tidy(p.URL.sub(_strip_link, sentence))
        without_links.append(cleaned)
        if not re.search(r"\w", cleaned) or p.DANGLING_AFTER_LINK.search(cleaned):
            changes.append(Change("url", f"dropped the sentence left without its link: {cleaned}"))
            continue
        kept.append(cleaned)
    return " ".join(kept or without_links)


def _replace_ellipses(text: str, changes: list[Change]) -> str:
    def replacement(match: re.Match[str]) -> str:
        before = match.string[: match.start()].rstrip()
        after = match.string[match.end() :].lstrip()
        if not before or before[-1] in ".!?,;:":
            return " "
        if not after:
            return "."
        if after[0] in ".!?,;:":
            return ""  # the mark that follows ends the clause
        return " - " if after[0].islower() or after[0].isdigit() else ". "

    replaced = p.ELLIPSIS.sub(replacement, text)
    if replaced != text:
        changes.append(Change("ellipsis", "replaced an ellipsis"))
    return replaced


def _limit_emoji(text: str, emoji_allowed: bool, changes: list[Change]) -> str:
    found = list(p.EMOJI.finditer(text))
    allowed = 1 if emoji_allowed else 0
    if len(found) <= allowed:
        return text
    removed = found[:-1] if emoji_allowed else found
    pieces, position = [], 0
    for match in removed:
        pieces.append(text[position : match.start()])
        position = match.end()
    pieces.append(text[position:])
    changes.append(Change("emoji", "removed " + " ".join(m.group() for m in removed)))
    return "".join(pieces)


def _normalise_marks(text: str, changes: list[Change]) -> str:
    collapsed = re.sub(r"[?!]*\?[?!]*", "?", text)
    if collapsed != text:
        changes.append(Change("question", "collapsed a run of ? and ! into one ?"))
    text, collapsed = collapsed, re.sub(r"!{2,}", "!", collapsed)
    if collapsed != text:
        changes.append(Change("exclamation", "collapsed a run of ! into one"))
    collapsed = re.sub(r"¿{2,}", "¿", re.sub(r"¡{2,}", "¡", collapsed))
    # "Dinner?Drinks?" are two sentences.
    return re.sub(r"([?!])(?=[^\W_]|[¿¡])", r"\1 ", collapsed)


def _demote_marks(sentence: str, closing: str, opening: str, keep_first: bool) -> str:
    """Keep the first closing/opening mark when asked; the others become periods at a
    sentence end, else go."""
    out, kept_closing, kept_opening = [], not keep_first, not keep_first
    for index, char in enumerate(sentence):
        if char == opening:
            if not kept_opening:
                kept_opening = True
                out.append(char)
            continue
        if char == closing:
            if not kept_closing:
                kept_closing = True
                out.append(char)
            elif re.match(r"[\"')\]]*(?:\s|$)", sentence[index + 1 :]):
                out.append(".")
            continue
        out.append(char)
    return "".join(out)


def _limit_questions(text: str, changes: list[Change]) -> str:
    kept, dropped, asked = [], [], False
    for sentence in split_sentences(text):
        if p.question_count(sentence) == 0:
            kept.append(sentence)
        elif not asked:
            asked = True
            kept.append(_demote_marks(sentence, "?", "¿", keep_first=True))
        else:
            dropped.append(sentence)
    if dropped:
        changes.append(Change("question", "dropped later questions: " + " ".join(dropped)))
    return " ".join(kept)


def _limit_exclamations(text: str, changes: list[Change]) -> str:
    out, exclaimed, demoted = [], False, 0
    for sentence in split_sentences(text):
        if p.exclamation_count(sentence) == 0:
            out.append(sentence)
            continue
        out.append(_demote_marks(sentence, "!", "¡", keep_first=not exclaimed))
        demoted += exclaimed
        exclaimed = True
    if demoted:
        changes.append(Change("exclamation", f"turned {demoted} later exclamation(s) to periods"))
    return " ".join(out)


def _is_shouted(word: str, keep_caps: frozenset[str]) -> bool:
    """2+ letters, all upper-case, and a part ("NON-STOP" has two) not on the keep list."""
    letters = sum(char.isalpha() for char in word)
    pieces = word.split("-")
    return letters >= 2 and word.isupper() and any(piece not in keep_caps for piece in pieces)


def _lowered(piece: str, keep_caps: frozenset[str], name_tokens: dict[str, str]) -> str:
    """A shouted piece in lower case; a kept word as it is; the guest's name as they write it."""
    if piece in keep_caps:
        return piece
    return name_tokens.get(p.fold_accents(piece).lower(), piece.lower())


def _lower_caps(
    text: str, keep_caps: frozenset[str], name_tokens: dict[str, str], changes: list[Change]
) -> str:
    words = list(p.WORD.finditer(text))
    lowered = [_is_shouted(match.group(), keep_caps) for match in words]
    if not any(lowered):
        return text
    replacements: dict[int, str] = {}
    for index, match in enumerate(words):
        word = match.group()
        single = len(word) == 1 and word.isupper() and word != "I"
        beside_lowered = (index > 0 and lowered[index - 1]) or (
            index + 1 < len(words) and lowered[index + 1]
        )
        if not lowered[index] and not (single and beside_lowered):
            continue
        new = "-".join(_lowered(piece, keep_caps, name_tokens) for piece in word.split("-"))
        if new.lower() in {"i", "i'm", "i'll", "i'd", "i've", "i’m", "i’ll", "i’d", "i’ve"}:
            new = "I" + new[1:]
        if p.is_sentence_start(text, match.start()) and new[:1].islower():
            new = new[0].upper() + new[1:]
        replacements[match.start()] = new
    changes.append(
        Change("caps", "lowered " + " ".join(w.group() for w, low in zip(words, lowered) if low))
    )
    out, position = [], 0
    for match in words:
        if match.start() in replacements:
            out.append(text[position : match.start()] + replacements[match.start()])
            position = match.end()
    out.append(text[position:])
    return "".join(out)


def _number_value(match: re.Match[str]) -> str:
    word = next(group for group in match.groups() if group)
    return str(p.EN_NUMBERS.get(word.lower()) or p.ES_NUMBERS[word.lower()])


def _numbers_as_digits(text: str, changes: list[Change]) -> str:
    converted = p.NUMBER_WORD.sub(_number_value, text)
    if converted != text:
        changes.append(Change("number", "wrote number words as digits"))
    return converted


def _name_spans(text: str, guest_name: str) -> list[tuple[int, int]]:
    folded = p.fold_accents(text)
    names = [guest_name.strip(), guest_name.split()[0]]
    spans: list[tuple[int, int]] = []
    for name in dict.fromkeys(names):  # full name first, then the first name alone
        for match in p.name_pattern(name).finditer(folded):
            if all(match.end() <= start or match.start() >= end for start, end in spans):
                spans.append(match.span())
    return sorted(spans)


# ", Maria, is perfect": the address sat between a subject and its verb, both commas go.
_VERB_AFTER_ADDRESS = re.compile(
    r"(?i)\s*,\s*(?:is|are|was|were|has|have|had|will|would|can|could|should|does|do"
    r"|es|está|esta|son|están|estan|tiene|tienen|será|sera)\b"
)


def _remove_name_at(text: str, start: int, end: int) -> str:
    before, after = text[:start], text[end:]
    comma_before = re.search(r",\s*$", before)
    if comma_before and _VERB_AFTER_ADDRESS.match(after):
        return before[: comma_before.start()] + after[after.index(",") + 1 :]  # ", Maria, is"
    if comma_before and re.match(r"\s*(?:[,.!?;:]|$)", after):
        return before[: comma_before.start()] + after.lstrip()  # ", Maria, if" / ", Maria!"
    if p.is_sentence_start(text, start):
        rest = re.sub(r"^\s*,?\s*", "", after)
        return before + rest[:1].upper() + rest[1:]  # "Maria, we..." -> "We..."
    separator = "" if re.match(r"\s*[,.!?;:]", after) else " "
    return before.rstrip() + separator + after.lstrip()  # "Thanks Maria for" -> "Thanks for"


def _place_name(text: str, guest_name: str, first_message: bool, changes: list[Change]) -> str:
    spans = _name_spans(text, guest_name)
    at_start = bool(spans) and bool(p.NAME_PREFIX.match(p.fold_accents(text[: spans[0][0]])))
    extra = spans[1:] if at_start else spans
    for start, end in reversed(extra):
        text = _remove_name_at(text, start, end)
    if extra:
        changes.append(Change("name", f"removed {len(extra)} use(s) of the name not at the start"))
    greeting = p.LEADING_GREETING.match(text)
    if first_message and not at_start and greeting:
        first_name = guest_name.split()[0]
        text = f"{greeting.group(1)} {first_name}{text[greeting.end() :]}"
        changes.append(Change("name", "added the name after the opening greeting"))
    return text


def apply_style(
    text: str,
    *,
    guest_name: str | None = None,
    emoji_allowed: bool = False,
    first_message: bool = False,
    keep_caps: Iterable[str] = (),
) -> StyledReply:
    """Enforce the SMS style rules deterministically; see the module docstring. `keep_caps`
    adds upper-case words to keep (a casino's brand names) to DEFAULT_KEEP_CAPS."""
    changes: list[Change] = []
    caps = p.DEFAULT_KEEP_CAPS | {word.upper() for word in keep_caps}
    name = guest_name.strip() if guest_name and guest_name.strip() else None
    name_tokens = {p.fold_accents(t).lower(): t for t in (name or "").split()}
    styled = _join_lines(text, changes)
    styled = _remove_urls(p.tidy(styled), changes)
    # Emoji go before ellipses are read, so "Great! 🎉..." is seen as an ellipsis after "!".
    styled = p.tidy(_limit_emoji(styled, emoji_allowed, changes))
    styled = p.tidy(_replace_ellipses(styled, changes))
    styled = _normalise_marks(styled, changes)
    styled = _limit_questions(styled, changes)
    styled = _limit_exclamations(styled, changes)
    styled = _lower_caps(styled, caps, name_tokens, changes)
    if name:
        styled = _place_name(styled, name, first_message, changes)
    styled = _numbers_as_digits(styled, changes)  # after the name: "four Maria guests"
    # Marks orphaned by the removals ("Great! Maria?" -> "Great! ?") go with them.
    styled = re.sub(r"([.!?])[.!?]+", r"\1", p.tidy(styled))
    return StyledReply(styled, tuple(changes), max_parts=1 if first_message else 2)


def violations(
    text: str,
    *,
    guest_name: str | None = None,
    emoji_allowed: bool = False,
    keep_caps: Iterable[str] = (),
) -> list[str]:
    """The style rules `text` breaks, by the rule names apply_style reports, without changing
    it. Length is not a style rule here: split_sms owns it."""
    caps = p.DEFAULT_KEEP_CAPS | {word.upper() for word in keep_caps}
    sentences = split_sentences(text)
    found = []
    if p.LINE_BREAK.search(text):
        found.append("line_break")
    if p.URL.search(text):
        found.append("url")
    if p.ELLIPSIS.search(text):
        found.append("ellipsis")
    if len(p.EMOJI.findall(text)) > (1 if emoji_allowed else 0):
        found.append("emoji")
    if sum(p.question_count(s) for s in sentences) > 1:
        found.append("question")
    if sum(p.exclamation_count(s) for s in sentences) > 1:
        found.append("exclamation")
    if any(_is_shouted(match.group(), caps) for match in p.WORD.finditer(text)):
        found.append("caps")
    if p.NUMBER_WORD.search(text):
        found.append("number")
    if guest_name and guest_name.strip():
        spans = _name_spans(text, guest_name.strip())
        prefix = p.fold_accents(text[: spans[0][0]]) if spans else ""
        if len(spans) > 1 or (spans and not p.NAME_PREFIX.match(prefix)):
            found.append("name")
    return found
