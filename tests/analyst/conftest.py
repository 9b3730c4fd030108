"""The analyst wired with a scripted model and hash embeddings over the real demo database.

The demo SQLite file is built once per test session (a few seconds, deterministic); every
service opens it read-only, so tests cannot change it.
"""

from __future__ import annotations

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from frontdesk.agentkit.service import GraphAssistant
from frontdesk.assistants.analyst import nodes
from frontdesk.assistants.analyst.graph import build_graph
from frontdesk.assistants.analyst.service import (
    answer_of,
    open_database,
    progress_of,
    sources_of,
    turn_input,
)
from frontdesk.assistants.analyst.sql_agent import nodes as sql_nodes
from frontdesk.assistants.analyst.sql_agent.graph import build_sql_graph
from frontdesk.assistants.analyst.state import AnalystContext
from frontdesk.config import Settings
from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import ingest
from frontdesk.knowledge.markdown import load_markdown_folder
from frontdesk.knowledge.markdown_chunking import chunk_corpus
from frontdesk.knowledge.mmr import MMRRetriever, MMRSettings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.routing.classifier import EmbeddingIntentClassifier, Example
from frontdesk.routing.router import IntentRouter
from frontdesk.runtime import Models

DEMO_KEY = "test-demo-key"
EXAMPLES = {
    "sql": ["how many technicians are active", "list overdue invoices", "count open work orders",
            "total hours per technician", "which customers have the most work orders"],
    "rag": ["how do I reopen a work order", "where do I set overtime rules",
            "how to add a customer location", "how do I assign a crew lead"],
    "general": ["what is machine learning", "tell me a joke", "explain quantum computing",
                "what is the weather"],
}
MANUAL = (
    "---\ntitle: Work orders\nversion: '1.0'\n---\n# Work orders\n## Reopening\nTo reopen a "
    "closed work order open it and choose Actions, Reopen within 30 days of closing.\n"
)


@pytest.fixture(scope="session")
def demo_settings(tmp_path_factory) -> Settings:
    data_dir = tmp_path_factory.mktemp("analyst")
    return Settings(
        data_dir=data_dir,
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
        plugin_settings={"analyst": {"aes_key": DEMO_KEY}},
        _env_file=None,
    )


@pytest.fixture(scope="session")
def toolkit(demo_settings):
    tk = open_database(demo_settings, Models(demo_settings))
    yield tk
    tk.engine.dispose()


@pytest.fixture
def manual(tmp_path, hash_embeddings):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "work-orders.md").write_text(MANUAL)
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash", title_keys=("title",))
    ingest(load_markdown_folder(folder, "analyst"), index, chunk_size=40, overlap=0,
           chunker=chunk_corpus)
    return MMRRetriever(index, "analyst", MMRSettings(top_k=3, threshold=-1.0, min_hits=1))


def make_service(toolkit, manual, hash_embeddings, script, *, checkpointer=None, max_messages=20):
    llm = ScriptedChatModel(script=script)
    classifier = EmbeddingIntentClassifier(
        hash_embeddings, [Example(t, label) for label, texts in EXAMPLES.items() for t in texts]
    )
    context = AnalystContext(
        llm=llm,
        router=IntentRouter(classifier, mode="never"),
        sql=toolkit,
        sql_graph=build_sql_graph(),
        manual=manual,
        max_conversation_messages=max_messages,
    )
    service = GraphAssistant(
        "analyst",
        build_graph(checkpointer or InMemorySaver()),
        context,
        info={"name": "Data analyst", "shows_sql": True},
        token_nodes={sql_nodes.SUMMARIZE, nodes.RAG_ANSWER, nodes.GENERAL_ANSWER},
        turn_input=turn_input,
        answer_of=answer_of,
        sources_of=sources_of,
        progress_of=progress_of,
    )
    return service, llm


@pytest.fixture
def analyst(toolkit, manual, hash_embeddings):
    return lambda script=None, **kw: make_service(toolkit, manual, hash_embeddings, script, **kw)


@pytest.fixture(autouse=True)
def operator_permissions():
    """The analyst's tests act as the operator (like the CLI), who may read personal data;
    tests of the refusal set the permissions they need themselves."""
    from frontdesk.agentkit import permissions

    token = permissions._current.set(permissions.OPERATOR)
    yield
    permissions._current.reset(token)
