"""The notifier: an alert at chain level N goes to every target of levels 1..N, all at once,
within one time limit; it is accepted when at least one target took it.

A target that fails is reported, never raised: the caller keeps what it was alerting about and
tries again later (an escalation's sweep), and tells the guest the truth meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
from collections.abc import Awaitable, Sequence
from urllib.parse import urlsplit

import httpx

from frontdesk.config import NotifyLevel, Settings
from frontdesk.notify.alerts import Alert, Delivery, TargetOutcome
from frontdesk.notify.email import SmtpMailer
from frontdesk.notify.webhook import SignedWebhook, target_name

logger = logging.getLogger(__name__)

MIN_SECRET_CHARS = 32


class Notifier:
    def __init__(self, chain: Sequence[NotifyLevel], *, webhook: SignedWebhook | None,
                 mailer: SmtpMailer | None, timeout_s: float = 5.0):  # fmt: skip
        self.chain = tuple(chain)
        self._webhook = webhook
        self._mailer = mailer
        self._timeout_s = timeout_s

    @property
    def configured(self) -> bool:
        """Whether anyone at all would be told."""
        return reaches_anyone(self.chain)

    def targets(self, level: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(webhook URLs, e-mail addresses) of levels 1..level, each once. A level past the
        chain's end is its last level."""
        reached = self.chain[: max(1, level)]
        urls = tuple(dict.fromkeys(lv.webhook for lv in reached if lv.webhook))
        emails = tuple(dict.fromkeys(addr for lv in reached for addr in lv.email))
        return urls, emails

    async def send(self, alert: Alert) -> Delivery:
        urls, emails = self.targets(alert.level)
        jobs = [self._post(url, alert) for url in urls]
        if emails:
            jobs.append(self._mail(emails, alert))
        if not jobs:
            return Delivery(())
        outcomes = await asyncio.gather(*(self._in_time(job) for job in jobs))
        delivery = Delivery(tuple(outcomes))
        log = logger.info if delivery.accepted else logger.error
        log("alert %s (%s, level %d): %s", alert.alert_id, alert.priority, alert.level,
            delivery.summary())  # fmt: skip
        return delivery

    async def _in_time(self, job: Awaitable[TargetOutcome]) -> TargetOutcome:
        try:
            return await asyncio.wait_for(job, self._timeout_s)
        except TimeoutError:
            return TargetOutcome("timeout", False, f"no answer within {self._timeout_s:g} s")

    async def _post(self, url: str, alert: Alert) -> TargetOutcome:
        name = target_name(url)
        if self._webhook is None:
            return TargetOutcome(name, False, "no webhook sender")
        try:
            await self._webhook.post(url, alert)
        except httpx.HTTPStatusError as exc:
            return TargetOutcome(name, False, f"answered {exc.response.status_code}")
        except httpx.HTTPError as exc:
            return TargetOutcome(name, False, type(exc).__name__)
        return TargetOutcome(name, True)

    async def _mail(self, to: Sequence[str], alert: Alert) -> TargetOutcome:
        name = f"email:{len(to)} recipient{'s' if len(to) != 1 else ''}"
        if self._mailer is None:
            return TargetOutcome(name, False, "no mail server (FRONTDESK_NOTIFY_SMTP_HOST)")
        try:
            await self._mailer.send(alert, to)
        except (OSError, smtplib.SMTPException) as exc:
            return TargetOutcome(name, False, type(exc).__name__)
        return TargetOutcome(name, True)


def reaches_anyone(chain: Sequence[NotifyLevel]) -> bool:
    return any(level.email or level.webhook for level in chain)


def build_notifier(settings: Settings, *,
                   transport: httpx.AsyncBaseTransport | None = None) -> Notifier:  # fmt: skip
    secret = settings.notify_webhook_secret
    webhook = SignedWebhook(secret.get_secret_value() if secret else None,
                            timeout_s=settings.notify_timeout_s, transport=transport)  # fmt: skip
    mailer = None
    if settings.notify_smtp_host:
        password = settings.notify_smtp_password
        mailer = SmtpMailer(
            settings.notify_smtp_host,
            settings.notify_smtp_port,
            sender=settings.notify_email_from,
            starttls=settings.notify_smtp_starttls,
            username=settings.notify_smtp_username,
            password=password.get_secret_value() if password else None,
            timeout_s=settings.notify_timeout_s,
        )
    return Notifier(settings.notify_chain, webhook=webhook, mailer=mailer,
                    timeout_s=settings.notify_timeout_s)  # fmt: skip


def notify_problems(settings: Settings) -> list[str]:
    """Why alerts would not reach anyone, or could be forged, in a production set-up. An
    assistant that escalates to people lists these among its insecure settings."""
    chain = settings.notify_chain
    problems = []
    if not reaches_anyone(chain):
        problems.append(
            "FRONTDESK_NOTIFY_CHAIN is empty: escalations would reach no one; list who is told "
            'at each level, e.g. [{"email": ["host-desk@casino.example"]}]'
        )
    if any(level.email for level in chain) and not settings.notify_smtp_host:
        problems.append("FRONTDESK_NOTIFY_SMTP_HOST is unset, but the chain lists e-mail addresses")
    if any(level.webhook for level in chain):
        secret = settings.notify_webhook_secret
        if secret is None or len(secret.get_secret_value()) < MIN_SECRET_CHARS:
            problems.append(
                f"FRONTDESK_NOTIFY_WEBHOOK_SECRET must be at least {MIN_SECRET_CHARS} random "
                "characters: webhook alerts are signed with it"
            )
        for level in chain:
            if level.webhook and urlsplit(level.webhook).scheme != "https":
                problems.append(f"FRONTDESK_NOTIFY_CHAIN: {target_name(level.webhook)} is not "
                                "https: an alert would cross the network in clear")  # fmt: skip
    return problems
