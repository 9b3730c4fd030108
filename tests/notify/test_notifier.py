"""The notifier with its two real transports: a signed webhook and SMTP."""

from __future__ import annotations

import time

import pytest
from tests.notify_servers import free_port

from frontdesk.config import NotifyLevel, Settings
from frontdesk.notify import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Alert,
    build_notifier,
    notify_problems,
    verify_signature,
)

SECRET = "s" * 40
ALERT = Alert("esc_123", "P0", "Guest safety: emergency", ("Guest ••0142", "in: help"),
              link="http://127.0.0.1:8080/casino_host/staff")  # fmt: skip


def settings(chain: list[NotifyLevel], smtp_port: int | None = None, **extra) -> Settings:
    return Settings(
        notify_chain=chain,
        notify_webhook_secret=SECRET,
        notify_smtp_host="127.0.0.1" if smtp_port else None,
        notify_smtp_port=smtp_port or 25,
        notify_email_from="frontdesk@casino.example",
        notify_timeout_s=extra.pop("timeout", 3.0),
        **extra,
    )


async def test_an_alert_arrives_by_email_and_by_signed_webhook(smtp, hook):
    inbox, port = smtp
    chain = [NotifyLevel(email=["host@casino.example"], webhook=hook.url)]
    delivery = await build_notifier(settings(chain, port)).send(ALERT)

    assert delivery.accepted and all(o.ok for o in delivery.outcomes)
    [(rcpt, mail)] = inbox.mails
    assert rcpt == ["host@casino.example"]
    assert mail["Subject"] == "[P0 URGENT] Guest safety: emergency"
    assert mail["X-Frontdesk-Alert-Id"] == "esc_123"
    assert "in: help" in mail.get_payload() and "/casino_host/staff" in mail.get_payload()
    [(headers, body)] = hook.posts
    assert hook.bodies()[0]["text"] == "[P0 URGENT] Guest safety: emergency"
    assert hook.bodies()[0]["blocks"][0]["type"] == "header"
    assert verify_signature(SECRET, headers[TIMESTAMP_HEADER], body, headers[SIGNATURE_HEADER])
    # The report names the webhook by host, never by its secret path.
    assert "secretpath" not in delivery.summary()


def test_a_forged_or_replayed_post_fails_verification():
    body = b'{"text": "x"}'
    from frontdesk.notify.webhook import signature

    now = time.time()
    stamp = str(int(now))
    good = signature(SECRET, stamp, body)
    assert verify_signature(SECRET, stamp, body, good, now=now)
    assert not verify_signature(SECRET, stamp, body + b" ", good, now=now)
    assert not verify_signature("another secret", stamp, body, good, now=now)
    assert not verify_signature(SECRET, stamp, body, good, now=now + 301)
    assert not verify_signature(SECRET, "not a time", body, good, now=now)


async def test_level_two_goes_up_the_chain_and_keeps_level_one_told(smtp):
    inbox, port = smtp
    chain = [NotifyLevel(email=["host@c.example"]),
             NotifyLevel(email=["manager@c.example", "host@c.example"]),
             NotifyLevel(email=["gm@c.example"])]  # fmt: skip
    notifier = build_notifier(settings(chain, port))
    await notifier.send(ALERT)
    await notifier.send(Alert("esc_123", "P0", "Guest safety", level=1, repeat=1))
    await notifier.send(Alert("esc_123", "P0", "Guest safety", level=2))
    assert [rcpt for rcpt, _ in inbox.mails] == [
        ["host@c.example"],
        ["host@c.example"],
        ["host@c.example", "manager@c.example"],
    ]
    assert inbox.mails[1][1]["Subject"].endswith("(reminder)")
    assert inbox.mails[2][1]["Subject"] == "[P0 URGENT] Guest safety (escalated to level 2)"
    # Past the chain's end: every level.
    assert notifier.targets(9)[1] == ("host@c.example", "manager@c.example", "gm@c.example")


async def test_one_target_down_the_other_takes_it(smtp, hook):
    _inbox, port = smtp
    hook.status = 500
    chain = [NotifyLevel(email=["host@casino.example"], webhook=hook.url)]
    delivery = await build_notifier(settings(chain, port)).send(ALERT)
    assert delivery.accepted
    assert {o.target: o.ok for o in delivery.outcomes} == {
        "webhook:127.0.0.1": False,
        "email:1 recipient": True,
    }
    assert "answered 500" in delivery.summary()


async def test_everything_down_is_not_accepted_and_says_why(hook):
    hook.status = 503
    chain = [NotifyLevel(email=["host@casino.example"], webhook=hook.url)]
    delivery = await build_notifier(settings(chain, free_port())).send(ALERT)
    assert not delivery.accepted
    assert "ConnectionRefusedError" in delivery.summary() or "failed" in delivery.summary()
    assert len(delivery.outcomes) == 2 and not any(o.ok for o in delivery.outcomes)


async def test_a_slow_receiver_counts_as_not_accepted(hook):
    hook.delay_s = 1.5
    delivery = await build_notifier(settings([NotifyLevel(webhook=hook.url)], timeout=0.3)).send(
        ALERT
    )
    assert not delivery.accepted
    assert "no answer within 0.3 s" in delivery.summary() or "Timeout" in delivery.summary()


async def test_no_chain_tells_no_one():
    notifier = build_notifier(Settings())
    assert not notifier.configured
    delivery = await notifier.send(ALERT)
    assert not delivery.accepted and "not configured" in delivery.summary()


@pytest.mark.parametrize(
    ("chain", "extra", "expected"),
    [
        ([], {}, "FRONTDESK_NOTIFY_CHAIN is empty"),
        ([NotifyLevel(email=["a@b.example"])], {}, "FRONTDESK_NOTIFY_SMTP_HOST is unset"),
        ([NotifyLevel(webhook="http://hooks.example/x")], {}, "is not https"),
        (
            [NotifyLevel(webhook="https://hooks.example/x")],
            {"notify_webhook_secret": "short"},
            "FRONTDESK_NOTIFY_WEBHOOK_SECRET",
        ),
    ],
)
def test_production_problems_name_the_variable(chain, extra, expected):
    values = {"notify_chain": chain, "notify_webhook_secret": SECRET, **extra}
    assert any(expected in problem for problem in notify_problems(Settings(**values)))


def test_a_complete_chain_has_no_problems():
    good = Settings(
        notify_chain=[NotifyLevel(email=["a@b.example"], webhook="https://hooks.example/x")],
        notify_webhook_secret=SECRET,
        notify_smtp_host="smtp.example",
    )
    assert notify_problems(good) == []


def test_the_chain_reads_from_the_environment(monkeypatch):
    monkeypatch.setenv("FRONTDESK_NOTIFY_CHAIN", '[{"email": ["a@b.example"]}, {"webhook": '
                       '"https://hooks.example/x"}]')  # fmt: skip
    chain = Settings().notify_chain
    assert chain == [
        NotifyLevel(email=["a@b.example"]),
        NotifyLevel(webhook="https://hooks.example/x"),
    ]
