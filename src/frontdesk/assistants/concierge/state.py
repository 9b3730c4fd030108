"""What the concierge graph carries through a turn, and the shapes of its structured outputs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from frontdesk.agentkit.language import detect_language
from frontdesk.knowledge.glossary import Glossary
from frontdesk.knowledge.loader import KnowledgeItem
from frontdesk.knowledge.retriever import HybridRetriever
from frontdesk.routing.router import IntentRouter

QueryType = Literal[
    "property_qa",
    "hours_schedule",
    "greeting",
    "off_topic",
    "gambling_advice",
    "action_request",
    "ambiguous",
]
QUERY_TYPES: tuple[str, ...] = QueryType.__args__  # type: ignore[attr-defined]


class ConciergeState(TypedDict, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    query_type: str | None
    router_confidence: float
    # How the route was decided: fast_path, classifier, llm, guardrail or turn_limit.
    route_method: str | None
    # The guardrail family that flagged the message, if one did.
    guardrail: str | None
    retrieved_context: list[dict[str, Any]]
    validation_result: str | None
    retry_count: int
    retry_feedback: str | None
    # Set when the answer is a static message (no context, model error): nothing to validate.
    skip_validation: bool
    current_time: str
    # The turn's date (ISO), from the same clock as `current_time`: what "this weekend" means.
    today: str
    # The answer worked out from the items in code (facts node), and the items it used.
    fact_answer: str | None
    fact_items: list[str]
    # The names of the items the answer used.
    sources_used: list[str]
    # The items the previous answer used, kept across turns: what "it" means in a follow-up
    # ("which tower is newer?", then "how many rooms does it have?").
    last_answer_items: list[str]
    # The language the guest wrote this turn's message in ("en", "es"): the answer's.
    language: str


class RouterOutput(BaseModel):
    query_type: QueryType
    confidence: float = Field(ge=0.0, le=1.0)


class ValidationResult(BaseModel):
    status: Literal["PASS", "FAIL"]
    reason: str = Field(max_length=200)


@dataclass
class ConciergeContext:
    """What the nodes use besides state: models, retrieval, and the property's own facts."""

    llm: BaseChatModel
    router: IntentRouter
    retriever: HybridRetriever
    property: dict[str, Any]
    categories: list[str]
    venue_names: list[str] = field(default_factory=list)
    max_messages: int = 40
    history_messages: int = 6
    validate_with_llm: bool = True
    # The structured items, for the facts node (empty: every answer is the model's).
    items: list[KnowledgeItem] = field(default_factory=list)
    # Spanish words -> the guide's English words: the router, the search and the facts read a
    # Spanish question in the words the guide is written in (knowledge/glossary.py).
    glossary: Glossary | None = None
    languages: tuple[str, ...] = ("en", "es")

    def language_of(self, text: str, previous: str | None = None) -> str:
        """The language of `text`; `previous` (the conversation's) when it gives no sign."""
        return detect_language(text, among=self.languages, otherwise=previous)

    def reading(self, text: str) -> str:
        """`text` in the guide's words: a Spanish question through the glossary, else as
        written."""
        if self.glossary is None or self.language_of(text) == "en":
            return text
        return self.glossary.translate(text) or text
