"""What a model may see of a guest profile: `GuestProfile.prompt_view(now)` builds it.

Only fields that are consented, not withdrawn, in a scope a prompt may use, and at an effective
confidence of at least 0.40. The phone is never in it and the email is masked. The responsible-
gaming flag is carried for the planner's and the offer rules' decisions but is left out of
`as_prompt_dict()`: an agent must never be able to mention it to the guest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# analytics is for anonymised aggregates and third_party for the casino CRM: neither personalises
# a reply, so neither reaches a prompt.
PROMPT_SCOPES: frozenset[str] = frozenset({"personalization", "cross_session", "marketing"})


@dataclass(frozen=True)
class ProfileView:
    values: dict[str, Any] = field(default_factory=dict)  # canonical path -> value
    confidences: dict[str, float] = field(default_factory=dict)
    conversation_phase: str = "pre_visit"
    completeness: float = 0.0
    responsible_gaming_triggered: bool = False
    language: str | None = None

    def known(self, path: str) -> bool:
        return path in self.values

    def as_prompt_dict(self) -> dict[str, Any]:
        """Values nested by section, for a prompt block."""
        nested: dict[str, Any] = {}
        for path, value in sorted(self.values.items()):
            node = nested
            *parents, leaf = path.split(".")
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = value
        return nested

    def to_dict(self) -> dict[str, Any]:
        return {
            "values": dict(self.values),
            "confidences": dict(self.confidences),
            "conversation_phase": self.conversation_phase,
            "completeness": self.completeness,
            "responsible_gaming_triggered": self.responsible_gaming_triggered,
            "language": self.language,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> ProfileView:
        return cls(
            values=dict(raw.get("values") or {}),
            confidences=dict(raw.get("confidences") or {}),
            conversation_phase=raw.get("conversation_phase") or "pre_visit",
            completeness=float(raw.get("completeness") or 0.0),
            responsible_gaming_triggered=bool(raw.get("responsible_gaming_triggered", False)),
            language=raw.get("language"),
        )
