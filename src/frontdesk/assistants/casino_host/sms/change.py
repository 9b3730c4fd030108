"""One change made to a reply on its way to the guest, kept for the audit trail and tests."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    """`rule` names the rule that acted (e.g. "question", "url", "comp_language");
    `detail` says what it did, in words."""

    rule: str
    detail: str


def rules_of(changes: tuple[Change, ...] | list[Change]) -> set[str]:
    """The rules that acted, for a quick check."""
    return {change.rule for change in changes}
