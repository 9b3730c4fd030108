"""What the telecom graph carries: the seed's GraphState on the core's message history."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from frontdesk.knowledge.mmr import MMRRetriever
from frontdesk.memory.tickets import TicketStore
from frontdesk.routing.router import IntentRouter

Category = Literal["technical", "billing", "unknown"]
CATEGORIES: tuple[str, ...] = Category.__args__  # type: ignore[attr-defined]
AGENTS = ("technical", "billing")


class PendingRequest(TypedDict):
    """A request waiting for the customer's answer (kept in the state between turns)."""

    tool: str
    args: dict[str, Any]  # what the customer has given so far (never the context's user_id)
    missing: list[str]
    opened_at: int  # how many customer messages there were when it was asked
    opening: str  # the message that asked
    # The invoices the agent asked the customer to choose between (their ids).
    offered: NotRequired[list[str]]


class TelecomState(TypedDict, total=False):
    # Kept across turns (the checkpointer persists them per session).
    messages: Annotated[list[AnyMessage], add_messages]
    user_id: str | None
    last_agent: str | None
    context_flags: dict[str, Any]
    last_docs: list[dict[str, Any]]
    billing_case_id: str | None
    # The billing request waiting for the customer's answer.
    pending_request: PendingRequest | None
    # Reset at the start of every turn.
    route: str | None  # technical | billing | fallback
    category: str | None  # the classifier's technical | billing | unknown
    router_confidence: float
    route_method: str | None
    router_reasoning: str | None
    guardrail: str | None
    retrieved_context: list[dict[str, Any]]
    retrieval: dict[str, Any] | None  # no_context, mean_score, threshold, reason
    used_tools: list[dict[str, Any]]
    route_hint: str | None
    ticket_id: int | None  # the ticket this turn opened or added the message to


class RouterOutput(BaseModel):
    """The LLM router's answer (seed: category, confidence, reasoning)."""

    category: Category
    confidence: float = Field(ge=0.0, le=1.0)
    reasoning: str = Field(default="", max_length=200)


@dataclass
class TelecomContext:
    llm: BaseChatModel
    router: IntentRouter
    retriever: MMRRetriever
    billing: Any  # tools.BillingStore
    # Picks the billing tool for a message: (tool name or "none", confidence).
    tool_chooser: Callable[[str], tuple[str, float]]
    max_messages: int = 60
    billing_history: int = 12
    # What the technical agent reads: the parts of the retrieved sections the question is
    # about (knowledge/passages.py), about 600 prompt tokens. Four whole sections (8,000
    # characters, the seed's bound) cost 7-15 s of prompt reading per answer on two cores.
    max_context_chars: int = 2400
    # Conversations handed to a person; None: no handoff (a request for a person is routed
    # like any other message).
    tickets: TicketStore | None = None
