"""Concierge nodes and their helpers, called directly: the router node (guardrail, intent
router, the thread's context for short follow-ups) and the conversation a (re)generation sees."""

from types import SimpleNamespace

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from frontdesk.assistants.concierge import nodes
from frontdesk.routing.router import RouteDecision


class FakeRouter:
    embeddings = None  # no embeddings: the injection guard runs its rules alone

    def __init__(self, decisions: dict[str, RouteDecision]):
        self.decisions = decisions
        self.seen: list[str] = []

    async def route(self, text: str) -> RouteDecision:
        self.seen.append(text)
        return self.decisions[text]


def runtime_with(router: FakeRouter):
    # English only: these tests are about routing a follow-up, not about its language.
    context = SimpleNamespace(
        router=router,
        max_messages=40,
        language_of=lambda text, previous=None: "en",
        reading=lambda text: text,
    )
    return SimpleNamespace(context=context)


def thread(*texts: str) -> dict:
    messages = []
    for text in texts[:-1]:
        messages += [HumanMessage(content=text), AIMessage(content="(answer)")]
    return {"messages": [*messages, HumanMessage(content=texts[-1])]}


FIRST = "do you have a kids club?"
FOLLOW_UP = "how much per hour?"


async def test_an_unsure_short_follow_up_is_routed_with_the_previous_question():
    router = FakeRouter({
        FOLLOW_UP: RouteDecision("off_topic", 0.33, "classifier"),
        f"{FIRST} {FOLLOW_UP}": RouteDecision("property_qa", 0.87, "classifier"),
    })
    update = await nodes.router(thread(FIRST, FOLLOW_UP), runtime_with(router))
    assert update["query_type"] == "property_qa" and update["router_confidence"] == 0.87
    assert router.seen == [FOLLOW_UP, f"{FIRST} {FOLLOW_UP}"]


@pytest.mark.parametrize(
    "alone, reason",
    [
        (RouteDecision("off_topic", 0.9, "classifier"), "confidently off topic"),
        (RouteDecision("gambling_advice", 0.4, "classifier"), "refusing advice is the safe side"),
        (RouteDecision("action_request", 0.4, "classifier"), "refusing actions is the safe side"),
        (RouteDecision("property_qa", 0.4, "classifier"), "already answered from the knowledge"),
    ],
)
async def test_other_decisions_stand_without_the_context(alone, reason):
    router = FakeRouter({FOLLOW_UP: alone})
    update = await nodes.router(thread(FIRST, FOLLOW_UP), runtime_with(router))
    assert update["query_type"] == alone.label, reason
    assert router.seen == [FOLLOW_UP]


async def test_context_that_does_not_make_it_a_property_question_changes_nothing():
    router = FakeRouter({
        FOLLOW_UP: RouteDecision("off_topic", 0.33, "classifier"),
        f"{FIRST} {FOLLOW_UP}": RouteDecision("ambiguous", 0.5, "classifier"),
    })
    update = await nodes.router(thread(FIRST, FOLLOW_UP), runtime_with(router))
    assert update["query_type"] == "off_topic"


async def test_long_messages_and_first_messages_are_routed_alone():
    long_text = "please write me a long python script that sorts a list"
    router = FakeRouter({long_text: RouteDecision("off_topic", 0.4, "classifier"),
                         FOLLOW_UP: RouteDecision("off_topic", 0.33, "classifier")})
    await nodes.router(thread(FIRST, long_text), runtime_with(router))
    await nodes.router(thread(FOLLOW_UP), runtime_with(router))
    assert router.seen == [long_text, FOLLOW_UP]


def test_a_retry_answers_the_question_not_the_rejected_answer():
    question, rejected = HumanMessage(content="pool hours?"), AIMessage(content="(rejected)")
    earlier = [HumanMessage(content="hi"), AIMessage(content="Welcome!")]
    history = nodes.conversation_for_answer([*earlier, question, rejected], limit=12)
    assert history == [*earlier, question], "the conversation ends with the guest's question"
    assert nodes.conversation_for_answer([*earlier, question], limit=2) == [earlier[1], question]


def test_a_sentence_with_another_days_hours_is_rewritten_and_the_rest_kept():
    # Seen in the UI: "tell me about the lansdowne" got Saturday with the weeknights' close.
    pub = {"metadata": {"item_name": "The Lansdowne Irish Pub & Music House"},
           "content": "The Lansdowne Irish Pub & Music House: Irish pub cuisine. Hours: Sun-Thu "
                      "11:30 AM-12:00 AM; Fri-Sat 11:30 AM-2:00 AM. Phone: 860-862-7900."}
    answer = ("The Lansdowne is an Irish pub in the Casino of the Sky. It is open from 11:30 AM "
              "to 12:00 AM on Saturday. Call 860-862-7900.")
    assert nodes.with_right_day_hours(answer, [pub]) == (
        "The Lansdowne is an Irish pub in the Casino of the Sky. On Saturday, The Lansdowne "
        "Irish Pub & Music House is open 11:30 AM-2:00 AM. Call 860-862-7900.")
    right = answer.replace("12:00 AM on Saturday", "2:00 AM on Saturday")
    assert nodes.with_right_day_hours(right, [pub]) == right
