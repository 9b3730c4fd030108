"""The technical agent's turn: Polish sources once, the conversation kept, no rejected draft
shown to the customer."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage

from frontdesk.assistants.telecom import technical
from frontdesk.assistants.telecom.technical import earlier_questions, technical_query


def _hit(title: str, section: str) -> dict:
    meta = {"title": title, "section_path": section, "path": "docs/11_pl.md", "version": "2.1"}
    return {"content": "x", "metadata": meta}


def test_polish_sources_are_listed_once_and_each_title_once():
    hits = [_hit("Problemy z internetem", "Problemy z internetem > Brak internetu")] * 2
    drafts = [
        "Zrestartuj Fibre Box.\n\nŹródło: Problemy z internetem — Brak internetu",
        "Zrestartuj Fibre Box.\n\n### Źródła\n- Problemy z internetem",
        "Zrestartuj Fibre Box.\n[SOURCE] Problemy z internetem — Brak internetu — 11_pl.md",
    ]
    for draft in drafts:
        text = technical.with_sources(draft, hits, "pl")
        assert text == (
            "Zrestartuj Fibre Box.\n\nŹródła:\n- Problemy z internetem — Brak internetu — "
            "11_pl.md (2.1)"
        ), draft


async def test_stream_and_history_carry_sources_once_in_polish(telecom):
    service, _ = telecom(["Odczekaj dwie minuty.\n\nŹródło: LED guide", "Sprawdź kabel.\nŹródła"])
    events = [e async for e in service.stream("PON LED blinking red, co robić?", "pl1")]
    shown = [e.data["content"] for e in events if e.event in ("token", "replace")]
    assert shown[-1].count("Źródła:") == 1 and "Źródło:" not in shown[-1]
    answer = await service.ask("A co z diodą LOS?", "pl1")
    assert answer.answer.count("Źródła:") == 1


def test_a_long_clarification_is_searched_with_the_problem_it_clarifies():
    problem = "My PON LED is blinking red since this morning."
    clarification = (
        "I am on the fibre plan with the white box in the living room, I already unplugged "
        "everything for half a minute twice and checked that the green connectors click."
    )
    messages = [
        HumanMessage(problem),
        AIMessage("Which box do you have?"),
        HumanMessage(clarification),
    ]
    query = technical_query(messages)
    assert query.startswith(problem) and query.endswith(clarification)
    assert "Which box" not in query  # the customer's words, not the replies


def test_the_conversation_is_condensed_to_fit():
    long = "word " * 200
    messages = [HumanMessage(f"{i}: {long}") for i in range(6)] + [HumanMessage("last one")]
    earlier = earlier_questions(messages)
    assert sum(len(text) for text in earlier) <= technical.EARLIER_CHARS
    assert all(len(text) <= technical.EARLIER_MESSAGE_CHARS for text in earlier)
    assert earlier and earlier[-1].startswith("5:")  # the newest kept first
    assert technical_query(messages).endswith("last one")


async def test_the_answer_prompt_holds_the_earlier_problem(telecom):
    service, llm = telecom(["Ask.", "Wait two minutes, then report it."])
    await service.ask("PON LED blinking red", "c1")
    await service.ask(
        "It is the fibre box in the hall, I restarted it twice already and the cable looks "
        "fine, nothing changed after waiting a few minutes either.",
        "c1",
    )
    prompt = llm.calls[-1][-1].content
    assert "EARLIER IN THIS CONVERSATION" in prompt and "- PON LED blinking red" in prompt
    assert "Ask." not in prompt  # not the earlier reply
    assert prompt.rstrip().endswith("nothing changed after waiting a few minutes either.")


async def test_a_rejected_draft_never_reaches_the_customer(telecom):
    # The draft states a band the manual does not have: the manual's own sentences replace it,
    # and the model is not asked again.
    service, llm = telecom(["The 3 GHz band is fast.", "The 5 GHz band is fast."])
    events = [e async for e in service.stream("which wifi band is fast", "r1")]
    # What the client showed: tokens append, a replace starts over.
    shown, display = [], ""
    for event in events:
        if event.event in ("token", "replace"):
            display = (
                display + event.data["content"] if event.event == "token" else event.data["content"]
            )
            shown.append(display)
    assert len(llm.calls) == 1
    assert shown and not any("3 GHz" in text for text in shown)
    assert shown[-1].startswith("Here is what the knowledge base says about this:")
    state = await service.graph.aget_state(service.config("r1"))
    replies = [m.content for m in state.values["messages"] if isinstance(m, AIMessage)]
    assert len(replies) == 1 and replies[0] == shown[-1]
    assert "3 GHz" not in replies[0] and "GHz" in replies[0]


async def test_a_polish_question_reads_the_english_manual_through_its_rendering(telecom):
    # Hash embeddings know no language: the rendering's words choose the part shown.
    los = "no optical signal: check the fibre cable"
    pon = "registering with the fibre network"
    for rendering, shown, hidden in (
        ("red optical signal cable", los, pon),
        ("blinking registering wait minutes", pon, los),
    ):
        service, llm = telecom(["Sprawdź."])
        service.context.retriever.translate = lambda question, text=rendering: text
        service.context.max_context_chars = 120  # room for one part
        await service.ask("Dioda, co to znaczy?", "pl1")
        prompt = llm.calls[-1][-1].content
        assert shown in prompt and hidden not in prompt


async def test_a_model_that_fails_leaves_the_manuals_sentences_not_an_apology(telecom):
    from frontdesk.llm.scripted import ScriptedChatModel

    class Failing(ScriptedChatModel):
        async def _agenerate(self, *args, **kwargs):
            raise TimeoutError("the embedded model did not finish within the time limit")

    service, _ = telecom(llm=Failing(script=[]))
    answer = await service.ask("which channel should the wifi use?", "t1")
    assert answer.answer.startswith("Here is what the knowledge base says about this:")
    assert "channel 1, 6 or 11" in answer.answer and "Sources:" in answer.answer


def _conversation(*texts: str) -> list:
    messages = []
    for text in texts:
        messages += [HumanMessage(text), AIMessage("Here is what the manual says.")]
    return messages[:-1]


def test_a_new_problem_is_searched_alone_and_a_continuation_with_what_came_before():
    voicemail = "How do I set up voicemail?"
    for new in ("my internet is really slow tonight", "Dlaczego router miga na czerwono?"):
        messages = _conversation(voicemail, new)
        assert technical.asks_about_something_new(messages), new
        assert technical_query(messages) == new
    for going_on in (
        "is it the cable?",  # points back
        "still slow after the voicemail setup",  # names the same subject
        "I already restarted the router",  # says what was tried
        "nadal nie działa, router zrestartowany",
        "no, I meant the router",  # corrects
        "thanks, what else?",  # names no subject of its own
    ):
        messages = _conversation(voicemail, going_on)
        assert not technical.asks_about_something_new(messages), going_on
        assert technical_query(messages) == f"{voicemail} {going_on}"


async def test_a_new_problems_prompt_holds_no_earlier_problem(telecom):
    service, llm = telecom(["Dial 123.", "Restart the router."])
    await service.ask("How do I set up voicemail?", "n1")
    await service.ask("my internet keeps dropping every evening", "n1")
    prompt = llm.calls[-1][-1].content
    assert "EARLIER IN THIS CONVERSATION" not in prompt and "voicemail" not in prompt


async def test_an_answer_still_being_written_when_the_turn_ends_is_kept_not_out_of_time(telecom):
    from frontdesk.llm.scripted import ScriptedChatModel
    from frontdesk.llm.turn_clock import turn_clock_scope

    # A busy machine: the model writes slower than the turn's running time allows.
    slow = ScriptedChatModel(["Use channel 1, 6 or 11 on 2.4 GHz. " * 30], token_delay_s=0.05)
    service, _ = telecom(llm=slow)
    with turn_clock_scope(2.0):
        answer = await service.ask("which channel should the wifi use?", "slow1")
    assert not answer.extra.get("out_of_time")
    assert answer.answer.startswith("Use channel 1, 6 or 11 on 2.4 GHz.")
    assert "Sources:" in answer.answer
