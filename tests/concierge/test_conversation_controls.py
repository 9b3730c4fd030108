"""What the server's conversation routes need from a graph assistant: the transcript, answering
the last question again, and threads kept apart per assistant."""

from __future__ import annotations

import uuid

PASS_JSON = '{"status": "PASS", "reason": "grounded"}'
QUESTION = "when does bobby's burgers open"
FIRST = "Bobby's Burgers is open daily 11:00 AM-11:00 PM."
SECOND = "Bobby's Burgers opens at 11:00 AM and closes at 11:00 PM every day."


async def test_transcript_is_the_conversation_as_the_guest_saw_it(concierge):
    service, _ = concierge([FIRST, PASS_JSON])
    thread = str(uuid.uuid4())
    await service.ask("hello", thread)
    await service.ask(QUESTION, thread)

    transcript = await service.transcript(thread)

    assert [m["role"] for m in transcript] == ["user", "assistant", "user", "assistant"]
    assert transcript[2]["content"] == QUESTION
    assert transcript[3]["content"] == FIRST
    assert await service.transcript(str(uuid.uuid4())) == []


async def test_forgetting_the_last_turn_lets_it_be_answered_again(concierge):
    service, _ = concierge([FIRST, PASS_JSON, SECOND, PASS_JSON])
    thread = str(uuid.uuid4())
    await service.ask("hello", thread)
    await service.ask(QUESTION, thread)

    assert await service.forget_last_turn(thread)
    assert [m["role"] for m in await service.transcript(thread)] == ["user", "assistant"]
    again = await service.ask(QUESTION, thread)

    transcript = await service.transcript(thread)
    assert again.answer == SECOND
    assert [m["content"] for m in transcript][-1] == again.answer
    assert len(transcript) == 4  # the first answer was replaced, not kept beside the new one
    assert not await service.forget_last_turn(str(uuid.uuid4()))


def test_thread_ids_are_namespaced_per_assistant(concierge):
    service, _ = concierge()
    thread = str(uuid.uuid4())
    other = type(service)(
        "telecom",
        service.graph,
        service.context,
        info={},
        token_nodes=set(),
        turn_input=lambda m, u=None: {},
        answer_of=lambda s, t: None,
        sources_of=lambda s: {},
    )
    assert service.config(thread) != other.config(thread)
    assert thread in service.config(thread)["configurable"]["thread_id"]
