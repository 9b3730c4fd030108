"""A telecom assistant wired with a scripted model, hash embeddings and a small markdown KB."""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from frontdesk.agentkit.service import GraphAssistant
from frontdesk.assistants.telecom.billing_db import BillingStore
from frontdesk.assistants.telecom.graph import build_graph
from frontdesk.assistants.telecom.service import TOKEN_NODES, answer_of, sources_of, turn_input
from frontdesk.assistants.telecom.state import TelecomContext
from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import ingest
from frontdesk.knowledge.markdown import load_markdown_folder
from frontdesk.knowledge.markdown_chunking import chunk_corpus
from frontdesk.knowledge.mmr import MMRRetriever, MMRSettings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.routing.classifier import EmbeddingIntentClassifier, Example
from frontdesk.routing.router import IntentRouter

EXAMPLES = {
    "technical": ["internet is down", "wifi keeps dropping", "PON LED blinking red",
                  "router lights", "set the APN for mobile data", "moja sieć słaba"],
    "billing": ["refund for my invoice", "what plan am I on", "I was overcharged",
                "how much does my plan cost", "ile kosztuje plan", "chcę zwrot",
                "invoices do I have paid", "status of my refund case",
                "status mojego zgłoszenia"],
    "unknown": ["tell me a joke", "what's the weather", "who won the match", "recipe for soup"],
}
DOCS = {
    "leds.md": "---\ntitle: LED guide\nversion: '2.1'\n---\n# LED guide\n## PON LED\nA blinking "
    "PON LED means the box is registering with the fibre network. Wait two minutes.\n"
    "## LOS LED\nA red LOS LED means no optical signal: check the fibre cable.\n",
    "wifi.md": "---\ntitle: Wi-Fi guide\nversion: '1.0'\n---\n# Wi-Fi guide\n## Bands\nThe 5 GHz "
    "band is fast; the 2.4 GHz band reaches further.\n## Channels\nUse channel 1, 6 or 11.\n",
}


@pytest.fixture
def kb(tmp_path, hash_embeddings):
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text)
    corpus = load_markdown_folder(folder, "telecom")
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash", title_keys=("title",))
    ingest(corpus, index, chunk_size=25, overlap=0, chunker=chunk_corpus)
    return index


@pytest.fixture
def store(tmp_path):
    billing = BillingStore(f"sqlite:///{tmp_path / 'billing.sqlite'}")
    billing.create_schema()
    billing.seed()
    yield billing
    billing.dispose()


def keyword_chooser(text: str) -> tuple[str, float]:
    """A stand-in for the tool classifier: these tests are about the graph around it."""
    lowered = text.lower()
    if any(w in lowered for w in ("status", "my case", "zgłoszeni")):
        return "get_refund_cases", 0.9
    if any(w in lowered for w in ("refund", "reason", "zwrot")):
        return "open_refund_case", 0.9
    if any(w in lowered for w in ("invoices", "faktury", "paid")):
        return "get_invoices", 0.9
    if "plan" in lowered:
        return "get_subscription", 0.9
    if "policy" in lowered:
        return "get_refund_policy", 0.9
    return "none", 0.9


def make_service(
    kb, store, hash_embeddings, script, *, threshold=-1.0, checkpointer=None, tickets=None,
    llm=None,
):
    llm = llm or ScriptedChatModel(script=script)
    classifier = EmbeddingIntentClassifier(
        hash_embeddings, [Example(t, label) for label, texts in EXAMPLES.items() for t in texts]
    )
    context = TelecomContext(
        llm=llm,
        router=IntentRouter(classifier, mode="never"),
        retriever=MMRRetriever(kb, "telecom", MMRSettings(threshold=threshold, min_hits=1)),
        billing=store,
        tool_chooser=keyword_chooser,
        tickets=tickets,
    )
    service = GraphAssistant(
        "telecom",
        build_graph(checkpointer or InMemorySaver()),
        context,
        info={"name": "Telecom"},
        token_nodes=TOKEN_NODES,
        turn_input=turn_input,
        answer_of=answer_of,
        sources_of=sources_of,
        tickets=tickets,
    )
    return service, llm


@pytest.fixture
def telecom(kb, store, hash_embeddings):
    return lambda script=None, **kw: make_service(kb, store, hash_embeddings, script or [], **kw)
