"""The code QA graph's nodes (the seed's six, L394-455), its two routing functions, and a third:
a repository still being indexed is answered "not yet", with nothing to retrieve.

Each node is a function of the state that returns an update. The deterministic steps come
first and most turns need no model before the answer (G14): the guard's rules and learned
layer, intent by patterns, routing by the symbol index, retrieval by BM25 and vectors."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import END
from langgraph.runtime import Runtime

from frontdesk.agentkit.language import ENGLISH_ONLY, unserved_language
from frontdesk.assistants.codeqa import prompts
from frontdesk.assistants.codeqa.answers.compose import synthesize
from frontdesk.assistants.codeqa.context import CodeQAContext
from frontdesk.assistants.codeqa.repository import RepositoryUnavailable
from frontdesk.assistants.codeqa.retrieval.expansion import expand
from frontdesk.assistants.codeqa.retrieval.pipeline import retrieve, route_question
from frontdesk.assistants.codeqa.state import CodeQAState
from frontdesk.guardrails import guard_for
from frontdesk.routing.followup import leans_on_previous

SECURITY_GATEWAY = "security_gateway"
INPUT_PREPROCESSOR = "input_preprocessor"
ROUTER = "router"
RETRIEVAL = "retrieval"
SYNTHESIS = "synthesis"
CONVERSATION_MEMORY = "conversation_memory"
UNSERVED_LANGUAGE = "unserved_language"  # an intent, beside the seed's four

_HISTORY = re.compile(
    r"\bwhat\b.{0,20}\b(?:did|have)\s+i\s+(?:ask|say|asked|said)\b|\bmy\s+(?:previous|last|"
    r"earlier|first)\s+questions?\b|\bconversation\s+(?:history|so\s+far)\b|\bwhat\s+have\s+we"
    r"\s+(?:discussed|talked\s+about|covered)\b",
    re.IGNORECASE,
)
_RESTATE = re.compile(
    r"^\s*(?:can\s+you\s+|could\s+you\s+|please\s+)?(?:explain\s+(?:that|it|this)\b.{0,25}"
    r"(?:simpl\w*|again|differently|more\s+slowly)|(?:say|put)\s+(?:that|it)\s+(?:in\s+)?"
    r"(?:simpler|other|plain)|tell\s+me\s+more|elaborate|what\s+do\s+you\s+mean|rephrase|"
    r"summari[sz]e\s+(?:that|it|this)|eli5|go\s+on)\b",
    re.IGNORECASE,
)


# Words every question about code may use: they name no subject of their own.
_FRAME_WORDS = frozenset(
    re.findall(
        r"\S+",
        """where what how why which who when whats is are was were the a an of in on to for from
    by with does do did done this that these it its there be can could would should i you me
    we my show find tell please explain about more again file files function functions class
    classes method methods code module modules line lines defined define used use uses call
    calls called work works happen happens implemented handled handle happen get set any
    some here same other one""",
    )
)


def names_own_subject(query: str) -> bool:
    """Whether a question names what it is about, so that it stands alone however short; one
    made only of a question's frame words ("in which file?") leans on the answer before.
    (Example questions stay out of this comment: the repository indexes itself.)"""
    words = re.findall(r"[a-z_][a-z0-9_]*", query.casefold())
    return any(len(w) > 2 and w not in _FRAME_WORDS for w in words)


def security_gateway(state: CodeQAState, runtime: Runtime[CodeQAContext]) -> dict[str, Any]:
    """The guard first, before anything reads the message (G4: it cannot be "down")."""
    verdict = guard_for(runtime.context.embeddings).check(state.get("user_query") or "")
    if verdict.flagged:
        return {
            "gateway_passed": False,
            "is_blocked": True,
            "gateway_reason": verdict.family,
            "final_answer": prompts.BLOCKED,
            "messages": [AIMessage(content=prompts.BLOCKED)],
        }
    return {"gateway_passed": True, "is_blocked": False, "gateway_reason": None}


def input_preprocessor(state: CodeQAState) -> dict[str, Any]:
    """The four intents (L155-162), by patterns: a question about the conversation is
    answered here; a request to restate is answered from the last turn's code; a follow-up
    that points back searches again with the last turn's subject; anything else is new."""
    query = (state.get("user_query") or "").strip()
    history = state.get("conversation_history") or []
    if (language := unserved_language(query)) is not None:
        # Code QA answers in English: a question in Spanish or Polish is told so in its own
        # language, not answered from a guess at it.
        return {
            "intent": UNSERVED_LANGUAGE,
            "is_history_query": False,
            "is_follow_up": False,
            "needs_retrieval": False,
            "cleaned_query": query,
            "final_answer": ENGLISH_ONLY[language],
        }
    if _HISTORY.search(query):
        asked = [f"{i}. {turn['query']}" for i, turn in enumerate(history, 1)]
        answer = (
            prompts.HISTORY_LIST.substitute(questions="\n".join(asked))
            if asked
            else prompts.NO_HISTORY
        )
        return {
            "intent": "history_request",
            "is_history_query": True,
            "is_follow_up": False,
            "needs_retrieval": False,
            "cleaned_query": query,
            "final_answer": answer,
        }
    # The last turn about code (a question about the conversation is not one).
    previous = next((t for t in reversed(history) if t.get("chunk_ids")), None)
    if previous and _RESTATE.search(query):
        return {
            "intent": "follow_up",
            "is_history_query": False,
            "is_follow_up": True,
            "needs_retrieval": False,
            "cleaned_query": query,
        }
    if previous and leans_on_previous(query, names_own_subject=names_own_subject(query)):
        subject = " ".join(previous.get("symbols") or []) or previous["query"]
        return {
            "intent": "follow_up_with_retrieval",
            "is_history_query": False,
            "is_follow_up": True,
            "needs_retrieval": True,
            "cleaned_query": f"{query} ({subject})",
        }
    return {
        "intent": "new_question",
        "is_history_query": False,
        "is_follow_up": False,
        "needs_retrieval": True,
        "cleaned_query": query,
    }


def router(state: CodeQAState, runtime: Runtime[CodeQAContext]) -> dict[str, Any]:
    """Retrieval requests from the question, without a model (retrieval.pipeline); or, when
    the repository cannot be searched yet (still being indexed), the answer that says so."""
    try:
        repo = runtime.context.repository(state.get("repo_id") or runtime.context.default_repo)
    except RepositoryUnavailable as unavailable:
        return {
            "error": "repository_unavailable",
            "final_answer": str(unavailable),
            "messages": [AIMessage(content=str(unavailable))],
        }
    query = state.get("cleaned_query") or state.get("user_query") or ""
    output = route_question(query, repo, asked=state.get("user_query") or query)
    return {"router_output": output, "codebase_tree": repo.codebase_tree}


def retrieval(state: CodeQAState, runtime: Runtime[CodeQAContext]) -> dict[str, Any]:
    """The chunks for the router's requests (retrieval.pipeline), with their context."""
    ctx = runtime.context
    repo = ctx.repository(state.get("repo_id") or ctx.default_repo)
    found = retrieve(
        state.get("router_output") or {},
        repo,
        top_k=ctx.settings.top_k,
        search=ctx.search_settings,
        min_similarity=ctx.settings.min_similarity,
    )
    blocks = expand(found.chunks, repo.documents(), ctx.settings.context_chars)
    return {
        "retrieved_chunks": [_chunk_dict(d) for d in found.chunks],
        "expanded_chunks": [_block_dict(b) for b in blocks],
        "retrieval_metadata": found.metadata,
    }


async def synthesis(state: CodeQAState, runtime: Runtime[CodeQAContext]) -> dict[str, Any]:
    return await synthesize(state, runtime.context)


def conversation_memory(state: CodeQAState, runtime: Runtime[CodeQAContext]) -> dict[str, Any]:
    """Save the turn (its question, answer, citations and the chunks they came from, so a
    follow-up can reload them, G11), keep the last turns, and reset the per-query fields."""
    answer = state.get("final_answer") or ""
    citations = state.get("citations") or []
    turn = {
        "query": state.get("user_query") or "",
        "answer": answer,
        "citations": [c["label"] for c in citations],
        "chunk_ids": [b["chunk_id"] for b in state.get("expanded_chunks") or []],
        "symbols": sorted({b["symbol"] for b in state.get("expanded_chunks") or [] if b["symbol"]})[
            :3
        ],
        "timestamp": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    keep = runtime.context.settings.memory_turns
    history = [*(state.get("conversation_history") or []), turn][-keep:]
    update: dict[str, Any] = {
        "conversation_history": history,
        "turn_count": (state.get("turn_count") or 0) + 1,
    }
    if answered_before_retrieval(state):
        update["messages"] = [AIMessage(content=answer)]
    return update


# -- routing functions (pure) ----------------------------------------------------------------


def route_after_security(state: CodeQAState) -> str:
    return END if state.get("is_blocked") else INPUT_PREPROCESSOR


def answered_before_retrieval(state: CodeQAState) -> bool:
    """A question about the conversation, or in a language code QA does not answer in: the
    preprocessor wrote the answer itself."""
    return bool(state.get("is_history_query")) or state.get("intent") == UNSERVED_LANGUAGE


def route_after_input_preprocessor(state: CodeQAState) -> str:
    if answered_before_retrieval(state):
        return CONVERSATION_MEMORY
    if not state.get("needs_retrieval", True):
        return SYNTHESIS
    return ROUTER


def route_after_router(state: CodeQAState) -> str:
    return CONVERSATION_MEMORY if state.get("error") == "repository_unavailable" else RETRIEVAL


def _chunk_dict(document) -> dict[str, Any]:
    return {"chunk_id": document.id, **{k: document.metadata.get(k) for k in (
        "path", "start_line", "end_line", "symbol", "kind", "source_type")}}  # fmt: skip


def _block_dict(block) -> dict[str, Any]:
    return {
        "path": block.path,
        "start_line": block.start_line,
        "end_line": block.end_line,
        "code": block.code,
        "symbol": block.symbol,
        "chunk_id": block.chunk_id,
        "notes": list(block.notes),
        "cited": [list(span) for span in block.cited],
    }
