"""A concierge turn that runs out of time ends with the guide's facts and the resort's
contact details, built without the model, never with an error."""

from __future__ import annotations

from frontdesk.llm.turn_clock import turn_clock_scope

SLOW_REPLY = "Bobby's Burgers serves smashed burgers. " * 20  # 120 words


async def test_a_streamed_turn_out_of_time_ends_with_the_retrieved_facts(concierge):
    # 0.05 s a word: the answer would take 6 s; the turn may run 0.5 s.
    service, _ = concierge([SLOW_REPLY], token_delay_s=0.05)
    with turn_clock_scope(0.5):
        events = [e async for e in service.stream("Tell me about Bobby's Burgers", "t1")]
    names = [e.event for e in events]
    assert "error" not in names
    assert names[0] == "metadata" and names[-2:] == ["sources", "done"]
    replace = [e for e in events if e.event == "replace"][-1].data["content"]
    assert "Bobby's Burgers" in replace and "Daily 11:00 AM-11:00 PM" in replace
    assert "1-888-555-0100" in replace and "https://example.test" in replace
    assert events[-2].data["out_of_time"] is True


async def test_ask_out_of_time_answers_the_same_way(concierge):
    service, _ = concierge([SLOW_REPLY], token_delay_s=0.05)
    with turn_clock_scope(0.5):
        answer = await service.ask("When is Bobby's Burgers open?", "t2")
    assert answer.extra["out_of_time"] is True
    assert "Daily 11:00 AM-11:00 PM" in answer.answer and "1-888-555-0100" in answer.answer


async def test_a_turn_within_its_time_is_unchanged(concierge):
    service, _ = concierge(
        ["Bobby's Burgers is open daily from 11:00 AM to 11:00 PM.", '{"status": "PASS"}'],
        validate_with_llm=False,
    )
    with turn_clock_scope(30):
        events = [e async for e in service.stream("When is Bobby's Burgers open?", "t3")]
    assert "out_of_time" not in events[-2].data
    assert "".join(e.data["content"] for e in events if e.event == "token").startswith(
        "Bobby's Burgers is open"
    )


async def test_the_out_of_time_answer_quotes_sentences_each_cited_never_raw_records(concierge):
    service, _ = concierge([SLOW_REPLY], token_delay_s=0.05)
    with turn_clock_scope(0.5):
        events = [e async for e in service.stream("When is Bobby's Burgers open?", "t4")]
    replace = [e for e in events if e.event == "replace"][-1].data["content"]
    assert "many guests" not in replace
    assert not any(label in replace for label in ("Question:", "Topic:", "Type:"))
    sources = events[-2].data
    assert sources["sources"] == ["Bobby's Burgers"]
    quoted = [c for c in sources["claims"] if "11:00 AM-11:00 PM" in c["text"]]
    assert quoted and all(c["cites"] == [1] for c in quoted)
