"""Checks on telecom's shipped knowledge base and retrieval sets
(src/frontdesk/assistants/telecom/data): customer documents read as written for a customer, and
every retrieval label names a real section of a document of the right audience."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from frontdesk.assistants.telecom.service import CUSTOMER_AUDIENCE, DOCS_DIR, EVAL_DIR
from frontdesk.eval.datasets import load_dataset
from frontdesk.knowledge.markdown import HEADER_RE, MarkdownDocument, load_markdown_folder
from frontdesk.knowledge.markdown_chunking import SECTION_DEPTH

AGENT_AUDIENCE = "agent"
CUSTOMER_SET = EVAL_DIR / "retrieval.jsonl"
AGENT_SET = EVAL_DIR / "retrieval_agent.jsonl"
# A tool call as the agent manual writes one: `toggle_airplane_mode()`, `f(mode: str)`.
TOOL_CALL = re.compile(r"`[A-Za-z_][\w.]*\([^`]*\)`")
# What only an agent is told to do.
AGENT_INSTRUCTIONS = ("guide the user", "escalate to", "transfer_to_human")


def documents() -> dict[str, MarkdownDocument]:
    return {doc.doc_id: doc for doc in load_markdown_folder(DOCS_DIR, "telecom").documents}


def customer_documents() -> list[MarkdownDocument]:
    return [doc for doc in documents().values() if doc.meta["audience"] == CUSTOMER_AUDIENCE]


def written_for_agents(text: str) -> list[str]:
    """The tool calls and agent instructions in `text` (empty: a customer may read it)."""
    found = TOOL_CALL.findall(text)
    lowered = text.lower()
    return found + [phrase for phrase in AGENT_INSTRUCTIONS if phrase in lowered]


def headings(document: MarkdownDocument) -> set[str]:
    """The headings a retrieval label may name: those a chunk's section path holds."""
    return {
        match.group(2).strip()
        for line in document.text.splitlines()
        if (match := HEADER_RE.match(line)) and len(match.group(1)) <= SECTION_DEPTH
    }


def test_every_document_names_its_audience_and_language():
    for doc in documents().values():
        assert doc.meta["audience"] in (CUSTOMER_AUDIENCE, AGENT_AUDIENCE), doc.doc_id
        assert doc.meta["language"] in ("en", "pl"), doc.doc_id
        assert doc.meta["summary"] and doc.meta["last_updated"], doc.doc_id


def test_the_agent_check_finds_what_the_agent_manual_says():
    manual = documents()["tech_support_manual"]
    assert manual.meta["audience"] == AGENT_AUDIENCE
    found = written_for_agents(manual.text)
    assert "`toggle_airplane_mode()`" in found
    assert "guide the user" in found and "escalate to" in found
    policy = documents()["main_policy"]
    assert "transfer_to_human" in written_for_agents(policy.text)


@pytest.mark.parametrize("doc", customer_documents(), ids=lambda doc: doc.doc_id)
def test_customer_documents_hold_no_tool_calls_or_agent_instructions(doc):
    assert written_for_agents(doc.text) == []


def test_a_customer_document_covers_the_agent_manuals_phone_troubleshooting():
    phone = [doc for doc in customer_documents() if "MMSC" in doc.text and "PUK" in doc.text]
    assert [doc.meta["language"] for doc in phone] == ["en"]


def labels(path: Path) -> list[tuple[int, str]]:
    return [
        (number, label)
        for number, case in enumerate(load_dataset("retrieval", path), start=1)
        for label in case.relevant
    ]


@pytest.mark.parametrize(
    ("dataset", "audience"), [(CUSTOMER_SET, CUSTOMER_AUDIENCE), (AGENT_SET, AGENT_AUDIENCE)]
)
def test_retrieval_labels_name_sections_of_documents_for_their_audience(dataset, audience):
    docs = documents()
    found = labels(dataset)
    assert found, dataset
    for number, label in found:
        doc_id, _, heading = label.partition("#")
        assert doc_id in docs, f"{dataset.name} row {number}: no document {doc_id}"
        assert docs[doc_id].meta["audience"] == audience, f"{dataset.name} row {number}: {label}"
        assert heading in headings(docs[doc_id]), f"{dataset.name} row {number}: no {label}"


def test_no_query_is_in_both_retrieval_sets():
    customer = {case.query for case in load_dataset("retrieval", CUSTOMER_SET)}
    agent = {case.query for case in load_dataset("retrieval", AGENT_SET)}
    assert not customer & agent
