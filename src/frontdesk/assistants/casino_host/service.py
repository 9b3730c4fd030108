"""The casino host as an `AssistantService`: storage around the graph.

A turn: the guest and conversation are found or created and the message stored (redacted)
before anything answers; a conversation a person has (the 30-minute pause) gets the holding
reply with no model; otherwise the graph answers, and the profile, offer, escalation, audit and
reply are written, keyed by the message. `scope` is the casino, `user_id` the guest's number;
the conversation's thread is the storage's (X2: casino:guest:session), whatever thread id the
caller uses.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph.state import CompiledStateGraph

from frontdesk.agentkit.service import DURABILITY
from frontdesk.agentkit.streaming import last_ai_text, running_time_limit
from frontdesk.assistants.base import Answer, ChatEvent, UnknownScope
from frontdesk.assistants.casino_host.channel.port import HostReply, HostUnavailable
from frontdesk.assistants.casino_host.channel.simulator import SIMULATED_NOW
from frontdesk.assistants.casino_host.compliance import check, scan_pii
from frontdesk.assistants.casino_host.consent.records import (
    CONSENT_SPEAKER,
    DeliveryClaim,
    KeywordSettle,
    receive,
)
from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.conversation.cited import cited_sources
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext, HostServices
from frontdesk.assistants.casino_host.conversation.escalation import alert_lines, with_line
from frontdesk.assistants.casino_host.conversation.graph import RECURSION_LIMIT
from frontdesk.assistants.casino_host.conversation.nodes.common import casino_values
from frontdesk.assistants.casino_host.conversation.routing import FALLBACK
from frontdesk.assistants.casino_host.conversation.state import turn_state
from frontdesk.assistants.casino_host.records.turns import (
    Intake,
    Written,
    clean_message,
    write_holding,
    write_turn,
)
from frontdesk.assistants.casino_host.sms import split_sms
from frontdesk.assistants.casino_host.sms.disclosure import discloses_ai, with_ai_disclosure
from frontdesk.assistants.casino_host.storage import (
    Escalation,
    StorageError,
    StorageUnavailable,
    Store,
)
from frontdesk.assistants.casino_host.storage.phone import guest_number
from frontdesk.errors import FrontdeskError

if TYPE_CHECKING:
    from frontdesk.assistants.casino_host.channel.gateway import SmsGateway
    from frontdesk.assistants.casino_host.staff.desk import StaffDesk

logger = logging.getLogger(__name__)

NAME = "casino_host"
HOLDING_SPEAKER = "holding"


def conversation_guest(thread_id: str) -> str:
    """The made-up number of a conversation nobody signed in to: its own guest (+1 555
    XXX XXXX, an area code no phone has), so two anonymous web visitors never share a profile,
    a pause or a language."""
    digits = int(hashlib.sha256(thread_id.encode("utf-8")).hexdigest(), 16) % 10_000_000
    return f"+1555{digits:07d}"


@dataclass(frozen=True)
class Turn:
    """One guest message answered: the reply's text and its SMS, who answered, the graph's
    state (or the part of it a reply without the graph has), and what the turn read and
    wrote."""

    thread_id: str
    intake: Intake
    state: dict[str, Any]
    text: str
    sms: list[str]
    speaker: str
    written: Written | None


class CasinoHostService:
    """The casino host: the chat API's `AssistantService`, and the SMS channel's `HostTurn`."""

    def __init__(
        self,
        graph: CompiledStateGraph,
        services: HostServices,
        store: Store,
        *,
        resources: AsyncExitStack | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ):
        self.name = NAME
        self.graph = graph
        self.services = services
        self.store = store
        self._resources = resources
        self.clock = clock  # the casino clock a turn runs at (tests set it)
        self.sms: SmsGateway | None = None  # the SMS channel, set by the build
        self.staff: StaffDesk | None = None  # who is told of escalations, set by the build
        self._closed = False

    # -- AssistantService ---------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        return not self._closed

    def info(self) -> dict[str, Any]:
        content = self.services.content
        casinos = [content.catalog(cid) for cid in content.casino_ids]
        return {
            "assistant": NAME,
            "name": "Casino host",
            "location": None,
            "categories": ["dining", "entertainment", "comp", "host"],
            "document_count": sum(len(c.all_items()) for c in casinos),
            "item_count": sum(len(c.all_items()) for c in casinos),
            "takes_user_id": True,
            "scopes": [{"id": c.casino_id, "name": c.casino.name} for c in casinos],
            "default_scope": self.services.settings.default_casino,
        }

    def check_scope(self, scope: str) -> None:
        if scope not in self.services.content.casino_ids:
            known = ", ".join(self.services.content.casino_ids)
            raise UnknownScope(f"no casino {scope!r}; the casinos are: {known}")

    def config(self, thread_id: str) -> dict[str, Any]:
        return {
            "configurable": {"thread_id": f"{NAME}:{thread_id}", "assistant": NAME},
            "recursion_limit": RECURSION_LIMIT,
        }

    async def stream(
        self, message: str, thread_id: str, *, user_id: str | None = None, scope: str | None = None
    ) -> AsyncIterator[ChatEvent]:
        if scope is not None:
            self.check_scope(scope)
        yield ChatEvent("metadata", {"thread_id": thread_id})
        try:
            answer = await self.ask(message, thread_id, user_id=user_id, scope=scope)
        except FrontdeskError as exc:
            yield ChatEvent("error", {"error": str(exc)})
            yield ChatEvent("done", {"done": True})
            return
        except Exception:
            logger.exception("casino host turn failed")
            yield ChatEvent("error", {"error": "the host could not answer; please send it again"})
            yield ChatEvent("done", {"done": True})
            return
        yield ChatEvent("replace", {"content": answer.answer})
        yield ChatEvent("sources", {**answer.extra, "sources": answer.sources})
        yield ChatEvent("done", {"done": True})

    async def ask(
        self,
        message: str,
        thread_id: str,
        *,
        user_id: str | None = None,
        scope: str | None = None,
    ) -> Answer:
        """One guest message from the chat API, the CLI or the web UI, answered."""
        return self._as_answer(await self._turn(message, thread_id, user_id=user_id, scope=scope))

    # -- HostTurn: the SMS channel's port --------------------------------------------------

    async def answer_sms(
        self,
        casino_id: str,
        sender: str,
        text: str,
        *,
        delivery_id: str,
        settle_keyword: KeywordSettle,
        claim: DeliveryClaim | None,
    ) -> HostReply:
        turn = await self._turn(text, f"sms:{casino_id}", user_id=sender, scope=casino_id,
                                delivery_id=delivery_id, settle_keyword=settle_keyword,
                                claim=claim,
                                time_limit_s=self.services.settings.sms_turn_timeout_s)  # fmt: skip
        return HostReply(tuple(turn.sms), turn.speaker, turn.intake.guest_uuid)

    def fallback_sms(self, casino_id: str) -> tuple[str, ...]:
        casino = self.services.content.catalog(casino_id).casino
        text = prompts.say(prompts.FALLBACK, "en", casino=casino.name, phone=casino.phone)
        return tuple(split_sms(text, max_parts=2))

    def now(self) -> datetime:
        return self.clock()

    # -- the turn ---------------------------------------------------------------------------

    async def _turn(
        self,
        message: str,
        thread_id: str,
        *,
        user_id: str | None = None,
        scope: str | None = None,
        delivery_id: str | None = None,
        settle_keyword: KeywordSettle | None = None,
        claim: DeliveryClaim | None = None,
        time_limit_s: float | None = None,
    ) -> Turn:
        """One guest message, answered. `delivery_id`: the channel's id of this message (an SMS
        provider's message id), so that a second delivery of it is stored and answered once;
        a chat message gets a new one. `settle_keyword`: the channel's writes for a keyword's
        reply, run in the keyword's own transaction (`consent.records.receive`). `claim`: the
        channel's claim on this delivery, taken in the intake's transaction (DuplicateDelivery
        when another delivery has it). `time_limit_s`: the graph's own limit (an SMS turn's);
        None: the server's clock for the turn, if it times one."""
        message = clean_message(message)
        casino_id = scope or self.services.settings.default_casino
        self.check_scope(casino_id)
        phone = guest_number(user_id) if user_id else conversation_guest(thread_id)
        catalog = self.services.content.catalog(casino_id)
        # The phone simulator may set the clock for one message (quiet hours by day).
        now = catalog.local(SIMULATED_NOW.get() or self.clock())
        delivery_id = delivery_id or f"chat:{uuid.uuid4()}"
        intake, consent = await self._storage(receive, self.store, casino_id, catalog.casino,
                                              phone, message, delivery_id, now,
                                              settle=settle_keyword, claim=claim)  # fmt: skip
        if intake.answered is not None:  # a second delivery of an answered message
            return self._answered(thread_id, intake)
        if consent is not None:  # a compliance keyword, answered without the model
            state = {"language": consent.language, "speaker": CONSENT_SPEAKER}
            written = Written(None, None, 0, consent.profile)
            return Turn(thread_id, intake, state, consent.text, consent.sms, CONSENT_SPEAKER,
                        written)  # fmt: skip
        # During a person's pause the bot holds, except that a safety or blocked message
        # still gets the gate's reply (a crisis is never answered "a host will text you").
        if intake.pause is not None and not check(message).ends_turn:
            return await self._hold(message, intake, thread_id, now)
        context = CasinoHostContext(
            services=self.services,
            catalog=catalog,
            profile=intake.profile,
            offers=intake.offers,
            now=now,
            opening=intake.opening,
            previous_agent=intake.previous_agent,
        )
        state = await self._run_graph(message, intake, context, now, time_limit_s)
        text = last_ai_text(state.get("messages") or [])
        sms = list(state.get("sms_segments") or []) or split_sms(text, max_parts=2)
        if intake.opening != "continued" and not discloses_ai(text):
            # Item 14, T17: the first SMS of a session says an AI is texting. The envelope
            # tags agent replies as it shapes them; the greeting, the redirect, the fallback
            # and the gate's replies end the graph without it, and are tagged here.
            text = with_ai_disclosure(text, state.get("language") or "en")
            sms = split_sms(text, max_parts=max(2, len(sms)))
        speaker = state.get("speaker") or FALLBACK
        lines = alert_lines(state, catalog.casino) if state.get("escalation_request") else None
        said = (text, sms)
        if lines is not None:  # recorded as if no one was alerted, until someone accepts
            text, sms = with_line(*said, lines[0])
        written = await self._storage(write_turn, self.store, intake, state, message, text,
                                      sms, speaker, now)  # fmt: skip
        escalation = written.escalation
        if lines is not None and escalation is not None and await self._alert(escalation, now):
            text, sms = with_line(*said, lines[1])
            await self._storage(self.store.revise_reply, casino_id, written.reply_id, text,
                                sms_parts=len(sms))  # fmt: skip
        return Turn(thread_id, intake, state, text, sms, speaker, written)

    async def _alert(self, escalation: Escalation, now: datetime) -> bool:
        """Tell the staff of a new escalation: True only when someone accepted the alert. A
        failure keeps the escalation for the sweep to tell again."""
        if self.staff is None:
            return False
        try:
            return await self.staff.alert_new(escalation, now)
        except Exception:
            logger.exception("alerting the staff failed; the sweep tries again")
            return False

    async def person_said(self, casino_id: str, thread_id: str, text: str) -> None:
        """A staff member's SMS, added to the conversation's memory (the model reads it)."""
        await self.graph.aupdate_state(self.config(thread_id), {"messages": [AIMessage(
            content=text, name="person")]})  # fmt: skip

    async def aclose(self) -> None:
        if not self._closed and self._resources is not None:
            await self._resources.aclose()
        self._closed = True

    async def _storage(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return await asyncio.to_thread(fn, *args, **kwargs)
        except StorageUnavailable as exc:
            logger.error("casino host storage unavailable: %s", type(exc).__name__)
            raise HostUnavailable(
                "the casino host's database is not reachable; nothing was recorded, send the "
                "message again shortly"
            ) from None
        except StorageError as exc:
            raise FrontdeskError(str(exc)) from None

    async def _run_graph(self, message: str, intake: Intake, context: CasinoHostContext,
                         now: datetime, time_limit_s: float | None) -> dict[str, Any]:  # fmt: skip
        inputs = turn_state(
            message,
            now=now,
            casino_id=intake.casino_id,
            guest_uuid=intake.guest_uuid,
            language=context.view.language or "en",
        )
        config = self.config(intake.thread_id)
        try:
            limit = asyncio.timeout(time_limit_s) if time_limit_s else running_time_limit()
            async with limit:
                return await self.graph.ainvoke(
                    inputs, config, context=context, durability=DURABILITY
                )
        except TimeoutError:
            # Out of time: the static fallback, never an error (the guest can ask again).
            logger.warning("casino host turn out of time: the fallback answers")
            text = prompts.say(prompts.FALLBACK, inputs["language"], **casino_values(context))
            return {**inputs, "messages": [AIMessage(content=text)], "speaker": FALLBACK}

    def _answered(self, thread_id: str, intake: Intake) -> Turn:
        reply = intake.answered
        assert reply is not None
        state = {"speaker": reply.agent, "language": None}
        return Turn(thread_id, intake, state, reply.text, split_sms(reply.text, max_parts=2),
                    reply.agent or FALLBACK, None)  # fmt: skip

    async def _hold(self, message: str, intake: Intake, thread_id: str, now: datetime) -> Turn:
        catalog = self.services.content.catalog(intake.casino_id)
        language = intake.profile.prompt_view(now).language or "en"
        text = prompts.say(prompts.HOLDING, language, casino=catalog.casino.name,
                           phone=catalog.casino.phone)  # fmt: skip
        await self._storage(write_holding, self.store, intake, text, now)
        await self.graph.aupdate_state(
            self.config(intake.thread_id),
            {
                "messages": [
                    HumanMessage(content=scan_pii(message).redacted_text),
                    AIMessage(content=text),
                ]
            },
        )
        sms = split_sms(text, max_parts=2)
        state = {"language": language, "speaker": HOLDING_SPEAKER}
        return Turn(thread_id, intake, state, text, sms, HOLDING_SPEAKER, None)

    def _as_answer(self, turn: Turn) -> Answer:
        from frontdesk.assistants.casino_host.records.output import turn_extra

        state = turn.state
        # Only a reply the checks passed stands on its items: the fallback that replaces a
        # failed one, a refusal or a greeting cites nothing.
        passed = state.get("validation_result") == "PASS"
        used = (state.get("sources_used") or []) if passed else []
        catalog = self.services.content.catalog(turn.intake.casino_id)
        cited = cited_sources(catalog, used, turn.text)
        return Answer(
            answer=turn.text,
            route=state.get("query_type"),
            confidence=state.get("router_confidence"),
            sources=list(cited["sources"]),
            validation=state.get("validation_result"),
            thread_id=turn.thread_id,
            context=list(state.get("retrieved_context") or []),
            extra={
                **turn_extra(turn.intake, state, turn.sms, turn.speaker, turn.written),
                "documents": cited["documents"],
                "claims": cited["claims"],
            },
        )
