"""Builds the concierge from settings: knowledge, router, graph, memory -> a `GraphAssistant`.

The pieces are built separately too (`open_knowledge`, `build_router`) so that ingestion and the
retrieval and routing evaluations do not load a chat model they do not use.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from contextlib import AsyncExitStack
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.messages import HumanMessage

from frontdesk.agentkit.release import grounded_release
from frontdesk.agentkit.service import GraphAssistant
from frontdesk.agentkit.streaming import last_ai_text
from frontdesk.assistants.base import Answer
from frontdesk.assistants.concierge import absent, nodes
from frontdesk.assistants.concierge.graph import build_graph
from frontdesk.assistants.concierge.out_of_time import out_of_time_answer
from frontdesk.assistants.concierge.settings import ConciergeSettings
from frontdesk.assistants.concierge.state import ConciergeContext
from frontdesk.config import Settings
from frontdesk.knowledge.focus import names_item
from frontdesk.knowledge.formatters import item_details
from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY, Glossary
from frontdesk.knowledge.index import KnowledgeIndex, ProgressCallback
from frontdesk.knowledge.ingest import IngestMode, IngestReport, ingest_as_needed
from frontdesk.knowledge.loader import KnowledgeItem, KnowledgeSource, load_knowledge_file
from frontdesk.knowledge.opening import Knowledge as OpenedKnowledge
from frontdesk.knowledge.retriever import HybridRetriever, RetrievalSettings
from frontdesk.memory.checkpointer import open_checkpointer
from frontdesk.routing.classifier import EmbeddingIntentClassifier, load_examples
from frontdesk.routing.question_form import (
    asks_about_rules,
    asks_for_information,
    asks_whether_offered,
    is_greeting,
)
from frontdesk.routing.router import (
    IntentRouter,
    Reroute,
    fast_paths_for,
    lazy_llm_route,
)
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

NAME = "concierge"
DATA_DIR = Path(__file__).parent / "data"
KNOWLEDGE_FILE = DATA_DIR / "mohegan_sun.json"
ROUTER_EXAMPLES = DATA_DIR / "router_examples.jsonl"
EVAL_DIR = DATA_DIR / "eval"

# Unmistakable greetings skip the classifier (normalised: case-folded, punctuation dropped).
GREETING_PATTERNS = [
    (
        r"(hi|hello|hey|hiya|howdy|greetings|hola|buenas|buenos dias"
        r"|good (morning|afternoon|evening|day))( there| all| everyone| concierge| friend)?"
    ),
]
# Categories that are venues: a name of one of these in an answer must be in its context.
VENUE_CATEGORIES = ("restaurants", "entertainment", "hotel", "amenities", "gaming")


# The resort's items (one JSON file), searched by hybrid dense + BM25 retrieval.
Knowledge = OpenedKnowledge[KnowledgeSource, HybridRetriever]


def open_knowledge(
    settings: Settings,
    models: Models,
    *,
    ingest_mode: IngestMode = "if_changed",
    progress: ProgressCallback | None = None,
) -> tuple[Knowledge, IngestReport | None]:
    """The knowledge index, (re)ingested first as `ingest_mode` says; the report if it ran."""
    own = ConciergeSettings.of(settings)
    source = load_knowledge_file(own.knowledge_file or KNOWLEDGE_FILE)
    index = KnowledgeIndex(settings.index_dir(NAME), models.embeddings, models.embeddings_id)
    report = ingest_as_needed(
        source,
        index,
        ingest_mode,
        chunk_size=own.rag_chunk_size,
        overlap=own.rag_chunk_overlap,
        progress=progress,
    )
    if report is not None:
        logger.info("ingested %s: %s", source.source, report)
    retriever = HybridRetriever(
        index,
        source.property_id,
        RetrievalSettings(
            top_k=own.rag_top_k,
            rrf_k=own.rag_rrf_k,
            min_similarity=own.rag_min_similarity,
        ),
    )
    return Knowledge(source, index, retriever), report


def build_router(
    settings: Settings, models: Models, knowledge: Knowledge, *, use_llm: bool = True
) -> IntentRouter:
    classifier = EmbeddingIntentClassifier(
        models.embeddings,
        load_examples(ROUTER_EXAMPLES),
        cache_dir=settings.index_dir(NAME),
        embeddings_id=models.embeddings_id,
        domain_vectors=knowledge.index.vectors(knowledge.source.property_id),
    )
    enabled = use_llm and settings.router_llm != "never"
    names = [item.name for item in knowledge.source.items]
    items = list(knowledge.source.items)
    description = knowledge.source.property.get("description", "")

    def names_an_item(text: str) -> bool:
        return any(names_item(text, name) for name in names)

    def names_a_missing_place(text: str) -> bool:
        return absent.names_a_missing_place(text, items, description)

    return IntentRouter(
        classifier,
        fast_paths=fast_paths_for("greeting", GREETING_PATTERNS),
        # "How late can I cancel?" asks about the policy; "cancel my room" is the request.
        # "Do I need to cancel a day ahead?" and "can I bring a bag?" ask about the rules; "do
        # you have craps tables?" asks what is offered, not how to win.
        reroutes=[
            Reroute("action_request", "property_qa", asks_for_information),
            Reroute("action_request", "property_qa", asks_about_rules),
            Reroute("gambling_advice", "property_qa", asks_whether_offered),
            # "left my jacket at the bar, who do i call" is no greeting; a message that names
            # something of the guide ("what are the momentum levels") is about the property,
            # however far from the examples it is worded.
            Reroute("greeting", "property_qa", lambda text: not is_greeting(text)),
            Reroute("off_topic", "property_qa", names_an_item),
            Reroute("ambiguous", "property_qa", names_an_item),
            # "hot tub hours", "nobu rez for 2", "can i book olive garden for 8", "y la cancha
            # de tenis? quiero jugar": a place asked after by name is the facts' to answer,
            # that it is not here included (the classifier heard a booking or a game).
            Reroute("off_topic", "property_qa", absent.names_a_place),
            Reroute("action_request", "property_qa", names_a_missing_place),
            Reroute("action_request", "property_qa", absent.asks_a_field_of_a_place),
            Reroute("gambling_advice", "property_qa", names_a_missing_place),
        ],
        llm_route=lazy_llm_route(models, nodes.llm_route, enabled=enabled),
        mode=settings.router_llm,
        min_confidence=settings.router_min_confidence,
    )


def _now(timezone: str | None, clock: datetime | None = None) -> datetime:
    """The turn's moment in the property's time zone: `clock` when one is set (tests, demos),
    else the real time."""
    try:
        zone = ZoneInfo(timezone) if timezone else None
    except Exception:  # noqa: BLE001 - an unknown zone name in the data must not break a turn
        zone = None
    now = clock if clock is not None else datetime.now(zone)
    if now.tzinfo is None:
        now = now.replace(tzinfo=zone) if zone else now.astimezone()
    return now.astimezone(zone)


def turn_input(
    message: str,
    user_id: str | None = None,
    *,
    timezone: str | None,
    clock: datetime | None = None,
) -> dict[str, Any]:
    """A new turn: the message, the time, and every per-turn field reset (guests are
    anonymous: `user_id` is not used)."""
    now = _now(timezone, clock)
    return {
        "messages": [HumanMessage(content=message)],
        "current_time": now.strftime("%A, %B %-d, %Y, %-I:%M %p %Z").strip(),
        "today": now.date().isoformat(),
        "fact_answer": None,
        "fact_items": [],
        "query_type": None,
        "router_confidence": 0.0,
        "route_method": None,
        "guardrail": None,
        "retrieved_context": [],
        "validation_result": None,
        "retry_count": 0,
        "retry_feedback": None,
        "skip_validation": False,
        "sources_used": [],
    }


def sources_of(state: dict[str, Any], *, items: Mapping[str, KnowledgeItem]) -> dict[str, Any]:
    """The items the answer used (`sources_used`), each with its details (`items`: the
    property's items by name), so the web UI can open it; nothing for a reply that used none
    (greeting, refusal, fallback)."""
    used = list(state.get("sources_used") or [])
    if not used and state.get("validation_result") is None:
        # A turn out of time (it never reached the check): its answer quotes the items the
        # turn had worked out or found.
        used = list(state.get("fact_items") or []) or list(
            dict.fromkeys(
                doc["metadata"]["item_name"]
                for doc in state.get("retrieved_context") or []
                if doc["metadata"].get("item_name")
            )
        )
    documents = [
        {
            "id": f"{item.category}/{item.name}",
            "title": item.name,
            "text": item_details(item.category, item.fields),
            "category": item.category,
        }
        for item in (items[name] for name in used if name in items)
    ]
    return {"sources": used, "items": used, "documents": documents}


def answer_of(state: dict[str, Any], thread_id: str) -> Answer:
    return Answer(
        answer=last_ai_text(state.get("messages", [])),
        route=state.get("query_type"),
        confidence=state.get("router_confidence"),
        sources=list(state.get("sources_used") or []),
        validation=state.get("validation_result"),
        thread_id=thread_id,
        context=list(state.get("retrieved_context") or []),
    )


async def build_service(settings: Settings, models: Models) -> GraphAssistant:
    knowledge, _ = open_knowledge(settings, models)
    source = knowledge.source
    resources = AsyncExitStack()
    checkpointer = await resources.enter_async_context(
        open_checkpointer(settings.checkpointer, settings.checkpoint_path)
    )
    context = ConciergeContext(
        llm=models.chat,
        router=build_router(settings, models, knowledge),
        retriever=knowledge.retriever,
        property=source.property,
        categories=source.categories,
        venue_names=sorted(
            {item.name for item in source.items if item.category in VENUE_CATEGORIES}
        ),
        max_messages=settings.max_messages,
        validate_with_llm=ConciergeSettings.of(settings).validator_llm,
        items=list(source.items),
        glossary=Glossary.load(SPANISH_RESORT_GLOSSARY),
    )
    info = {
        "assistant": NAME,
        "name": source.property.get("name"),
        "location": source.property.get("location"),
        "categories": source.categories,
        "document_count": knowledge.index.count(source.property_id),
        "item_count": len(source.items),
    }
    return GraphAssistant(
        NAME,
        build_graph(checkpointer),
        context,
        info=info,
        token_nodes={nodes.GENERATE},
        turn_input=partial(
            turn_input, timezone=source.property.get("timezone"), clock=settings.clock
        ),
        answer_of=answer_of,
        sources_of=partial(sources_of, items={item.name: item for item in source.items}),
        resources=resources,
        out_of_time=partial(
            out_of_time_answer,
            property=source.property,
            items=list(source.items),
            reading=context.reading,
        ),
        release_check=grounded_release(
            venue_names=context.venue_names,
            trusted_facts_of=lambda state: nodes.supplied_facts(context),
        ),
    )
