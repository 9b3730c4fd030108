"""The concierge's nodes (functions of state returning updates) and its two routing functions."""

from __future__ import annotations

import logging
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from frontdesk.agentkit.claims import answer_sentences
from frontdesk.agentkit.evidence import missed_subject
from frontdesk.agentkit.grounding import check_grounding, conform_numbers
from frontdesk.agentkit.prompts import render, structured_verdict
from frontdesk.agentkit.streaming import human_texts, message_text
from frontdesk.agentkit.validation import (
    FAIL,
    PASS,
    RETRY,
    validation_outcome,
    validator_error_outcome,
)
from frontdesk.assistants.concierge import prompts
from frontdesk.assistants.concierge.absent import leans_on_previous
from frontdesk.assistants.concierge.facts import items_used
from frontdesk.assistants.concierge.phrases import phrases
from frontdesk.assistants.concierge.state import (
    ConciergeContext,
    ConciergeState,
    RouterOutput,
    ValidationResult,
)
from frontdesk.assistants.concierge.tools import search_hours, search_knowledge_base
from frontdesk.guardrails import guard_for
from frontdesk.knowledge.focus import focus_on_named
from frontdesk.knowledge.schedule import (
    asked_days,
    day_hours_conflicts,
    with_day_hours,
    wrong_day_hours,
)
from frontdesk.routing.followup import is_follow_up, refers_back
from frontdesk.routing.question_form import asks_whether_exists

logger = logging.getLogger(__name__)

ROUTER = "router"
RETRIEVE = "retrieve"
FACTS = "facts"
GENERATE = "generate"
VALIDATE = "validate"
RESPOND = "respond"
FALLBACK = "fallback"
GREETING = "greeting"
OFF_TOPIC = "off_topic"

# Router categories the off_topic node answers, each with its own reply.
REDIRECTED = ("off_topic", "gambling_advice", "action_request")
# Below this router confidence a message is not trusted to be about the property.
MIN_ROUTE_CONFIDENCE = 0.3
# Router categories the retrieve-generate path answers.
ANSWERED = ("property_qa", "hours_schedule")
# A short follow-up routed here with little confidence is routed again with the previous
# question. Not gambling advice or action requests: when unsure, refusing those is the safe side.
CONTEXT_DEPENDENT = ("off_topic", "ambiguous")
FOLLOW_UP_MIN_CONFIDENCE = 0.55
# Output budget of a structured verdict (router, validator): one short line of JSON.
VERDICT_TOKENS = 96


def _property_values(ctx: ConciergeContext) -> dict[str, Any]:
    prop = ctx.property
    return {
        "property_name": prop.get("name", "the resort"),
        "location": prop.get("location", ""),
        "phone": prop.get("phone", ""),
        "website": prop.get("website", ""),
        "helplines": helplines(prop),
        # Only the English replies list them; the Spanish ones name no topics.
        "categories": topic_list(ctx.categories, "en"),
    }


def topic_list(categories: tuple[str, ...] | list[str], language: str) -> str:
    """The guide's categories as a guest reads them, in `language` ("restaurants, common
    questions", not the keys "restaurants, faq")."""
    names = phrases(language).categories
    return ", ".join(names.get(c, c.replace("_", " ")).lower() for c in categories)


def supplied_facts(ctx: ConciergeContext) -> list[str]:
    """Facts the system itself gives the model (property contacts, helplines): support for an
    answer's specifics as much as what was retrieved."""
    values = _property_values(ctx)
    return [
        values["helplines"],
        f"{values['property_name']} {values['location']} {values['phone']} {values['website']}",
    ]


def helplines(prop: dict[str, Any]) -> str:
    """The property's problem-gambling helplines (its own state's, in its data), one line."""
    lines = prop.get("helplines") or []
    text = "; ".join(lines) if isinstance(lines, list) else str(lines)
    # A property whose data lists none still points somewhere: its own line.
    return text or f"{prop.get('name', 'the resort')} at {prop.get('phone', '')}".strip()


def _replacing_draft(messages: list[BaseMessage], text: str) -> AIMessage:
    """The turn's answer; when the last message is a rejected draft of it (a retry, the
    fallback), the new one takes its id, so the draft is replaced and never read again as
    something the assistant said."""
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.id:
        return AIMessage(content=text, id=last.id)
    return AIMessage(content=text)


def _canned(name: str, state: ConciergeState, values: dict[str, Any]) -> str:
    """The canned reply `name` in the guest's language."""
    return render(prompts.reply_template(name, state.get("language") or "en"), **values)


def _reply(text: str) -> dict[str, Any]:
    return {"messages": [AIMessage(content=text)], "sources_used": []}


# -- nodes ------------------------------------------------------------------------------------


async def router(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    ctx = runtime.context
    messages = state.get("messages", [])
    asked = human_texts(messages) or [""]
    # The conversation's language carries over a message that shows none ("ok, and sunday?").
    language = ctx.language_of(asked[-1], state.get("language"))
    if len(messages) > ctx.max_messages:
        return {
            "query_type": "off_topic",
            "router_confidence": 1.0,
            "route_method": "turn_limit",
            "language": language,
        }
    text = asked[-1]
    audit = guard_for(ctx.router.embeddings).check(text)
    if audit.flagged:
        logger.warning("guardrail %s flagged a message: %r", audit.family, audit.matched)
        return {
            "query_type": "off_topic",
            "router_confidence": 1.0,
            "route_method": "guardrail",
            "guardrail": audit.family,
            "language": language,
        }
    # The classifier knows English: a Spanish question is routed in the guide's words.
    text = ctx.reading(text)
    decision = await ctx.router.route(text)
    previous = [ctx.reading(q) for q in asked[:-1]]
    if previous and _is_unsure_follow_up(text, decision.label, decision.confidence):
        # "how much per hour?" means nothing alone; after a question about Kids Quest it does.
        in_context = await ctx.router.route(f"{previous[-1]} {text}")
        if in_context.label in ANSWERED:
            decision = in_context
    return {
        "query_type": decision.label,
        "router_confidence": decision.confidence,
        "route_method": decision.method,
        "guardrail": None,
        "language": language,
    }


def retrieve(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    questions = [runtime.context.reading(q) for q in human_texts(state.get("messages", []))]
    query = questions[-1] if questions else ""
    if len(questions) > 1 and leans_on_previous(query):
        query = f"{questions[-2]} {query}"
    retriever = runtime.context.retriever
    if state.get("query_type") == "hours_schedule":
        # A schedule question about a named venue needs that venue's hours and nothing else.
        context = focus_on_named(query, search_hours(retriever, query), keep_others=0)
    else:
        context = focus_on_named(query, search_knowledge_base(retriever, query))
    # "What about Wednesday?" after a question about Tuesday: the new day, not both.
    latest = questions[-1] if questions else ""
    days_from = latest if asked_days(latest) else query
    return {"retrieved_context": with_day_hours(context, days_from, state.get("current_time", ""))}


def conversation_for_answer(messages: list[BaseMessage], limit: int) -> list[BaseMessage]:
    """The last `limit` guest and assistant messages, ending with the guest's question.

    On a retry the rejected answer is still the last message; left in, it makes the model
    continue that answer (usually with nothing) instead of writing a new one.
    """
    turns = [m for m in messages if isinstance(m, (HumanMessage, AIMessage))]
    while turns and isinstance(turns[-1], AIMessage):
        turns.pop()
    return turns[-limit:]


def format_context(context: list[dict[str, Any]]) -> str:
    return "\n\n".join(f"[{i}] {doc['content']}" for i, doc in enumerate(context, start=1))


async def generate(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    ctx = runtime.context
    values = _property_values(ctx)
    context = state.get("retrieved_context") or []
    messages = state.get("messages", [])
    if state.get("fact_answer"):
        # Worked out in code: the model would only add its mistakes ("yes" before the fact
        # that contradicts it). The grounding check still reads it.
        return {
            "messages": [_replacing_draft(messages, state["fact_answer"])],
            "skip_validation": False,
        }
    if not context:
        return {
            "messages": [_replacing_draft(messages, _canned("NO_CONTEXT", state, values))],
            "skip_validation": True,
        }
    system = render(prompts.CONCIERGE_SYSTEM_PROMPT, **values)
    if instruction := prompts.ANSWER_LANGUAGE.get(state.get("language") or "en"):
        system += "\n" + instruction
    turn = render(
        prompts.TURN_CONTEXT,
        current_time=state.get("current_time", ""),
        context=format_context(context),
    )
    feedback = state.get("retry_feedback")
    if state.get("retry_count", 0) > 0 and feedback:
        turn += "\n\n" + render(prompts.RETRY_FEEDBACK, feedback=feedback)
    history = conversation_for_answer(state.get("messages", []), ctx.history_messages)
    try:
        reply = await ctx.llm.ainvoke([SystemMessage(content=f"{system}\n\n{turn}"), *history])
    except Exception:
        logger.exception("generation failed")
        return {
            "messages": [_replacing_draft(messages, _canned("MODEL_ERROR", state, values))],
            "skip_validation": True,
        }
    text = conform_numbers(message_text(reply).strip(), [doc["content"] for doc in context])
    return {"messages": [_replacing_draft(messages, text)], "skip_validation": False}


async def validate(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    if state.get("skip_validation"):
        return {"validation_result": PASS}
    ctx = runtime.context
    retry_count = state.get("retry_count", 0)
    messages = state.get("messages", [])
    answer = message_text(messages[-1]) if messages else ""
    context = state.get("retrieved_context") or []
    values = _property_values(ctx)
    if not answer.strip():
        return validation_outcome(False, retry_count, "The answer was empty; answer the question.")
    texts = [doc["content"] for doc in context]
    grounding = check_grounding(
        answer,
        texts,
        venue_names=ctx.venue_names,
        trusted_facts=supplied_facts(ctx),
        # The clock supports "today is Tuesday", never an opening time ("the spa opens at
        # 6:41 AM" was the current time, copied).
        clock=state.get("current_time", ""),
    )
    if not grounding.grounded:
        logger.info("grounding check failed: %s %s", grounding.unsupported, grounding.misattributed)
        return validation_outcome(False, retry_count, grounding.feedback())
    if state.get("fact_answer") and answer == state["fact_answer"]:
        # Worked out from the items themselves: nothing for a reviewer model to add.
        return validation_outcome(True, retry_count)
    questions = human_texts(messages)
    question = questions[-1] if questions else ""
    if retry_count == 0 and (missed := _missed_venue(question, answer, context, ctx.venue_names)):
        # Asks for one rewrite, never the fallback: a right answer can word its subject
        # differently ("the pool" for "the Indoor Pool" is found, "the swimming area" is not).
        logger.info("answer misses the venue asked about: %s", missed)
        # The rewrite reads that venue's entry alone: shown the neighbours again, the model
        # took the next one's details ("charge your car at the Earth Tower").
        return {**validation_outcome(False, retry_count, missed), "retrieved_context": context[:1]}
    if (repaired := with_right_day_hours(answer, context)) != answer:
        # A sentence that gives a day the hours of another day is rewritten from the item's
        # own schedule for that day; the rest of the answer stands.
        logger.info("answer gave another day's hours, sentence rewritten")
        return {
            "validation_result": PASS,
            "retry_feedback": None,
            "messages": [AIMessage(content=repaired, id=messages[-1].id)],
        }
    if conflicts := day_hours_conflicts(answer, texts):
        # The day's hours were worked out in code and the model, shown them, still says the
        # opposite (a retry repeats it): the worked-out sentence is the answer.
        logger.info("answer contradicts the day's hours, corrected: %s", conflicts)
        corrected = _canned("DAY_HOURS_ANSWER", state, {**values, "hours": " ".join(conflicts)})
        return {
            "validation_result": PASS,
            "retry_feedback": None,
            "messages": [AIMessage(content=corrected, id=messages[-1].id)],
        }
    if not ctx.validate_with_llm:
        return validation_outcome(True, retry_count)
    prompt = render(
        prompts.VALIDATION_PROMPT,
        user_question=question,
        retrieved_context=format_context(context),
        generated_response=answer,
    )
    try:
        reviewer = structured_verdict(ctx.llm, ValidationResult, VERDICT_TOKENS)
        verdict = await reviewer.ainvoke(prompt)
        if not isinstance(verdict, ValidationResult):
            verdict = ValidationResult.model_validate(verdict)
    except Exception as exc:  # noqa: BLE001 - handled by the fail-open/fail-closed rule
        logger.warning("validator failed: %s", exc)
        return validator_error_outcome(retry_count, str(exc))
    logger.debug("validator: %s %s", verdict.status, verdict.reason)
    return validation_outcome(verdict.status == PASS, retry_count, verdict.reason)


def with_right_day_hours(answer: str, context: list[dict[str, Any]]) -> str:
    """`answer` with each sentence that states one day's hours from another day replaced by
    the item's own sentence for that day (knowledge/schedule.py)."""
    items = [(doc["metadata"].get("item_name", ""), doc["content"]) for doc in context]
    for sentence in answer_sentences(answer):
        if right := wrong_day_hours(sentence, items):
            answer = answer.replace(sentence, right, 1)
    return answer


def _missed_venue(
    question: str, answer: str, context: list[dict[str, Any]], venue_names: list[str]
) -> str | None:
    """Feedback when the question asks about the top-ranked item, a venue, by a word of its
    name ("pool hours?" and the Indoor Pool) and the answer never mentions it."""
    if not context:
        return None
    item = context[0]["metadata"].get("item_name", "")
    if item not in venue_names:
        # Policies and FAQ entries ("Main phone number") are answered without being named.
        return None
    return missed_subject(
        question, answer, item, context[0]["content"], name_it=asks_whether_exists(question)
    )


def respond(state: ConciergeState) -> dict[str, Any]:
    messages = state.get("messages", [])
    answer = message_text(messages[-1]) if messages else ""
    fact_items = list(state.get("fact_items") or [])
    if state.get("fact_answer") and answer == state["fact_answer"] and not fact_items:
        # Worked out from no item ("there is no bowling alley"): the first retrieved item, a
        # spa, was no source of it.
        used: list[str] = []
    else:
        used = items_used(answer, state.get("retrieved_context") or [], fact_items)
    return {"sources_used": used, "last_answer_items": used, "retry_feedback": None}


def fallback(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    logger.info("validation failed after retry: %s", state.get("retry_feedback"))
    text = _canned("FALLBACK", state, _property_values(runtime.context))
    return {
        "messages": [_replacing_draft(state.get("messages", []), text)],
        "sources_used": [],
        "retry_feedback": None,
    }


def greeting(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    return _reply(_canned("GREETING", state, _property_values(runtime.context)))


def off_topic(state: ConciergeState, runtime: Runtime[ConciergeContext]) -> dict[str, Any]:
    values = _property_values(runtime.context)
    if state.get("route_method") == "turn_limit":
        name = "TURN_LIMIT"
    elif state.get("query_type") == "gambling_advice":
        name = "GAMBLING_ADVICE"
    elif state.get("query_type") == "action_request":
        name = "ACTION_REQUEST"
    else:
        name = "OFF_TOPIC"
    return _reply(_canned(name, state, values))


# -- routing functions (pure) -----------------------------------------------------------------


def _is_unsure_follow_up(text: str, label: str, confidence: float) -> bool:
    """A short message the classifier could not place alone: unsure of it, or it points back
    at what was asked before ("how big is it tho")."""
    if label not in CONTEXT_DEPENDENT or not is_follow_up(text):
        return False
    return confidence < FOLLOW_UP_MIN_CONFIDENCE or refers_back(text)


def route_from_router(state: ConciergeState) -> str:
    query_type = state.get("query_type")
    if query_type == "greeting":
        return GREETING
    if query_type in REDIRECTED:
        return OFF_TOPIC
    # A reroute decided on what the message says, whatever the classifier's confidence.
    if state.get("route_method") != "reroute" and (
        state.get("router_confidence", 0.0) < MIN_ROUTE_CONFIDENCE
    ):
        return OFF_TOPIC
    return RETRIEVE


def route_after_validate(state: ConciergeState) -> str:
    result = state.get("validation_result")
    if result == PASS:
        return RESPOND
    if result == RETRY:
        return GENERATE
    if result == FAIL:
        return FALLBACK
    raise ValueError(f"unexpected validation_result {result!r}")


async def llm_route(llm, text: str) -> tuple[str, float]:
    """The LLM router: structured output constrained to the seven categories."""
    result = await structured_verdict(llm, RouterOutput, VERDICT_TOKENS).ainvoke(
        render(prompts.ROUTER_PROMPT, user_message=text)
    )
    if not isinstance(result, RouterOutput):
        result = RouterOutput.model_validate(result)
    return result.query_type, result.confidence
