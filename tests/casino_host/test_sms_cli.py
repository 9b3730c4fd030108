"""`frontdesk sms ...` (issue 19's CLI contract): verify-chain prints the chain's verification as
JSON and exits 1 when it is broken."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from frontdesk.assistants.casino_host.storage import Store
from frontdesk.cli import app
from frontdesk.config import get_settings

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("offline_cli_env")

NOW = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
PHONE = "+18605550177"


@pytest.fixture
def store():
    opened = Store.from_settings(get_settings())
    opened.put_casino("mohegan_sun", name="Mohegan Sun", timezone="America/New_York", state="CT")
    yield opened
    opened.close()


def _verify(*extra: str):
    return runner.invoke(
        app, ["sms", "verify-chain", "--casino", "mohegan_sun", "--guest", PHONE, *extra]
    )


def test_verify_chain_prints_the_result(store: Store):
    guest, _ = store.get_or_create_guest("mohegan_sun", PHONE, now=NOW)
    first = store.append_consent_event("mohegan_sun", guest, {"action": "opt_out"}, now=NOW)
    second = store.append_consent_event("mohegan_sun", guest, {"action": "opt_in"}, now=NOW)
    result = _verify()
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "valid": True,
        "chain_length": 2,
        "broken_links": [],
        "latest_hash": second.content_hash,
    }
    assert first.content_hash != second.content_hash


def test_a_broken_chain_exits_1_and_names_the_position(store: Store):
    guest, _ = store.get_or_create_guest("mohegan_sun", PHONE, now=NOW)
    store.append_consent_event("mohegan_sun", guest, {"action": "opt_out"}, now=NOW)
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER consent_events_no_update"))
        conn.execute(text("""UPDATE consent_events SET payload = '{"action": "opt_in"}'"""))
    result = _verify()
    assert result.exit_code == 1
    assert json.loads(result.stdout)["broken_links"] == [0]


def test_verify_chain_all_checks_every_guest_and_names_the_broken_ones(store: Store):
    guests = []
    for i, number in enumerate(("+18605550201", "+18605550202", "+18605550203")):
        guest, _ = store.get_or_create_guest("mohegan_sun", number, now=NOW)
        store.append_consent_event("mohegan_sun", guest, {"action": "opt_in", "n": i}, now=NOW)
        guests.append(guest)
    every = ["sms", "verify-chain", "--casino", "mohegan_sun", "--all"]
    result = runner.invoke(app, every)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[-1]) == {
        "casino": "mohegan_sun", "chains": 3, "valid": True, "broken": 0}  # fmt: skip
    with store.engine.begin() as conn:
        conn.execute(text("DROP TRIGGER consent_events_no_update"))
        conn.execute(text("""UPDATE consent_events SET payload = '{"action": "opt_out"}'
                             WHERE guest_uuid = :g"""), {"g": guests[1]})  # fmt: skip
    result = runner.invoke(app, every)
    assert result.exit_code == 1
    *broken, summary = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["guest_uuid"] for row in broken] == [guests[1]]
    assert broken[0]["broken_links"] == [0] and "+1860" not in result.stdout
    assert summary["broken"] == 1 and summary["chains"] == 3
    both = runner.invoke(app, [*every, "--guest", PHONE])
    assert both.exit_code == 2 and "--all" in both.output


@pytest.mark.parametrize(
    ("guest", "message"),
    [("8605550177x", "E.164"), ("+18605550999", "no guest with that number")],
)
def test_bad_or_unknown_guests_are_clear_errors(store: Store, guest: str, message: str):
    result = runner.invoke(
        app, ["sms", "verify-chain", "--casino", "mohegan_sun", "--guest", guest]
    )
    assert result.exit_code == 2 and message in " ".join(result.output.split())


def test_simulate_runs_the_pipeline_and_reports_the_opt_out(store: Store):
    def simulate(text: str) -> dict:
        result = runner.invoke(
            app, ["sms", "simulate", "--casino", "mohegan_sun", "--from", PHONE, text]
        )
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    stopped = simulate("STOP")
    assert stopped["status"] == "processed" and stopped["opted_in"] is False
    assert stopped["replies"][0].startswith("You've been unsubscribed from Mohegan Sun")
    silent = simulate("Is the buffet open?")
    assert silent == {"status": "processed", "replies": [], "opted_in": False}
    started = simulate("START")
    assert started["opted_in"] is True and started["replies"][0].startswith("Welcome back")
    verified = _verify()
    assert json.loads(verified.stdout)["chain_length"] == 2


def test_simulate_refuses_a_bad_number_or_time(store: Store):
    for args, message in (
        (["--from", "555"], "E.164"),
        (["--from", PHONE, "--at", "tomorrow"], "ISO time"),
        (["--from", PHONE, "--at", "2026-11-25T21:30:00"], "time zone offset"),
    ):
        result = runner.invoke(app, ["sms", "simulate", "--casino", "mohegan_sun", *args, "hi"])
        assert result.exit_code == 2 and message in " ".join(result.output.split()), args
