"""`frontdesk tickets list|show|answer|close`, around a real handoff asked with `frontdesk ask`
(the telecom assistant with the scripted model and hash embeddings)."""

import json
import uuid

import pytest
from typer.testing import CliRunner

from frontdesk.cli import app

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("offline_cli_env")


def ask(thread: str, text: str) -> dict:
    result = runner.invoke(app, ["ask", "-a", "telecom", "--json", "--thread", thread, text])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_operator_answers_and_closes_a_handoff():
    assert runner.invoke(app, ["tickets", "list"]).stdout.strip() == "no active tickets"
    thread = str(uuid.uuid4())
    opened = ask(thread, "chcę rozmawiać z konsultantem")
    assert opened["route"] == "handoff" and "zgłoszenie nr 1" in opened["answer"]

    listed = json.loads(runner.invoke(app, ["tickets", "list", "--json"]).stdout)["tickets"]
    assert [(t["id"], t["assistant"], t["status"], t["thread_key"]) for t in listed] == [
        (1, "telecom", "open", thread)]
    table = runner.invoke(app, ["tickets", "list"]).stdout
    assert "telecom" in table and "open" in table

    held = ask(thread, "halo, jest tam ktoś?")
    assert held["route"] == "handoff" and "dołączyłem" in held["answer"]

    answered = runner.invoke(
        app, ["tickets", "answer", "1", "Dzień dobry, tu Ala.", "--author", "Ala"]
    )
    assert answered.exit_code == 0, answered.output
    shown = runner.invoke(app, ["tickets", "show", "1"]).stdout
    assert "chcę rozmawiać z konsultantem" in shown
    assert "customer> halo, jest tam ktoś?" in shown
    assert "person (Ala)> Dzień dobry, tu Ala." in shown
    as_json = runner.invoke(app, ["tickets", "show", "1", "--json"]).stdout
    assert json.loads(as_json)["status"] == "answered"

    closed = runner.invoke(app, ["tickets", "close", "1"])
    assert closed.exit_code == 0 and "closed" in closed.stdout
    assert runner.invoke(app, ["tickets", "list"]).stdout.strip() == "no active tickets"
    assert "telecom" in runner.invoke(app, ["tickets", "list", "--status", "closed"]).stdout
    again = ask(thread, "ile kosztuje plan?")
    assert again["route"] != "handoff"


def test_unknown_or_closed_tickets_and_bad_answers_are_clear_errors():
    missing = runner.invoke(app, ["tickets", "show", "7"])
    assert missing.exit_code == 1 and "no ticket 7" in missing.output
    assert runner.invoke(app, ["tickets", "close", "7"]).exit_code == 1
    ask(str(uuid.uuid4()), "agent please")
    blank = runner.invoke(app, ["tickets", "answer", "1", "   "])
    assert blank.exit_code == 2 and "must not be empty" in blank.output
    runner.invoke(app, ["tickets", "close", "1"])
    late = runner.invoke(app, ["tickets", "answer", "1", "hello?"])
    assert late.exit_code == 1 and "closed" in late.output
    assert runner.invoke(app, ["tickets", "list", "--status", "pending"]).exit_code == 2
