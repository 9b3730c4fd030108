"""`frontdesk sms outbound|campaign|retry-queue|inbox` (issue 19's CLI contract): every
outbound goes through the eligibility gate (T8, T9), the first carries the AI disclosure (T17),
YES to it is the double opt-in (T19), and a STOP leaves a campaign nothing to send (T5)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from frontdesk.assistants.casino_host.storage import Store
from frontdesk.cli import app
from frontdesk.config import get_settings

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("offline_cli_env")

PHONE = "+18605550177"
OTHER = "+18605550178"
AFTERNOON = "2026-11-25T14:00:00-05:00"  # Mohegan Sun (America/New_York)
NIGHT = "2026-11-25T21:00:00-05:00"


def sms(*args: str) -> dict:
    result = runner.invoke(app, ["sms", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def outbound(kind: str, text: str, at: str = AFTERNOON, to: str = PHONE) -> dict:
    return sms("outbound", "--casino", "mohegan_sun", "--to", to, "--type", kind, "--at", at, text)


def simulate(text: str) -> dict:
    return sms("simulate", "--casino", "mohegan_sun", "--from", PHONE, text)


def consent_of(number: str) -> dict:
    with Store.from_settings(get_settings()) as store:
        guest = store.find_guest("mohegan_sun", number)
        return store.load_profile("mohegan_sun", guest).profile.consent


def test_the_gate_decides_and_yes_to_the_first_outbound_is_written_consent():
    refused = outbound("marketing", "Spring buffet special this weekend")
    assert (refused["sent"], refused["reason"]) == (False, "consent_tier")
    notice = outbound("transactional", "Your table at Todd English's Tuscany is ready", at=NIGHT)
    assert notice == {**notice, "sent": True, "reason": None}  # transactional: any hour

    # A YES to a message that asked nothing ("your table is ready") is no consent (issue 33).
    simulate("Sí")
    assert consent_of(PHONE).get("consent_type") != "express_written"
    ask = outbound("transactional", "Want Mohegan Sun offers by text? Up to 8 msgs/month. "
                   "Reply YES to subscribe, STOP to opt out.", at="2026-11-25T21:05:00-05:00")  # fmt: skip
    assert ask["sent"] is True
    confirmed = simulate("Sí")  # T19
    assert confirmed["replies"][0].startswith("Gracias. Usted recibira ofertas de Mohegan Sun")
    consent = consent_of(PHONE)
    assert consent["consent_type"] == "express_written" and consent["marketing_consent"]
    evidence = consent["written_consent_evidence"]
    assert evidence["prompted_by_message_id"] == ask["outbound_id"]
    assert evidence["method"] == "sms_double_opt_in"
    # X4: the words the guest was shown and the rules consent was taken under.
    assert evidence["disclosure_text"].startswith("Want Mohegan Sun offers by text?")
    assert evidence["tcpa_version"] and evidence["channel"] == "sms"
    chain = sms("verify-chain", "--casino", "mohegan_sun", "--guest", PHONE)
    assert chain["valid"] and chain["chain_length"] == 1

    assert outbound("marketing", "Spring buffet special this weekend")["sent"] is True
    inbox = sms("inbox", "--casino", "mohegan_sun", "--guest", PHONE)
    # Sent, and reported delivered by the simulator (each command waits for its reports).
    sent = {m["body"] for m in inbox["outbound"] if m["status"] == "delivered"}
    # T17: the first SMS that reaches the guest says it is an AI; later ones in the session not.
    # The reply to "Sí" went through the queue too.
    assert {
        # The first SMS the guest ever got ends with the opt-out line (issue 33).
        "Seven (AI host): Your table at Todd English's Tuscany is ready. Reply STOP to opt out.",
        confirmed["replies"][0],
        "Spring buffet special this weekend",
    } <= sent
    late = outbound("marketing", "Late show tonight", at=NIGHT)
    assert (late["sent"], late["reason"]) == (False, "quiet_hours")  # T8


def test_a_yes_that_answers_nothing_changes_nothing():
    assert simulate("yes")["replies"] != []  # conversation for the host, no consent change
    assert consent_of(PHONE).get("consent_type") is None


def test_a_campaign_skips_the_opted_out_and_a_second_run_sends_nothing_twice():
    outbound("transactional", "Welcome to Mohegan Sun texts", at=NIGHT)
    simulate("YES")
    outbound("transactional", "Welcome to Mohegan Sun texts", at=NIGHT, to=OTHER)
    assert simulate("STOP")["opted_in"] is False
    run = ["campaign", "--casino", "mohegan_sun", "--type", "informational", "--at", AFTERNOON]
    targets = ["--to", PHONE, "--to", OTHER, "Our buffet reopens Friday"]
    dry = sms(*run, "--dry-run", *targets)
    assert dry["dry_run"] and dry["sent"] == []  # OTHER never texted: no prior consent
    assert {s["to"]: s["reason"] for s in dry["skipped"]} == {
        PHONE: "stop_status",
        OTHER: "consent_tier",
    }
    sent = sms(*run, "--id", "spring", *targets)
    assert sent["sent"] == [] and sent["skipped"][0] == {"to": PHONE, "reason": "stop_status"}
    again = sms(*run, "--id", "spring", *targets)
    assert {s["reason"] for s in again["skipped"]} == {"already blocked"}
    queue = sms("retry-queue", "--casino", "mohegan_sun")
    assert queue == {"sent_now": [], "waiting": [], "dead_letters": []}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--to", "555", "--type", "marketing"], "E.164"),
        (["--to", PHONE, "--type", "promo"], "--type must be one of"),
        (["--to", PHONE, "--type", "marketing", "--at", "2026-11-25T21:30:00"], "offset"),
    ],
)
def test_outbound_refuses_bad_input(args: list[str], message: str):
    result = runner.invoke(app, ["sms", "outbound", "--casino", "mohegan_sun", *args, "hi"])
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_an_unknown_casino_is_a_clear_error():
    result = runner.invoke(
        app, ["sms", "outbound", "--casino", "nowhere", "--to", PHONE, "--type", "marketing", "x"]
    )
    assert result.exit_code == 1 and "no casino 'nowhere'" in " ".join(result.output.split())
