"""The whole text path of an agent reply, for the graph's persona_envelope node to call.

Order: sanitize (leaks and markdown out first, so no later rule reads them) -> after-model
filters (compliance decides on the model's words) -> style -> split into SMS. The safe gaming
fallback goes through style and split like any reply.
"""

from __future__ import annotations

from dataclasses import dataclass

from frontdesk.assistants.casino_host.sms.change import Change, rules_of
from frontdesk.assistants.casino_host.sms.disclosure import discloses_ai, with_ai_disclosure
from frontdesk.assistants.casino_host.sms.filters import filter_reply
from frontdesk.assistants.casino_host.sms.gsm import fits_one_sms, fold_lookalikes
from frontdesk.assistants.casino_host.sms.persona import apply_style, sanitize
from frontdesk.assistants.casino_host.sms.segment import split_sms


@dataclass(frozen=True)
class ShapedReply:
    """What to send: `parts` are the SMS in order (empty when nothing sendable is left, and
    the caller sends its static fallback); `text` is the styled reply before splitting."""

    parts: tuple[str, ...]
    text: str
    changes: tuple[Change, ...]
    fallback_used: bool

    @property
    def rules(self) -> set[str]:
        return rules_of(self.changes)


def shape_reply(
    text: str,
    *,
    agent: str,
    guest_name: str | None = None,
    emoji_allowed: bool = False,
    first_message: bool = False,
    language: str = "en",
    max_parts: int | None = None,
    disclose_ai: bool = False,
) -> ShapedReply:
    """Sanitize, filter, style and split one agent reply. `max_parts` defaults to 1 for a
    first message and 2 otherwise (StyledReply.max_parts). `disclose_ai`: the first SMS of a
    session, which says an AI is texting (after styling, so no rule rewrites the tag)."""
    changes: list[Change] = []
    sanitized = sanitize(text)
    if sanitized.split() != text.split():
        changes.append(Change("sanitize", "removed leaked labels, state or markdown"))
    filtered = filter_reply(sanitized, agent=agent, language=language)
    changes.extend(filtered.changes)
    styled = apply_style(
        filtered.text,
        guest_name=guest_name,
        emoji_allowed=emoji_allowed,
        first_message=first_message,
    )
    changes.extend(styled.changes)
    text, limit = styled.text, max_parts or styled.max_parts
    if disclose_ai and not discloses_ai(text):
        text = with_ai_disclosure(text, language)
        changes.append(Change("ai_disclosure", "said that an AI is texting (first of session)"))
        # The disclosure is the law's and one SMS for a first message a style rule: when the
        # tag pushes the answer past one SMS (70 characters in UCS-2), it may take a second
        # rather than lose its answer.
        if limit == 1 and not fits_one_sms(text):
            limit = 2
    parts = split_sms(text, max_parts=limit)
    if " ".join(parts).split() != fold_lookalikes(text).split():
        changes.append(Change("length", f"shortened to fit {len(parts)} SMS"))
    return ShapedReply(tuple(parts), text, tuple(changes), filtered.fallback_used)
