"""The `frontdesk` command with the scripted model and hash embeddings (fast, offline)."""

import json

import pytest
from typer.testing import CliRunner

from frontdesk.assistants.base import ChatEvent
from frontdesk.assistants.concierge.service import KNOWLEDGE_FILE
from frontdesk.assistants.telecom.service import DOCS_DIR as TELECOM_DOCS
from frontdesk.cli import app
from frontdesk.config import get_settings
from frontdesk.knowledge.chunking import chunk_source
from frontdesk.knowledge.loader import load_knowledge_file

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("offline_cli_env")


def test_ingest_is_idempotent_and_reports_skipped_items(tmp_path, monkeypatch, small_kb):
    first = runner.invoke(app, ["ingest"])
    assert first.exit_code == 0, first.output
    shipped = load_knowledge_file(KNOWLEDGE_FILE)
    chunks = len(chunk_source(shipped, 800, 100))
    assert chunks > len(shipped.items) > 100, "some long items are split"
    printed = " ".join(first.output.split())  # the console wraps long lines
    assert f"concierge: {chunks} chunks from {len(shipped.items)} items: {chunks} added" in printed
    manuals = len(list(TELECOM_DOCS.glob("*.md")))
    assert "telecom: " in printed and f"chunks from {manuals} items" in printed
    assert "analyst: " in printed and "chunks from 8 items" in printed
    again = runner.invoke(app, ["ingest", "--if-changed"])
    assert again.output.count("nothing to do") == 3

    monkeypatch.setenv("FRONTDESK_CONCIERGE_KNOWLEDGE_FILE", str(small_kb))
    get_settings.cache_clear()
    broken = runner.invoke(app, ["ingest", "--assistant", "concierge"])
    assert broken.exit_code == 0
    printed = " ".join(broken.output.split())  # the console wraps long lines
    assert "skipped restaurants[2]" in printed and "2 items skipped" in printed


def test_ask_json_prints_one_object_and_continues_a_thread():
    result = runner.invoke(app, ["ask", "--assistant", "concierge", "--json", "Hello!"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert set(answer) == {
        "answer", "route", "confidence", "sources", "validation", "thread_id", "claims"
    }  # fmt: skip
    assert answer["route"] == "greeting" and "Mohegan Sun" in answer["answer"]
    assert answer["claims"] == []  # a greeting draws on no document

    follow = runner.invoke(
        app, ["ask", "--json", "--thread", answer["thread_id"], "what is the weather in paris?"]
    )
    assert json.loads(follow.stdout)["thread_id"] == answer["thread_id"]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["ask", "--assistant", "nope", "hi"],
            "unknown assistant 'nope'; known assistants: concierge, telecom, analyst",
        ),
        (["ask", "--thread", "not-a-uuid", "hi"], "--thread must be a UUID"),
        (["ask", "   "], "1-4096 characters"),
        (["eval", "vibes"], "unknown suite 'vibes'"),
        (["eval", "routing", "--dataset", "/nonexistent.jsonl"], "no dataset at"),
    ],
)
def test_bad_input_gets_a_clear_error(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_eval_prints_metrics_json_and_writes_a_report(tmp_path):
    dataset = tmp_path / "routing.jsonl"
    dataset.write_text(
        '{"text": "hello there", "label": "greeting"}\n{"text": "hi", "label": "greeting"}\n'
    )
    report = tmp_path / "report.md"
    result = runner.invoke(
        app, ["eval", "routing", "--dataset", str(dataset), "--json", "--report", str(report)]
    )
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    assert metrics["accuracy"] == 1.0 and metrics["rows"] == 2
    assert "accuracy" in report.read_text()
    rows = json.loads((tmp_path / "report.json").read_text())["details"]
    assert [row["text"] for row in rows] == ["hello there", "hi"]


def test_eval_rejects_a_malformed_dataset_naming_the_line(tmp_path):
    dataset = tmp_path / "retrieval.jsonl"
    dataset.write_text('{"query": "burgers", "relevant": ["Bobby\'s Burgers"]}\n{not json}\n')
    result = runner.invoke(app, ["eval", "retrieval", "--dataset", str(dataset)])
    assert result.exit_code == 1
    assert "retrieval.jsonl:2" in result.output


class _FakeTelecom:
    """Stands in for the telecom service in the ask/chat commands (no models, no graph)."""

    name = "telecom"
    ready = True
    tools = (
        {
            "name": "open_refund_case",
            "args": {"user_id": "u42", "amount_pln": 20},
            "ok": True,
            "output": {"case_id": "RC-1"},
            "error": None,
        },
        {
            "name": "get_invoice",
            "args": {"invoice_id": "INV-[1]"},
            "ok": False,
            "output": None,
            "error": "No invoice INV-[1].",
        },
    )

    def __init__(self):
        self.calls = []

    def info(self):
        return {"name": "Telecom support", "takes_user_id": True}

    async def stream(self, message, thread_id, *, user_id=None):
        from frontdesk.assistants.base import ChatEvent

        self.calls.append((message, thread_id, user_id))
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("replace", {"content": "Refund case RC-1 opened."})
        yield ChatEvent(
            "sources",
            {"sources": [], "citations": [], "used_tools": list(self.tools), "route": "billing"},
        )
        yield ChatEvent("done", {"done": True})

    async def ask(self, message, thread_id, *, user_id=None):
        from frontdesk.assistants.base import Answer

        self.calls.append((message, thread_id, user_id))
        return Answer(
            "Refund case RC-1 opened.",
            "billing",
            0.9,
            [],
            None,
            thread_id,
            extra={
                "last_agent": "billing",
                "citations": [],
                "used_tools": list(self.tools),
                "state_excerpt": {"history_length": 2},
            },
        )

    async def aclose(self):
        pass


@pytest.fixture
def fake_telecom(monkeypatch):
    from frontdesk.assistants import registry

    service = _FakeTelecom()

    async def load_services(settings, models=None, names=None):
        return {"telecom": service}

    monkeypatch.setattr(registry, "load_services", load_services)
    return service


def test_ask_passes_user_id_and_json_includes_the_extras(fake_telecom):
    result = runner.invoke(app, ["ask", "-a", "telecom", "--user-id", "u42", "--json", "refund"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["route"] == "billing" and answer["last_agent"] == "billing"
    assert answer["used_tools"] == list(_FakeTelecom.tools)
    assert fake_telecom.calls[0][0] == "refund" and fake_telecom.calls[0][2] == "u42"


def test_chat_labels_the_assistant_and_prints_tools(fake_telecom):
    result = runner.invoke(
        app, ["chat", "-a", "telecom", "--user-id", "u42"], input="I want a refund\n/quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "telecom> " in result.stdout and "concierge>" not in result.stdout
    assert "customer u42" in result.stdout
    assert 'tools: open_refund_case({"user_id": "u42", "amount_pln": 20}) -> ok' in result.stdout
    assert 'tools: get_invoice({"invoice_id": "INV-[1]"}) -> error: No invoice INV-[1].' in (
        result.stdout
    )
    assert fake_telecom.calls[0][0] == "I want a refund" and fake_telecom.calls[0][2] == "u42"


@pytest.mark.parametrize(
    ("failure", "said"),
    [
        (TimeoutError(), "took too long to answer"),
        (RuntimeError("db at /secret/path exploded"), "Sorry, something went wrong"),
    ],
)
def test_chat_says_a_failed_turn_plainly_and_goes_on(fake_telecom, monkeypatch, failure, said):
    calls = []

    async def failing(message, thread_id, *, user_id=None):
        calls.append(message)
        if len(calls) == 1:
            raise failure
        yield ChatEvent("replace", {"content": "Second answer."})
        yield ChatEvent("done", {"done": True})

    monkeypatch.setattr(fake_telecom, "stream", failing)
    result = runner.invoke(app, ["chat", "-a", "telecom"], input="first\nsecond\n/quit\n")
    assert result.exit_code == 0, result.output
    assert said in result.stdout and "Second answer." in result.stdout
    assert "Traceback" not in result.output and "/secret/path" not in result.output
    assert calls == ["first", "second"]


@pytest.mark.parametrize("command", ["ask", "chat"])
@pytest.mark.parametrize("user_id", ["u", "u 1", "x" * 65])
def test_bad_user_id_is_refused(fake_telecom, command, user_id):
    args = [command, "-a", "telecom", "--user-id", user_id] + (["hi"] if command == "ask" else [])
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "--user-id must be 2-64 characters" in " ".join(result.output.split())
    assert fake_telecom.calls == []


def test_telecom_ask_and_its_gate_and_tool_suites(tmp_path):
    result = runner.invoke(app, ["ask", "--assistant", "telecom", "--json", "tell me a joke"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["route"] == "fallback" and "[TECH]" in answer["answer"]
    assert answer["used_tools"] == [] and answer["last_agent"] == "fallback"
    gate = runner.invoke(app, ["eval", "no_context", "--assistant", "telecom", "--json"])
    assert gate.exit_code == 0, gate.output
    metrics = json.loads(gate.stdout)["metrics"]
    assert metrics["rows"] >= 80 and 0.0 <= metrics["f1"] <= 1.0
    calibrated = runner.invoke(app, ["telecom", "calibrate-gate"])
    assert calibrated.exit_code == 0 and "threshold" in calibrated.output


def test_eval_feedback_counts_thumbs_and_comments(tmp_path):
    from frontdesk.config import get_settings
    from frontdesk.memory.threads import ThreadStore

    empty = runner.invoke(app, ["eval", "feedback"])
    assert empty.exit_code == 0 and "no feedback yet" in empty.stdout
    store = ThreadStore(get_settings().threads_path)
    for rating, comment in [("up", None), ("down", "wrong hours"), ("up", "quick")]:
        store.add_feedback_sync("concierge", "t1", "web:a", 0, rating, comment)
    store.add_feedback_sync("telecom", "t2", "web:a", 1, "down", None)
    store.close()

    result = runner.invoke(app, ["eval", "feedback", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["assistant"]: row for row in json.loads(result.stdout)["feedback"]}
    assert (rows["concierge"]["up"], rows["concierge"]["down"]) == (2, 1)
    assert rows["concierge"]["liked"] == 0.667
    assert [c["comment"] for c in rows["concierge"]["comments"]] == ["quick", "wrong hours"]
    assert (rows["telecom"]["up"], rows["telecom"]["down"]) == (0, 1)
    only = runner.invoke(app, ["eval", "feedback", "--assistant", "telecom"])
    assert "telecom: 0 up, 1 down (0% liked)" in only.stdout and "concierge" not in only.stdout


# ------------------------------------------------------------------ a turn that failed


@pytest.fixture
def failing_model(monkeypatch):
    """The scripted model with no reply to give: every model call raises."""
    import frontdesk.llm
    from frontdesk.llm.scripted import ScriptedChatModel

    monkeypatch.setattr(frontdesk.llm, "build_chat_model", lambda settings: ScriptedChatModel([]))


# One the concierge answers with the model (hours and the like are worked out in code).
MODEL_QUESTION = "Is the spa good for a couples treatment?"


def test_ask_json_reports_a_turn_whose_model_failed_as_an_error(failing_model):
    result = runner.invoke(app, ["ask", "-a", "concierge", "--json", MODEL_QUESTION])

    assert result.exit_code == 1, result.output
    answer = json.loads(result.stdout)
    assert answer["validation"] == "ERROR"
    assert answer["error"]["type"] == "RuntimeError"
    assert "no reply left" in answer["error"]["message"]
    assert "generation failed" in answer["error"]["where"]
    # One line on stderr says what failed; the traceback is for FRONTDESK_LOG_LEVEL=DEBUG.
    assert "Traceback" not in result.output
    assert "generation failed (RuntimeError" in result.stderr


def test_ask_logs_the_failed_turns_traceback_at_debug_level(failing_model, monkeypatch):
    monkeypatch.setenv("FRONTDESK_LOG_LEVEL", "DEBUG")
    get_settings.cache_clear()
    result = runner.invoke(app, ["ask", "-a", "concierge", "--json", MODEL_QUESTION])

    assert result.exit_code == 1
    assert json.loads(result.stdout)["validation"] == "ERROR"
    assert "Traceback (most recent call last)" in result.stderr


def test_ask_json_reports_a_service_that_raises(monkeypatch):
    from frontdesk.assistants import registry

    async def load_services(settings, models=None, names=None):
        raise RuntimeError("the index is corrupt")

    monkeypatch.setattr(registry, "load_services", load_services)
    result = runner.invoke(app, ["ask", "--json", "hi"])

    assert result.exit_code == 1
    body = json.loads(result.stdout)
    assert body["validation"] == "ERROR"
    assert body["error"] == {"type": "RuntimeError", "message": "the index is corrupt"}
    assert "Traceback" not in result.output


def test_a_scope_the_assistant_lacks_is_refused_before_the_turn(fake_telecom):
    result = runner.invoke(app, ["ask", "-a", "telecom", "--repo", "requests", "hi"])
    assert result.exit_code == 1
    assert "answers about one collection only" in " ".join(result.output.split())
    assert fake_telecom.calls == []
