"""A notifier that answers as told, for tests about the code around it (the reply a guest
gets, the sweep's bookkeeping). The real transports are tested in tests/notify and, end to
end with a real SMTP server and webhook receiver, in test_staff.py."""

from __future__ import annotations

from frontdesk.notify import Alert, Delivery, Notifier, TargetOutcome


class ScriptedNotifier(Notifier):
    def __init__(self, accept: bool = True) -> None:
        super().__init__((), webhook=None, mailer=None)
        self.accept = accept
        self.sent: list[Alert] = []

    async def send(self, alert: Alert) -> Delivery:
        self.sent.append(alert)
        detail = "" if self.accept else "ConnectionRefusedError"
        return Delivery((TargetOutcome("email:1 recipient", self.accept, detail),))
