"""Builds the telecom assistant from settings: knowledge, router, billing store, graph, memory.

`open_knowledge` and `build_router` are separate so ingestion and the retrieval, routing and
NO_CONTEXT evaluations never load a chat model.
"""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from frontdesk.agentkit.language import conversation_language, detect_language
from frontdesk.agentkit.release import grounded_release
from frontdesk.agentkit.service import GraphAssistant
from frontdesk.agentkit.streaming import human_texts, last_ai_text
from frontdesk.assistants.base import Answer
from frontdesk.assistants.telecom import billing_agent, nodes
from frontdesk.assistants.telecom.billing_db import BillingStore
from frontdesk.assistants.telecom.graph import build_graph
from frontdesk.assistants.telecom.refund_intent import refund_first
from frontdesk.assistants.telecom.route_words import ROUTE_KEYWORDS
from frontdesk.assistants.telecom.settings import TelecomSettings
from frontdesk.assistants.telecom.state import TelecomContext
from frontdesk.assistants.telecom.technical import focused_context, from_the_manual, with_sources
from frontdesk.config import Settings
from frontdesk.knowledge.glossary import Glossary
from frontdesk.knowledge.index import ProgressCallback
from frontdesk.knowledge.ingest import IngestMode, IngestReport
from frontdesk.knowledge.mmr import (
    MMRSettings,
    citation_of,
)
from frontdesk.knowledge.opening import MarkdownKnowledge, open_markdown_knowledge
from frontdesk.memory.checkpointer import open_checkpointer
from frontdesk.memory.tickets import TicketStore
from frontdesk.routing.classifier import EmbeddingIntentClassifier, load_examples
from frontdesk.routing.router import IntentRouter, fast_paths_for, lazy_llm_route
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

NAME = "telecom"
DATA_DIR = Path(__file__).parent / "data"
DOCS_DIR = DATA_DIR / "docs"
ROUTER_EXAMPLES = DATA_DIR / "router_examples.jsonl"
TOOL_EXAMPLES = DATA_DIR / "tool_examples.jsonl"
# Polish question words -> the English manuals' words: MiniLM is an English model, and most
# manuals are English only (knowledge/glossary.py).
GLOSSARY = DATA_DIR / "glossary_pl_en.tsv"
# Every reader of telecom's answers is a customer: documents for agents (front matter
# `audience: agent`) are indexed but never retrieved.
CUSTOMER_AUDIENCE = "customer"
# The nodes whose model tokens stream to the customer. The technical answer's first draft may be
# rejected by its grounding check and rewritten (technical.grounded_answer): its sentences are
# released only as far as the manuals support them (agentkit/release.py), so a customer never
# reads a wrong value; a rewrite's text waits and replaces what was shown.
TOKEN_NODES = frozenset({nodes.TECHNICAL_ANSWER, nodes.BILLING})
EVAL_DIR = DATA_DIR / "eval"
GREETING_PATTERNS = [
    (
        r"(hi|hello|hey|good (morning|afternoon|evening)|dzien dobry|dzień dobry|czesc|cześć"
        r"|witam|siema|hej)( there)?"
    ),
]


Knowledge = MarkdownKnowledge


def open_knowledge(
    settings: Settings,
    models: Models,
    *,
    ingest_mode: IngestMode = "if_changed",
    progress: ProgressCallback | None = None,
) -> tuple[Knowledge, IngestReport | None]:
    threshold = TelecomSettings.of(settings).gate_threshold
    return open_markdown_knowledge(
        settings,
        models,
        NAME,
        DOCS_DIR,
        MMRSettings(threshold=threshold, audiences=(CUSTOMER_AUDIENCE,)),
        ingest_mode=ingest_mode,
        progress=progress,
        translate=polish_to_manuals(),
    )


def polish_to_manuals():
    """`question -> the question in the manuals' English words`, for Polish questions only
    (None otherwise: an English question is searched as written)."""
    glossary = Glossary.load(GLOSSARY)

    def translate(question: str) -> str | None:
        return glossary.translate(question) if detect_language(question) == "pl" else None

    return translate


def build_router(
    settings: Settings, models: Models, knowledge: Knowledge, *, use_llm: bool = True
) -> IntentRouter:
    classifier = EmbeddingIntentClassifier(
        models.embeddings,
        load_examples(ROUTER_EXAMPLES),
        cache_dir=settings.index_dir(NAME),
        embeddings_id=models.embeddings_id,
        domain_vectors=knowledge.index.vectors(NAME),
        lexical=ROUTE_KEYWORDS,
        lexical_weight=0.5,
    )
    enabled = use_llm and settings.router_llm != "never"
    return IntentRouter(
        classifier,
        fast_paths=fast_paths_for("unknown", GREETING_PATTERNS),
        llm_route=lazy_llm_route(models, nodes.llm_route, enabled=enabled),
        mode=settings.router_llm,
        min_confidence=settings.router_min_confidence,
    )


def build_tool_chooser(settings: Settings, models: Models):
    """The billing agent's tool picker: an intent classifier over example requests per tool."""
    classifier = EmbeddingIntentClassifier(
        models.embeddings,
        load_examples(TOOL_EXAMPLES),
        cache_dir=settings.index_dir(NAME),
        embeddings_id=models.embeddings_id,
    )

    def choose(text: str) -> tuple[str, float]:
        prediction = classifier.predict(text)
        return prediction.label, prediction.confidence

    return choose


def open_billing(settings: Settings) -> BillingStore:
    store = BillingStore(TelecomSettings.of(settings).billing_database(settings))
    store.create_schema()
    store.seed()
    return store


def turn_input(message: str, user_id: str | None = None) -> dict[str, Any]:
    """A new turn: the message, the customer (when the request names one), per-turn resets."""
    update: dict[str, Any] = {
        "messages": [HumanMessage(content=message)],
        "route": None,
        "category": None,
        "router_confidence": 0.0,
        "route_method": None,
        "router_reasoning": None,
        "guardrail": None,
        "retrieved_context": [],
        "retrieval": None,
        "used_tools": [],
        "route_hint": None,
        "ticket_id": None,
    }
    if user_id:
        update["user_id"] = user_id
    return update


def sources_of(state: dict[str, Any]) -> dict[str, Any]:
    technical = state.get("route") == "technical"
    hits = state.get("retrieved_context") or []
    if "last_docs" not in state and technical:
        # Stopped out of time before the answer was written: its answer quotes the retrieved
        # sections, so they are its sources, each openable at the sentence quoted.
        docs = [citation_of(hit) for hit in hits]
    else:
        docs = (state.get("last_docs") or []) if technical else []
    # Each cited section's text, for the web UI to open, is its own retrieved hit's, found by
    # file and section: the citations are not in the order of the hits (a Polish question's
    # English-only answer cites the section it quotes first), and pairing them by position
    # opened "Faktury i zwroty" on the APN steps.
    text_of: dict[str, str] = {}
    for hit in hits:
        cited = citation_of(hit)
        text_of.setdefault(f"{cited['file']}#{cited['section']}", hit.get("content", ""))
    documents = [
        {
            "id": f"{d['file']}#{d['section']}",
            "title": " — ".join(str(p) for p in (d["title"], d["section"]) if p),
            "text": text_of.get(f"{d['file']}#{d['section']}", ""),
        }
        for d in docs
    ]
    return {
        "sources": [" — ".join(str(p) for p in (d["title"], d["section"]) if p) for d in docs],
        "citations": docs,
        "documents": documents,
        "used_tools": state.get("used_tools") or [],
        "route": state.get("route"),
        # Handed to a person: the web UI then looks for their replies (agentkit.handoff).
        "ticket_id": state.get("ticket_id"),
    }


# A turn out of time: (opening, the manual's sections, how to reach a person), per language.
OUT_OF_TIME = {
    "en": (
        "I could not finish an answer in time.",
        "These sections of the manual cover your question:",
        "Please ask again in a moment, or contact customer support to talk to a person.",
    ),
    "pl": (
        "Nie zdążyłem przygotować odpowiedzi na czas.",
        "Twoje pytanie omawiają te sekcje instrukcji:",
        (
            "Zapytaj ponownie za chwilę albo skontaktuj się z obsługą klienta, aby porozmawiać "
            "z konsultantem."
        ),
    ),
}


def out_of_time_answer(state: dict[str, Any]) -> str:
    """A turn out of time, answered without the model: the sentences of the manual sections
    retrieved for it closest to the question, cited; failing those, the sections' titles and
    how to reach support."""
    texts = human_texts(state.get("messages") or [])
    language = conversation_language(texts)
    hits = state.get("retrieved_context") or []
    if hits and texts:
        focused = focused_context(texts[-1], hits, TelecomContext.max_context_chars)
        quoted = from_the_manual(texts[-1], [text for _, text in focused], language)
        if quoted:
            return with_sources(quoted, [hit for hit, _ in focused], language)
    opening, sections_intro, support = OUT_OF_TIME[language]
    sections: list[str] = []
    for hit in state.get("retrieved_context") or []:
        cite = citation_of(hit)
        title = " — ".join(str(p) for p in (cite["title"], cite["section"]) if p)
        if title and title not in sections:
            sections.append(title)
    if not sections:
        return f"{opening} {support}"
    return "\n".join([opening, sections_intro, *(f"• {t}" for t in sections), support])


def state_excerpt(state: dict[str, Any]) -> dict[str, Any]:
    flags = state.get("context_flags") or {}
    excerpt = {
        "last_agent": state.get("last_agent"),
        "history_length": len(state.get("messages") or []),
        "category": state.get("category"),
        "confidence": state.get("router_confidence"),
        "route_method": state.get("route_method"),
        "reasoning": state.get("router_reasoning"),
    }
    if state.get("retrieval"):
        excerpt["no_context"] = state["retrieval"]["no_context"]
        excerpt["mean_score"] = state["retrieval"]["mean_score"]
        excerpt["relevance"] = state["retrieval"].get("relevance")
    if flags.get("refund_in_progress"):
        excerpt["refund_in_progress"] = True
    if state.get("pending_request"):
        excerpt["pending_tool"] = state["pending_request"]["tool"]
    if state.get("billing_case_id"):
        excerpt["billing_case_id"] = state["billing_case_id"]
    if state.get("route_hint"):
        excerpt["route_hint"] = state["route_hint"]
    if state.get("ticket_id"):
        excerpt["ticket_id"] = state["ticket_id"]
    return excerpt


def answer_of(state: dict[str, Any], thread_id: str) -> Answer:
    extra = sources_of(state)
    return Answer(
        answer=last_ai_text(state.get("messages", [])),
        route=state.get("route"),
        confidence=state.get("router_confidence"),
        sources=extra["sources"],
        validation=None,
        thread_id=thread_id,
        context=list(state.get("retrieved_context") or []),
        extra={
            "last_agent": state.get("last_agent"),
            "citations": extra["citations"],
            "used_tools": extra["used_tools"],
            "state_excerpt": state_excerpt(state),
        },
    )


async def build_service(
    settings: Settings,
    models: Models,
    *,
    billing: BillingStore | None = None,
    tickets: TicketStore | None = None,
) -> GraphAssistant:
    """The assistant as configured. `billing` and `tickets`: stores to use instead of those
    the settings name (an evaluation's own, so that it never writes into the operator's);
    the caller closes them."""
    knowledge, _ = open_knowledge(settings, models)
    router = build_router(settings, models, knowledge)
    resources = AsyncExitStack()
    try:
        if billing is None:
            billing = open_billing(settings)
            resources.callback(billing.dispose)
        if tickets is None:
            tickets = TicketStore(settings.threads_path)
            resources.callback(tickets.close)
        checkpointer = await resources.enter_async_context(
            open_checkpointer(settings.checkpointer, settings.checkpoint_path)
        )
    except BaseException:
        await resources.aclose()
        raise
    context = TelecomContext(
        llm=models.chat,
        router=router,
        retriever=knowledge.retriever,
        billing=billing,
        tool_chooser=build_tool_chooser(settings, models),
        tickets=tickets,
    )
    info = {
        "assistant": NAME,
        "name": "Telecom support",
        "location": None,
        "categories": ["technical", "billing"],
        "document_count": knowledge.index.count(NAME),
        "item_count": len(knowledge.source.documents),
        "takes_user_id": True,
    }
    return GraphAssistant(
        NAME,
        build_graph(checkpointer),
        context,
        info=info,
        token_nodes=TOKEN_NODES,
        turn_input=turn_input,
        answer_of=answer_of,
        sources_of=sources_of,
        resources=resources,
        out_of_time=out_of_time_answer,
        # A technical answer's specifics are released once its manual sections support them.
        release_check=grounded_release(),
        tickets=tickets,
    )


# -- evaluation targets: the gate and the billing decision, without the rest of the graph -----


def gate_target(knowledge: Knowledge):
    """`question -> bool`: did the NO_CONTEXT gate fire."""
    return lambda question: knowledge.retriever.retrieve(question).no_context


def gate_scores_target(knowledge: Knowledge):
    """`question -> (hits, relevance)`, for calibrating the gate's threshold."""

    def score(question: str) -> tuple[int, float]:
        found = knowledge.retriever.retrieve(question)
        return len(found.hits), found.relevance

    return score


def tools_target(settings: Settings, models: Models):
    """`async case -> (tool, args)`: the billing agent's decision on the case's conversation."""
    from langchain_core.messages import AIMessage

    chooser = refund_first(build_tool_chooser(settings, models))  # as the billing agent does

    async def decide(case) -> tuple[str | None, dict[str, Any]]:
        window = [
            HumanMessage(content=text) if role == "user" else AIMessage(content=text)
            for role, text in case.messages
        ]
        decision = await billing_agent.billing_decision(models.chat, chooser, window, case.user_id)
        return (decision.tool if decision.ready else None), decision.args

    return decide


def index_stats(settings: Settings) -> dict[str, Any]:
    """The similarity statistics saved with the index at ingestion."""
    from frontdesk.knowledge.mmr import read_statistics

    return read_statistics(settings.index_dir(NAME))


def demo_customers(settings: Settings) -> list[dict[str, str]]:
    """Whom the web UI's demo sign-in may act as: the seeded customers, with their plans."""
    from frontdesk.assistants.telecom.billing_db import PLANS, SUBSCRIPTIONS

    plans = {code: name for code, name, _price, _cap in PLANS}
    return [
        {"id": user, "label": f"{user} · {plans[plan]} · {status}"}
        for user, plan, _start, status, _suffix in SUBSCRIPTIONS
    ]
