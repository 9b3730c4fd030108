"""The facts node: between retrieve and generate, it works out the answer from the structured
items when the question has a shape they answer (facts.py), and puts those items first."""

from __future__ import annotations

import logging
from datetime import date
from typing import Any

from langgraph.runtime import Runtime

from frontdesk.agentkit.streaming import human_texts
from frontdesk.assistants.concierge.absent import leans_on_previous
from frontdesk.assistants.concierge.facts import work_out
from frontdesk.assistants.concierge.state import ConciergeContext, ConciergeState
from frontdesk.knowledge.formatters import format_item

logger = logging.getLogger(__name__)


def facts_node(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    """The answer worked out from the structured items, when the question has a shape the
    structure answers (facts.py); the items it used lead the context."""
    ctx = runtime.context
    # A Spanish question is worked out in the guide's words, and answered in Spanish.
    questions = [ctx.reading(q) for q in human_texts(state.get("messages", []))]
    if not ctx.items or not questions:
        return {"fact_answer": None, "fact_items": []}
    question = questions[-1]
    previous = questions[-2] if len(questions) > 1 and leans_on_previous(question) else None
    context = state.get("retrieved_context") or []
    try:
        today = date.fromisoformat(state.get("today") or "")
    except ValueError:
        today = None
    found = work_out(
        question,
        previous=previous,
        previous_items=(state.get("last_answer_items") or []) if previous else [],
        items=ctx.items,
        retrieved=[doc["metadata"].get("item_name", "") for doc in context],
        today=today,
        property=ctx.property,
        current_time=state.get("current_time", ""),
        language=state.get("language") or "en",
    )
    if found is None:
        return {"fact_answer": None, "fact_items": []}
    logger.info("answer worked out from %s", list(found.items))
    by_name = {item.name: item for item in ctx.items}
    have = {doc["metadata"].get("item_name") for doc in context}
    # Items the answer used that the search did not return (a dated show, the thing close to
    # an absent one) join the context: the grounding check and the sources read it.
    added = [
        {
            "content": format_item(by_name[name].category, name, by_name[name].fields),
            "metadata": {"item_name": name, "category": by_name[name].category},
            "score": 0.0,
        }
        for name in found.items
        if name not in have and name in by_name
    ]
    if found.support:
        added.append({"content": found.support, "metadata": {"category": "calendar"}, "score": 0.0})
    used = [doc for doc in context if doc["metadata"].get("item_name") in found.items]
    rest = [doc for doc in context if doc not in used]
    return {
        "fact_answer": found.text,
        "fact_items": list(found.items),
        "retrieved_context": [*used, *added, *rest],
    }
