"""What a turn leaves in the conversation, and what the clock may and may not support."""

import uuid
from datetime import datetime
from zoneinfo import ZoneInfo

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.assistants.concierge.service import turn_input
from frontdesk.knowledge.glossary import Glossary

PASS_JSON = '{"status": "PASS", "reason": "grounded"}'
FAIL_JSON = '{"status": "FAIL", "reason": "not about the question"}'
CLOCK = datetime(2026, 11, 24, 6, 41, tzinfo=ZoneInfo("America/New_York"))


def tid() -> str:
    return str(uuid.uuid4())


async def history(service, thread):
    return (await service.graph.aget_state(service.config(thread))).values["messages"]


async def test_a_retried_draft_is_replaced_by_the_new_answer(concierge):
    service, _ = concierge(["Bobby's Burgers is casual.", FAIL_JSON, "Bobby's Burgers serves burgers.", PASS_JSON])
    thread = tid()
    answer = await service.ask("tell me about bobby's burgers", thread)
    assert answer.answer == "Bobby's Burgers serves burgers."
    messages = await history(service, thread)
    assert [m.type for m in messages] == ["human", "ai"]
    assert messages[-1].content == "Bobby's Burgers serves burgers."


async def test_the_fallback_replaces_both_rejected_drafts(concierge):
    service, llm = concierge(
        ["Bobby's Burgers closes at 2:00 AM.", "Bobby's Burgers closes at 3:00 AM.",
         "Tuscany Trattoria is Italian.", PASS_JSON]
    )
    thread = tid()
    answer = await service.ask("when does bobby's burgers close", thread)
    assert answer.validation == "FAIL" and "1-888-555-0100" in answer.answer
    messages = await history(service, thread)
    assert [m.type for m in messages] == ["human", "ai"]
    assert "2:00 AM" not in messages[-1].content and "3:00 AM" not in messages[-1].content
    # The next turn's model call never sees the rejected drafts as something it said.
    await service.ask("what about tuscany trattoria", thread)
    sent = " ".join(str(m.content) for m in llm.calls[-2])
    assert "2:00 AM" not in sent and "3:00 AM" not in sent
    assert [m.type for m in await history(service, thread)] == ["human", "ai", "human", "ai"]


def test_the_clock_supports_the_date_but_never_a_time():
    clock = "Tuesday, November 24, 2026, 6:41 AM EST"
    copied = check_grounding("The spa opens on Tuesday, November 24, 2026, 6:41 AM.",
                             ["Serenity Spa: Hours: Daily 9:00 AM-8:00 PM."], clock=clock)
    assert copied.unsupported == ["time 6:41am"]
    dated = check_grounding("Today is November 24; the spa opens at 9:00 AM.",
                            ["Serenity Spa: Hours: Daily 9:00 AM-8:00 PM."], clock=clock)
    assert dated.grounded


async def test_spa_hours_are_the_spas_not_the_clock(concierge):
    service, llm = concierge(["The spa opens on Tuesday, November 24, 2026, 6:41 AM EST.", FAIL_JSON],
                             with_items=True, clock=CLOCK)
    answer = await service.ask("When does the spa open?", tid())
    assert "Daily 9:00 AM-8:00 PM" in answer.answer and "6:41" not in answer.answer
    assert answer.sources == ["Serenity Spa"]
    assert llm.calls == []  # worked out from the item: no model call


async def test_without_the_facts_the_clock_copied_as_hours_is_rejected(concierge):
    service, _ = concierge(
        ["The spa opens at 6:41 AM.", "The spa opens at 6:41 AM."], clock=CLOCK, validate_with_llm=False
    )
    answer = await service.ask("When does the spa open?", tid())
    assert answer.validation == "FAIL" and "6:41" not in answer.answer


def test_the_turn_clock_is_injectable():
    turn = turn_input("hi", timezone="America/New_York", clock=CLOCK)
    assert turn["current_time"] == "Tuesday, November 24, 2026, 6:41 AM EST"
    assert turn["today"] == "2026-11-24"
    # A clock without a zone is read in the property's zone.
    naive = turn_input("hi", timezone="America/New_York", clock=datetime(2026, 12, 31, 23, 0))
    assert naive["today"] == "2026-12-31" and naive["current_time"].endswith("11:00 PM EST")


async def test_a_day_follow_up_answers_the_new_day_for_the_same_venue(concierge):
    service, _ = concierge(with_items=True, clock=CLOCK)
    thread = tid()
    first = await service.ask("when does bobby's burgers open on tuesday", thread)
    assert first.answer.startswith("On Tuesday, Bobby's Burgers is open")
    second = await service.ask("What about Saturday?", thread)
    assert second.answer.startswith("On Saturday, Bobby's Burgers is open")
    assert "Tuesday" not in second.answer


async def test_an_absent_thing_answered_from_no_item_names_no_source(concierge):
    service, _ = concierge(with_items=True, clock=CLOCK)
    events = [e async for e in service.stream("is there a bowling alley?", tid())]
    text = "".join(e.data["content"] for e in events if e.event in ("token", "replace"))
    assert text.endswith("does not have a bowling alley.")
    # The search still found items (the first of them was named as the source before).
    sources = next(e.data for e in events if e.event == "sources")
    assert sources == {"sources": [], "items": [], "documents": [], "claims": []}


SPANISH = "a que hora\twhat time\nabre*\topen\nlunes\tMonday\nel\t\nlos\t\ncuanto cuesta\thow much\n"


async def test_a_spanish_question_is_worked_out_in_the_guides_words_and_answered_in_spanish(
    concierge, tmp_path
):
    path = tmp_path / "glossary.tsv"
    path.write_text(SPANISH, encoding="utf-8")
    service, llm = concierge(with_items=True, clock=CLOCK, glossary=Glossary.load(path))
    thread = tid()
    answer = await service.ask("¿A que hora abre Bobby's Burgers el lunes?", thread)
    assert answer.answer.startswith("El lunes, Bobby's Burgers abre 11:00 AM-11:00 PM.")
    assert answer.sources == ["Bobby's Burgers"] and llm.calls == []
    # A claim per sentence, each tied to the item it states.
    assert answer.extra["claims"][0]["cites"] == [1]
    # A follow-up that shows no language keeps the conversation's.
    closed = await service.ask("ok, y Tuscany Trattoria?", thread)
    assert "cerrado" in closed.answer and "Tuscany Trattoria" in closed.answer
