"""A conversation handed to a person: the handoff reply shows as any reply, and a person's
answer shows, labelled, after the next turn or when the page is reloaded (no live push)."""

from __future__ import annotations

import json

from frontdesk.assistants.base import ChatEvent

from .conftest import (
    CHATS_KEY,
    LiveServer,
    assistant_messages,
    expect,
    open_page,
    send,
    wait_for_answer,
)
from .scripted import ROUTER_A, ROUTER_Q, ScriptedTelecom

THREAD = "5e1f5a2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f"
HANDOFF_Q = "I want to talk to a person"
HANDOFF_A = "You are being transferred to a person: ticket #7. A person will answer here."
PERSON_A = "Hi, Alice from support here: I reset your line."


class HandoffTelecom(ScriptedTelecom):
    """The scripted telecom assistant, which hands a conversation to a person when asked."""

    async def answer(self, message, thread_id, user_id):
        if message != HANDOFF_Q:
            async for event in super().answer(message, thread_id, user_id):
                yield event
            return
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("replace", {"content": HANDOFF_A})
        sources = {"sources": [], "used_tools": [], "route": "handoff", "ticket_id": 7}
        yield ChatEvent("sources", sources)
        yield ChatEvent("done", {"done": True})


def test_a_persons_answer_shows_labelled_after_a_reload(browser, problems):
    with LiveServer(HandoffTelecom()) as server:
        handed_over(open_page(browser, server, problems))  # the only assistant


def handed_over(page) -> None:
    try:
        # This page's conversation is THREAD, so the test can answer for the server.
        chats = {"telecom": {"threadId": THREAD, "messages": []}}
        page.evaluate(f"() => localStorage.setItem('{CHATS_KEY}', {json.dumps(json.dumps(chats))})")
        page.reload()
        expect(page.locator("#status")).to_have_attribute("data-state", "online")
        transcript = page.accounts.transcripts[("telecom", THREAD)] = []

        lookups = lambda: page.accounts.sent(f"/conversations/telecom/{THREAD}")
        send(page, ROUTER_Q)
        wait_for_answer(page, ROUTER_A)
        transcript += [
            {"role": "user", "content": ROUTER_Q},
            {"role": "assistant", "content": ROUTER_A},
        ]
        page.wait_for_timeout(300)
        assert lookups() == []  # a conversation that was never handed over is not looked up
        send(page, HANDOFF_Q)
        wait_for_answer(page, HANDOFF_A)
        transcript += [
            {"role": "user", "content": HANDOFF_Q},
            {"role": "assistant", "content": HANDOFF_A},
        ]
        for _ in range(50):  # once it was, it is looked up after each turn
            if lookups():
                break
            page.wait_for_timeout(100)
        assert len(lookups()) == 1
        expect(assistant_messages(page)).to_have_count(2)  # nothing new from a person yet

        transcript.append(
            {"role": "assistant", "content": PERSON_A, "from": "person", "author": "Alice"}
        )
        page.reload()
        expect(page.locator("#status")).to_have_attribute("data-state", "online")
        person = page.locator('#messages li[data-from="person"]')
        expect(person.locator(".bubble-text")).to_have_text(PERSON_A)
        expect(person.locator(".message-author")).to_have_text("Agent (person)")
        expect(assistant_messages(page)).to_have_count(3)
        # The bot's actions (regenerate, thumbs) are not offered on a person's answer.
        expect(person.locator(".message-actions")).to_have_count(0)
        expect(page.locator("#messages .message-author")).to_have_count(1)
        # The label survives the next reload (kept in the page's own copy).
        page.reload()
        expect(page.locator('#messages li[data-from="person"] .message-author')).to_have_count(1)
    finally:
        page.context.close()
