"""The SLA sweep's decisions (pure): retry a failed alert, remind, go up the chain."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from frontdesk.assistants.casino_host.build import insecure_settings
from frontdesk.assistants.casino_host.staff.sla import NoticeDue, notice_due, retry_delay
from frontdesk.assistants.casino_host.storage import Escalation

from .test_service import offline_settings

T0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)


def escalation(severity: str = "P0", **changes) -> Escalation:
    base = Escalation(
        escalation_id="esc_" + "0" * 32, casino_id="mohegan_sun", guest_uuid="g",
        guest_id_hash="0123456789abcdef", guest_last_four="0142", severity=severity,
        trigger_reason="compliance:emergency", trigger_source="compliance_gate",
        conversation_excerpt=[], guest_profile_summary={}, escalation_level=1, created_at=T0,
        paused_until=T0 + 30 * MIN, acknowledged=False, acknowledged_by=None,
        acknowledged_at=None, thread_id="t", notified_level=1,
    )  # fmt: skip
    return replace(base, **changes)


def test_a_failed_first_alert_is_tried_again_when_its_retry_is_due():
    failed = escalation(notified_level=0, notice_failures=1, next_notice_at=T0 + 30 * MIN / 60)
    assert notice_due(failed, T0 + timedelta(seconds=29)) is None
    assert notice_due(failed, T0 + timedelta(seconds=30)) == NoticeDue("alert", 1)


def test_retries_back_off_to_every_five_minutes():
    assert [retry_delay(n).total_seconds() for n in (1, 2, 3, 4, 5, 9)] == [
        30, 60, 120, 240, 300, 300,
    ]  # fmt: skip


@pytest.mark.parametrize(("severity", "sla_minutes"), [("P0", 7.5), ("P1", 30), ("P2", 120)])
def test_told_but_not_taken_is_reminded_at_half_the_sla_then_goes_up(severity, sla_minutes):
    sla = timedelta(minutes=sla_minutes)
    told = escalation(severity)
    assert notice_due(told, T0 + sla / 2 - MIN / 60) is None
    assert notice_due(told, T0 + sla / 2) == NoticeDue("remind", 1)
    reminded = replace(told, reminded_level=1)
    assert notice_due(reminded, T0 + sla - MIN / 60) is None
    assert notice_due(reminded, T0 + sla) == NoticeDue("raise", 2)
    # Level 2, told: its own reminder half an SLA into the level, then level 3.
    level_two = replace(reminded, escalation_level=2, notified_level=2)
    assert notice_due(level_two, T0 + sla * 1.5) == NoticeDue("remind", 2)
    assert notice_due(replace(level_two, reminded_level=2), T0 + sla * 2) == NoticeDue("raise", 3)
    top = replace(level_two, escalation_level=3, notified_level=3, reminded_level=3)
    assert notice_due(top, T0 + sla * 10) is None


def test_a_raised_level_whose_alert_failed_is_tried_again():
    raised = escalation(escalation_level=2, notified_level=1, reminded_level=1)
    assert notice_due(raised, T0 + 8 * MIN) == NoticeDue("alert", 2)


def test_nothing_is_due_once_a_person_has_it_or_for_p3():
    assert notice_due(escalation(acknowledged=True, notified_level=0), T0 + 60 * MIN) is None
    assert notice_due(escalation(closed_at=T0, notified_level=0), T0 + 60 * MIN) is None
    assert notice_due(escalation("P3"), T0 + timedelta(days=3)) is None
    # P3 still gets its first alert.
    assert notice_due(escalation("P3", notified_level=0), T0) == NoticeDue("alert", 1)


def test_an_alert_another_sweep_holds_is_not_due():
    held = escalation(notified_level=0, next_notice_at=T0 + MIN)
    assert notice_due(held, T0) is None and notice_due(held, T0 + MIN) is not None


def test_production_refuses_to_start_when_escalations_would_reach_no_one(tmp_path):
    settings = offline_settings(tmp_path).model_copy(update={"auth_mode": "required"})
    assert any("FRONTDESK_NOTIFY_CHAIN is empty" in p for p in insecure_settings(settings))
