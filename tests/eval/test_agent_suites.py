"""The no_context and tools suites, gate calibration, and document-level retrieval labels."""

from __future__ import annotations

import json

import pytest

from frontdesk.eval.agent_suites import calibrate_gate, gate_scores, run_no_context, run_tools
from frontdesk.eval.datasets import (
    DatasetError,
    NoContextCase,
    RetrievalCase,
    ToolCase,
    load_dataset,
)
from frontdesk.eval.suites import _item_name, run_retrieval


def test_gate_scores_treat_unanswerable_as_positive():
    got = gate_scores([True, True, False, False], [True, False, True, False])
    assert (got["precision"], got["recall"], got["f1"]) == (0.5, 0.5, 0.5)
    assert got["true_positives"] == 1 and got["true_negatives"] == 1


def test_run_no_context_counts_right_and_wrong_gates():
    cases = [NoContextCase("covered", True), NoContextCase("not covered", False),
             NoContextCase("also not", False)]
    result = run_no_context(cases, lambda q: "not" in q, show_progress=False)
    assert result.metrics["f1"] == 1.0 and result.metrics["unanswerable"] == 2
    wrong = run_no_context(cases, lambda q: True, show_progress=False)
    assert wrong.metrics["precision"] == pytest.approx(2 / 3) and wrong.metrics["recall"] == 1.0


def test_calibration_picks_the_middle_of_the_best_plateau():
    cases = [NoContextCase(f"a{i}", True) for i in range(3)] + [
        NoContextCase(f"u{i}", False) for i in range(3)
    ]
    scores = {"a0": 0.8, "a1": 0.7, "a2": 0.6, "u0": 0.3, "u1": 0.2, "u2": 0.1}
    result = calibrate_gate(cases, lambda q: (8, scores[q]), step=0.05)
    assert result["chosen"]["f1"] == 1.0
    assert 0.3 < result["chosen"]["threshold"] <= 0.6
    low, high = result["plateau"]
    assert low <= result["chosen"]["threshold"] <= high
    few = calibrate_gate(cases, lambda q: (1, scores[q]), step=0.05)  # too few hits: all fire
    assert few["chosen"]["precision"] == 0.5


async def test_run_tools_scores_tool_and_arguments():
    cases = [
        ToolCase((("user", "refund 10 PLN on INV-1234"),), "u1", "refund", {"amount_pln": 10.0,
                 "invoice_id": "INV-1234"}),
        ToolCase((("user", "what plan"),), "u1", "plan", {}),
        ToolCase((("user", "I want a refund"),), "u1", None, {}),
    ]

    async def decide(case):
        text = case.messages[-1][1]
        if "INV" in text:
            return "refund", {"amount_pln": 10, "invoice_id": "inv-1234", "user_id": "u1"}
        if "plan" in text:
            raise RuntimeError("model down")
        return "refund", {}

    result = await run_tools(cases, decide, show_progress=False)
    assert result.metrics["accuracy"] == pytest.approx(1 / 3)
    assert result.metrics["errors"] == 1
    assert [d["correct"] for d in result.details] == [True, False, False]


def test_tool_and_no_context_datasets_are_validated(tmp_path):
    path = tmp_path / "tools.jsonl"
    path.write_text(json.dumps({"messages": [{"role": "assistant", "content": "hi"}],
                                "expected_tool": None}) + "\n")
    with pytest.raises(DatasetError, match="last message must be the user's"):
        load_dataset("tools", path)
    path.write_text(json.dumps({"question": "q", "answerable": "yes"}) + "\n")
    with pytest.raises(DatasetError, match="true or false"):
        load_dataset("no_context", path)


def test_document_hits_are_named_by_the_relevant_section_they_cover():
    hit = {"metadata": {"doc_id": "leds", "section_path": "LEDs > PON", "sections": "LEDs | PON | LOS"}}
    assert _item_name(hit, "q", ("leds#LOS",)) == "leds#LOS"
    assert _item_name(hit, "q", ("wifi#Bands",)) == "leds#LEDs > PON"
    result = run_retrieval(
        [RetrievalCase("q", ("leds#LOS",))],
        lambda q, k: [{"metadata": {"doc_id": "x", "section_path": "X"}}] * 2 + [hit],
        top_k=8,
        show_progress=False,
    )
    assert result.metrics["recall@1"] == 0.0 and result.metrics["recall@8"] == 1.0


def test_no_context_figures_are_split_by_language(tmp_path):
    path = tmp_path / "gate.jsonl"
    rows = [
        {"question": "covered", "answerable": True, "language": "en"},
        {"question": "not covered", "answerable": False, "language": "en"},
        {"question": "Co znaczy, że dioda PON miga?", "answerable": True},  # detected: Polish
        {"question": "Jak ugotować rosół?", "answerable": False},
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows))
    cases = load_dataset("no_context", path)
    assert cases[0].language == "en" and cases[2].language is None
    # This gate refuses every Polish question: English is perfect, Polish answers nothing.
    result = run_no_context(cases, lambda q: "not" in q or "ę" in q or "ó" in q or "dioda" in q,
                            show_progress=False)
    per = result.metrics["per_language"]
    assert per["en"]["accuracy"] == 1.0 and per["en"]["answered_when_answerable"] == 1.0
    assert per["pl"]["accuracy"] == 0.5 and per["pl"]["answered_when_answerable"] == 0.0
    assert per["pl"]["rows"] == 2 and per["pl"]["unanswerable"] == 1
    assert [d["language"] for d in result.details] == ["en", "en", "pl", "pl"]


def test_a_language_that_is_not_a_string_is_a_clear_error(tmp_path):
    path = tmp_path / "gate.jsonl"
    path.write_text('{"question": "q", "answerable": true, "language": 7}\n')
    with pytest.raises(DatasetError, match=r'gate.jsonl:1: field "language" must be a string'):
        load_dataset("no_context", path)
