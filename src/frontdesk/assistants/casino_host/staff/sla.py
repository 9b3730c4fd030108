"""When a person must have answered an escalation, and what the sweep does when nobody has
(item 39, issue 33). Pure: it reads an escalation and the time, and says what is due.

For an escalation of SLA T (P0 7.5 min, P1 30 min, P2 2 h, P3 none), unacknowledged:
- its first alert failed: tried again after 30 s, 1, 2, 4 then every 5 minutes;
- T/2 into a level, the level is reminded (the same people, told again);
- T after each level began, it goes one level up the chain (max 3), which alerts the next
  people (and those before them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from frontdesk.assistants.casino_host.storage.records import MAX_ESCALATION_LEVEL, Escalation

ACK_SLA: dict[str, timedelta | None] = {
    "P0": timedelta(minutes=7.5),
    "P1": timedelta(minutes=30),
    "P2": timedelta(hours=2),
    "P3": None,
}
RETRY_DELAYS = (timedelta(seconds=30), timedelta(minutes=1), timedelta(minutes=2),
                timedelta(minutes=4), timedelta(minutes=5))  # fmt: skip


@dataclass(frozen=True)
class NoticeDue:
    kind: Literal["alert", "remind", "raise"]
    level: int  # the level the alert goes out at


def raise_due(severity: str, level: int, created_at: datetime, now: datetime) -> bool:
    """Whether an unacknowledged escalation at `level` has outlived its deadline: level 1 is
    due one SLA after it was made, level 2 two SLAs after, and 3 is the top."""
    sla = ACK_SLA.get(severity)
    return sla is not None and level < MAX_ESCALATION_LEVEL and now - created_at >= sla * level


def retry_delay(failures: int) -> timedelta:
    """How long after its `failures`-th failure in a row an alert is tried again."""
    return RETRY_DELAYS[min(max(failures, 1), len(RETRY_DELAYS)) - 1]


def notice_due(escalation: Escalation, now: datetime) -> NoticeDue | None:
    """What the sweep owes this escalation now, if anything."""
    if escalation.acknowledged or escalation.closed_at is not None:
        return None
    if escalation.next_notice_at is not None and now < escalation.next_notice_at:
        return None  # a retry not yet due, or another sweep (replica) has it in hand
    level = escalation.escalation_level
    if raise_due(escalation.severity, level, escalation.created_at, now):
        return NoticeDue("raise", level + 1)
    if escalation.notified_level < level:  # nobody at this level has it yet
        return NoticeDue("alert", level)
    sla = ACK_SLA.get(escalation.severity)
    if sla is not None and escalation.reminded_level < level:
        level_began = escalation.created_at + sla * (level - 1)
        if now >= level_began + sla / 2:
            return NoticeDue("remind", level)
    return None


def ack_deadline(escalation: Escalation) -> datetime | None:
    """When the current level runs out (the staff page's timer); None for P3."""
    sla = ACK_SLA.get(escalation.severity)
    return None if sla is None else escalation.created_at + sla * escalation.escalation_level
