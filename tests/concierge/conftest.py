"""A concierge wired with a scripted model, hash embeddings and a small knowledge file."""

from __future__ import annotations

from functools import partial

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from frontdesk.agentkit.service import GraphAssistant
from frontdesk.assistants.concierge import nodes
from frontdesk.assistants.concierge.graph import build_graph
from frontdesk.assistants.concierge.service import (
    GREETING_PATTERNS,
    VENUE_CATEGORIES,
    answer_of,
    out_of_time_answer,
    sources_of,
    turn_input,
)
from frontdesk.assistants.concierge.state import ConciergeContext
from frontdesk.knowledge.index import KnowledgeIndex
from frontdesk.knowledge.ingest import ingest
from frontdesk.knowledge.loader import load_knowledge_file
from frontdesk.knowledge.retriever import HybridRetriever, RetrievalSettings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.routing.classifier import EmbeddingIntentClassifier, Example
from frontdesk.routing.router import IntentRouter, fast_paths_for

EXAMPLES = {
    "property_qa": ["what restaurants are there", "tell me about the spa", "where is the arena",
                    "is there a burger place", "what does the trattoria serve"],
    "hours_schedule": ["when does it open", "what time does it close", "opening hours tonight",
                       "when does the restaurant open", "what are the hours"],
    "gambling_advice": ["how do i win at blackjack", "best slot machine strategy", "tips to beat roulette"],
    "action_request": ["book me a table", "reserve a room for me", "cancel my reservation"],
    "off_topic": ["weather in paris", "write python code", "capital of france", "stock prices today"],
    "ambiguous": ["what about it", "the other one", "and that"],
    "greeting": ["nice to meet you concierge"],
}


@pytest.fixture
def knowledge(small_kb, tmp_path, hash_embeddings):
    source = load_knowledge_file(small_kb)
    index = KnowledgeIndex(tmp_path / "index", hash_embeddings, "hash-test")
    ingest(source, index)
    return source, index


def make_service(
    knowledge, hash_embeddings, script, *, min_similarity=0.05, validate_with_llm=True,
    token_delay_s=0.0, with_items=False, clock=None, glossary=None,
):
    source, index = knowledge
    llm = ScriptedChatModel(script=script, token_delay_s=token_delay_s)
    classifier = EmbeddingIntentClassifier(
        hash_embeddings, [Example(t, label) for label, texts in EXAMPLES.items() for t in texts]
    )
    context = ConciergeContext(
        llm=llm,
        router=IntentRouter(classifier, fast_paths=fast_paths_for("greeting", GREETING_PATTERNS), mode="never"),
        retriever=HybridRetriever(index, source.property_id, RetrievalSettings(top_k=3, min_similarity=min_similarity)),
        property=source.property,
        categories=source.categories,
        venue_names=[i.name for i in source.items if i.category in VENUE_CATEGORIES],
        validate_with_llm=validate_with_llm,
        # With the items, the facts step answers what the structure answers without the model.
        items=list(source.items) if with_items else [],
        glossary=glossary,
    )
    service = GraphAssistant(
        "concierge",
        build_graph(InMemorySaver()),
        context,
        info={"name": source.property["name"]},
        token_nodes={nodes.GENERATE},
        turn_input=lambda m, user_id=None: turn_input(m, timezone="America/New_York", clock=clock),
        answer_of=answer_of,
        sources_of=partial(sources_of, items={i.name: i for i in source.items}),
        out_of_time=partial(out_of_time_answer, property=source.property, items=list(source.items)),
    )
    return service, llm


@pytest.fixture
def concierge(knowledge, hash_embeddings):
    return lambda script=None, **kw: make_service(knowledge, hash_embeddings, script or [], **kw)
