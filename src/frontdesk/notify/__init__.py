"""Telling a person: alerts that go out by a signed webhook and by e-mail, up a chain of levels.

    notifier = build_notifier(settings)
    delivery = await notifier.send(Alert("esc_1", "P0", "Guest safety", ("…",), level=1))
    delivery.accepted  # at least one target took it: only then may a guest be told so

An alert's id stays the same when it is sent again (a retry, a reminder), so a receiver can
tell a repeat from a new alert. Nothing here names an assistant.
"""

from frontdesk.notify.alerts import Alert, Delivery, Priority, TargetOutcome
from frontdesk.notify.notifier import Notifier, build_notifier, notify_problems
from frontdesk.notify.webhook import SIGNATURE_HEADER, TIMESTAMP_HEADER, verify_signature

__all__ = [
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "Alert",
    "Delivery",
    "Notifier",
    "Priority",
    "TargetOutcome",
    "build_notifier",
    "notify_problems",
    "verify_signature",
]
