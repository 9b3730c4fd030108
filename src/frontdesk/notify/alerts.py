"""What an alert says and what became of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Priority = Literal["P0", "P1", "P2", "P3"]

# How each priority reads at the top of an alert: a person scanning a channel sees the urgent
# ones first.
PRIORITY_LABELS: dict[str, str] = {
    "P0": "P0 URGENT",
    "P1": "P1 high",
    "P2": "P2 normal",
    "P3": "P3 low",
}


@dataclass(frozen=True)
class Alert:
    """One thing a person must look at. `alert_id` is stable across repeats; `level` is the
    chain level it has reached (1: the first people told); `link` opens it for staff.
    The text must already be fit to leave the building: no guest number, no card."""

    alert_id: str
    priority: Priority
    title: str
    lines: tuple[str, ...] = ()
    level: int = 1
    link: str | None = None
    repeat: int = 0  # 0: the first time; then how many times it was sent before

    @property
    def subject(self) -> str:
        if self.repeat:
            again = " (reminder)"
        elif self.level > 1:  # the people before did not take it in time
            again = f" (escalated to level {self.level})"
        else:
            again = ""
        return f"[{PRIORITY_LABELS[self.priority]}] {self.title}{again}"

    def text(self) -> str:
        body = [self.subject, *self.lines, f"Level {self.level}. Alert {self.alert_id}."]
        if self.link:
            body.append(f"Open: {self.link}")
        return "\n".join(body)


@dataclass(frozen=True)
class TargetOutcome:
    target: str  # "webhook:<host>" or "email:<n recipients>", never a secret URL
    ok: bool
    detail: str = ""


@dataclass(frozen=True)
class Delivery:
    """What happened to one alert: accepted when at least one target took it."""

    outcomes: tuple[TargetOutcome, ...]

    @property
    def accepted(self) -> bool:
        return any(outcome.ok for outcome in self.outcomes)

    def summary(self) -> str:
        if not self.outcomes:
            return "no one to notify: the escalation chain is not configured"
        return "; ".join(
            f"{o.target} {'ok' if o.ok else 'failed'}{': ' + o.detail if o.detail else ''}"
            for o in self.outcomes
        )
