"""The orchestrator's nodes (seed 002): classify, then the SQL, RAG or general agent, finalize.

classify -> sql_agent | rag_retrieve -> rag_answer | general_answer | (blocked) -> finalize.
The conversation (`messages`) is the checkpointed state; every model call sees only its last
MAX_CONVERSATION_MESSAGES messages.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from frontdesk.agentkit.language import ENGLISH_ONLY, unserved_language
from frontdesk.agentkit.prompts import render, structured_verdict
from frontdesk.agentkit.streaming import human_texts, message_text
from frontdesk.assistants.analyst import prompts
from frontdesk.assistants.analyst.sql_agent.nodes import question_in_context
from frontdesk.assistants.analyst.state import AgentState, AnalystContext
from frontdesk.guardrails import guard_for
from frontdesk.knowledge.mmr import citation_of
from frontdesk.routing.followup import is_follow_up, leans_on_previous

logger = logging.getLogger(__name__)

CLASSIFY = "classify"
SQL_AGENT = "sql_agent"
RAG_RETRIEVE = "rag_retrieve"
RAG_ANSWER = "rag_answer"
GENERAL_ANSWER = "general_answer"
FINALIZE = "finalize"
ROUTE_NODES = {"sql": SQL_AGENT, "rag": RAG_RETRIEVE, "general": GENERAL_ANSWER}
# How much of the best manual passage is shown when the model could not answer from it.
EXCERPT_CHARS = 600

# "delete all cancelled work orders", "please update technician 5's phone": a request to change
# data is refused before anything else runs, the router included (the SQL checks would refuse
# it anyway, and the manual would answer it as if it could be done).
_WRITE_REQUEST = re.compile(
    r"^\s*(?:please\s+|can you\s+|could you\s+|now\s+)?"
    r"(?:delete|remove|erase|wipe|purge|drop|truncate|update|modify|change|set|rename|insert|"
    r"create|alter|overwrite|replace|mark|reassign|cancel|close|reopen)\b(?!\s+up\b)",
    re.IGNORECASE,
)


def is_write_request(text: str) -> bool:
    return bool(_WRITE_REQUEST.search(text))


# -- nodes -----------------------------------------------------------------------------------


async def classify(state: AgentState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    questions = human_texts(state.get("messages", []))
    text = questions[-1] if questions else ""
    audit = guard_for(runtime.context.router.embeddings).check(text)
    if audit.flagged:
        logger.warning("guardrail %s flagged a message: %r", audit.family, audit.matched)
        return _decision(text, "blocked", 1.0, "guardrail", guardrail=audit.family)
    if is_write_request(text):  # whatever the router would say: "delete all closed work
        return _decision(text, "refuse", 1.0, "write_request")  # orders" is not a manual topic
    if (language := unserved_language(text)) is not None:
        # "Ile zleceń jest open right now?" was answered with the question itself: the analyst
        # answers in English only, and says so in the question's language.
        return _decision(text, f"language:{language}", 1.0, "language")
    if asks_for_a_secret(text):  # never a query or a manual search (general_answer says so)
        return _decision(text, "general", 1.0, "secret")
    decision = await runtime.context.router.route(text)
    label, confidence, method = decision.label, decision.confidence, decision.method
    previous_route = state.get("last_route")
    if len(questions) > 1 and previous_route == "sql" and is_follow_up(text) and label != "sql":
        # "and in 2024?" after a data question is a data question.
        # Read beside the question the last query answered (itself in context): "and in
        # progress?" then "what about scheduled?" still continue "how many work orders...".
        before = (state.get("last_query") or {}).get("question") or questions[-2]
        in_context = await runtime.context.router.route(f"{before} {text}")
        if in_context.label == "sql":
            label, confidence, method = "sql", in_context.confidence, "follow_up"
    return _decision(text, label, confidence, method)


def _decision(
    question: str, route: str, confidence: float, method: str, *, guardrail: str | None = None
) -> dict[str, Any]:
    return {
        "question": question,
        "next_step": route,
        "router_confidence": confidence,
        "route_method": method,
        "guardrail": guardrail,
    }


async def sql_agent(state: AgentState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    """Runs the SQL graph agent on the question (joined to the previous one for a follow-up)."""
    ctx = runtime.context
    questions = human_texts(state.get("messages", []))
    question = state.get("question") or (questions[-1] if questions else "")
    previous = previous_result(state, ctx.sql, questions)
    limits = ctx.sql.limits
    result = await ctx.sql_graph.ainvoke(
        {
            "question": question,
            "previous": previous,
            "retries": 0,
            "iterations": 0,
            "sql_correction_attempts": 0,
            "correction_history": [],
            "max_correction_attempts": limits.correction_max_attempts,
            "max_iterations": limits.agent_max_iterations,
        },
        # Every model call (an iteration) costs at most four steps (write or correct, rewrite,
        # validate, execute), plus the table choice before and the answer after: an empty
        # result's retry and three corrections went past LangGraph's default of 25.
        config={"recursion_limit": 12 + 4 * limits.agent_max_iterations},
        context=ctx,
    )
    outcome = result.get("outcome")
    ran = outcome in ("answered", "empty")
    # Every error on the way, the last one (why it gave up) included: the UI's details show
    # them; the answer says what went wrong in the user's terms (prompts.SQL_PROBLEMS).
    errors = [h["error"] for h in result.get("correction_history", [])]
    if not ran and result.get("last_sql_error"):
        errors.append(result["last_sql_error"])
    kind = None if ran else result.get("error_kind")
    report = {
        "question": question_in_context(result),
        "sql": result.get("sql"),
        "executed_sql": result.get("executed_sql"),
        "tables": result.get("tables", []),
        # Columns of an earlier, empty try are not this query's.
        "columns": (result.get("column_names") or []) if ran else [],
        "row_count": result.get("row_count", 0) if ran else 0,
        "truncated": bool(result.get("truncated")) and ran,
        "outcome": outcome,
        "correction_attempts": result.get("sql_correction_attempts", 0),
        "attempts": 1 + result.get("sql_correction_attempts", 0) + result.get("retries", 0),
        "errors": errors,
        "error_kind": kind,
        "problem": None if ran else prompts.sql_problem(kind, result.get("last_sql_error")),
        "join_plan": result.get("join_plan"),
    }
    ran = ran and bool(report["sql"])
    return {
        "sql_result": result.get("final_answer"),
        "sql_structured_result": result.get("structured_result") if ran else None,
        "sql_report": report,
        "last_query": (
            {"question": report["question"], "sql": report["sql"], "tables": report["tables"]}
            if ran
            else None
        ),
    }


def previous_result(state: AgentState, tk, questions: list[str]) -> dict[str, Any] | None:
    """The last turn's question, SQL and tables when this message follows up on its result
    ("and how many are in progress?", "which of them are overdue?"); None for a question that
    stands alone, or when the last turn was not a query that ran."""
    last = state.get("last_query")
    if state.get("last_route") != "sql" or not last or len(questions) < 2:
        return None
    text = questions[-1]
    names_table = bool(tk.named_tables(text, list(tk.graph.tables)))
    return dict(last) if leans_on_previous(text, names_own_subject=names_table) else None


def rag_retrieve(state: AgentState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    found = runtime.context.manual.retrieve(state.get("question") or "")
    if found.no_context:
        return {"rag_sources": [], "rag_result": prompts.NO_MANUAL}
    return {"rag_sources": [dict(hit) for hit in found.hits], "rag_result": None}


async def rag_answer(state: AgentState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    if state.get("rag_result"):  # nothing relevant in the manual: the fixed reply
        return {}
    ctx = runtime.context
    blocks, used = [], 0
    for hit in state.get("rag_sources") or []:
        block = f"[{citation_of(hit)}]\n{hit['content']}"
        if blocks and used + len(block) > ctx.max_context_chars:
            break
        blocks.append(block)
        used += len(block)
    turn = render(prompts.RAG_TURN, context="\n\n".join(blocks), question=state.get("question"))
    try:
        reply = await ctx.llm.ainvoke(
            [SystemMessage(content=prompts.RAG_SYSTEM), HumanMessage(content=turn)]
        )
    except Exception:  # the turn falls back; its own time limit (a cancellation) still applies
        logger.exception("the manual answer failed; answering with the manual's passage")
        best = (state.get("rag_sources") or [{}])[0].get("content", "")
        excerpt = (
            best[:EXCERPT_CHARS].rsplit(" ", 1)[0] + "…" if len(best) > EXCERPT_CHARS else best
        )
        return {
            "rag_result": render(prompts.MANUAL_EXCERPT, excerpt=excerpt)
            if excerpt
            else prompts.MODEL_UNAVAILABLE
        }
    return {"rag_result": message_text(reply).strip() or prompts.NO_MANUAL}


# Weather, news, prices, scores: nothing the analyst has, and the 0.5B model gave Mars a "mostly
# clear" forecast although its prompt says it has no live data.
_LIVE_DATA = re.compile(
    r"\b(?:weather|forecast|temperature outside|news|headlines?|stock|share price|exchange rate|"
    r"traffic|scores?\b.*\b(?:game|match))\b",
    re.IGNORECASE,
)


def asks_live_data(text: str) -> bool:
    return bool(_LIVE_DATA.search(text))


# A password, PIN or access code is in no data the analyst reads and no general knowledge: the
# 0.5B model, asked "what's the wifi password in room 1204?", answered "password123".
_SECRET = re.compile(
    r"\b(?:pass ?words?|passwd|pass ?codes?|pin (?:codes?|numbers?)|wi-?fi (?:keys?|codes?)"
    r"|access codes?|door codes?|gate codes?|alarm codes?|log ?in details|credentials?"
    r"|security codes?|hasł[oa]|contraseñas?|clave)\b",
    re.IGNORECASE,
)


_PIN = re.compile(r"\bPINs?\b")  # the capitals: "pin" alone is also a verb


def asks_for_a_secret(text: str) -> bool:
    return bool(_SECRET.search(text) or _PIN.search(text))


async def general_answer(state: AgentState, runtime: Runtime[AnalystContext]) -> dict[str, Any]:
    ctx = runtime.context
    questions = [m for m in state.get("messages", []) if isinstance(m, HumanMessage)]
    if questions and asks_live_data(message_text(questions[-1])):
        return {"general_result": prompts.NO_LIVE_DATA}
    if questions and asks_for_a_secret(message_text(questions[-1])):
        return {"general_result": prompts.NO_SECRETS}
    # The person's own words only: shown its earlier replies (a refusal), the small model
    # repeated them as this answer.
    window = questions[-ctx.max_conversation_messages :]
    try:
        reply = await ctx.llm.ainvoke([SystemMessage(content=prompts.GENERAL_SYSTEM), *window])
    except Exception:  # as in rag_answer
        logger.exception("the general answer failed")
        return {"general_result": prompts.MODEL_UNAVAILABLE}
    return {"general_result": message_text(reply).strip()}


def finalize(state: AgentState) -> dict[str, Any]:
    route = state.get("next_step")
    rows: list[dict[str, Any]] | None = None
    if route == "sql":
        answer = state.get("sql_result") or ""
        rows = state.get("sql_structured_result")
    elif route == "rag":
        answer = state.get("rag_result") or prompts.NO_MANUAL
    elif route == "general":
        answer = state.get("general_result") or ""
    elif route == "refuse":
        answer = prompts.REFUSED
    elif route and route.startswith("language:"):
        answer = ENGLISH_ONLY[route.removeprefix("language:")]
    else:
        answer = prompts.GUARDED
    return {
        "final_answer": answer,
        "final_structured_data": rows,
        "last_route": route,
        "messages": [AIMessage(content=answer)],
    }


class RouteOutput(BaseModel):
    """The LLM router's answer (seed: SQL | RAG | GENERAL)."""

    route: Literal["sql", "rag", "general"]
    confidence: float = Field(ge=0.0, le=1.0)


async def llm_route(llm, text: str) -> tuple[str, float]:
    """The LLM classifier, used when the embedding classifier is unsure (FRONTDESK_ROUTER_LLM)."""
    result = await structured_verdict(llm, RouteOutput, 48).ainvoke(
        render(prompts.ROUTER, message=text)
    )
    if not isinstance(result, RouteOutput):
        result = RouteOutput.model_validate(result)
    return result.route, result.confidence


# -- routing (pure) --------------------------------------------------------------------------


def route_from_classify(state: AgentState) -> str:
    return ROUTE_NODES.get(state.get("next_step") or "", FINALIZE)
