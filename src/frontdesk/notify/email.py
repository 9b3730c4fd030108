"""Alerts by e-mail over SMTP (the standard library's client, in a worker thread)."""

from __future__ import annotations

import asyncio
import smtplib
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import make_msgid

from frontdesk.notify.alerts import Alert


class SmtpMailer:
    def __init__(self, host: str, port: int, *, sender: str, starttls: bool = False,
                 username: str | None = None, password: str | None = None,
                 timeout_s: float = 5.0):  # fmt: skip
        self.host, self.port, self.sender = host, port, sender
        self._starttls, self._username, self._password = starttls, username, password
        self._timeout_s = timeout_s

    def message(self, alert: Alert, to: Sequence[str]) -> EmailMessage:
        mail = EmailMessage()
        mail["From"] = self.sender
        mail["To"] = ", ".join(to)
        mail["Subject"] = alert.subject
        domain = self.sender.rpartition("@")[2] or "localhost"
        mail["Message-ID"] = make_msgid(
            idstring=f"{alert.alert_id}.{alert.level}.{alert.repeat}", domain=domain
        )
        # A mail client threads the reminders of one alert together.
        mail["References"] = f"<{alert.alert_id}@{domain}>"
        mail["X-Frontdesk-Alert-Id"] = alert.alert_id
        mail.set_content(alert.text())
        return mail

    async def send(self, alert: Alert, to: Sequence[str]) -> None:
        """Raises OSError or smtplib.SMTPException when the server does not take it."""
        await asyncio.to_thread(self._send, self.message(alert, to))

    def _send(self, mail: EmailMessage) -> None:
        with smtplib.SMTP(self.host, self.port, timeout=self._timeout_s) as smtp:
            if self._starttls:
                smtp.starttls()
            if self._username and self._password:
                smtp.login(self._username, self._password)
            refused = smtp.send_message(mail)
        if refused:
            raise smtplib.SMTPRecipientsRefused(refused)
