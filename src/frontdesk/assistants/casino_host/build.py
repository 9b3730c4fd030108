"""Builds the casino host's service from settings: content and its search, the router, the
storage (casinos registered), the model's circuit breaker, the checkpointer and the graph.

`open_knowledge` and `build_router` stand alone so `frontdesk ingest` and the routing
evaluation never open the storage or a chat model.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from frontdesk.assistants.casino_host.channel.gateway import SmsGateway
from frontdesk.assistants.casino_host.channel.outbound import OutboundSender
from frontdesk.assistants.casino_host.channel.port import HostUnavailable
from frontdesk.assistants.casino_host.channel.providers import SimulatorProvider, SMSProvider
from frontdesk.assistants.casino_host.channel.rate_limits import RateLimiter
from frontdesk.assistants.casino_host.channel.senders import (
    FailoverProvider,
    TelnyxProvider,
    TwilioProvider,
)
from frontdesk.assistants.casino_host.channel.signatures import WebhookSecrets, telnyx_public_key
from frontdesk.assistants.casino_host.channel.stores import open_store
from frontdesk.assistants.casino_host.compliance.learned import (
    LEARNED_SPACES,
    SHIPPED_WEIGHTS,
    LearnedLayer,
    training_rows,
)
from frontdesk.assistants.casino_host.compliance.learned import (
    NAME as GATE_WEIGHTS,
)
from frontdesk.assistants.casino_host.compliance.learned import (
    SPEC as GATE_LABELS,
)
from frontdesk.assistants.casino_host.content import CasinoContent, ContentSearch
from frontdesk.assistants.casino_host.conversation.context import HostServices
from frontdesk.assistants.casino_host.conversation.graph import build_graph
from frontdesk.assistants.casino_host.conversation.nodes.understanding import model_route
from frontdesk.assistants.casino_host.conversation.router_keywords import router_keywords
from frontdesk.assistants.casino_host.service import NAME, CasinoHostService
from frontdesk.assistants.casino_host.settings import DEV_SIMULATOR_KEY, CasinoHostSettings
from frontdesk.assistants.casino_host.staff.desk import STAFF_PAGE, StaffDesk, sweep_forever
from frontdesk.assistants.casino_host.storage import StorageError, Store
from frontdesk.assistants.casino_host.storage.settings import CasinoHostStorageSettings
from frontdesk.config import Settings
from frontdesk.guardrails.guard import vector_space_id
from frontdesk.guardrails.lexical import LEXICAL_ID, WithLexical
from frontdesk.guardrails.multilabel import load_or_train
from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY, Glossary
from frontdesk.knowledge.ingest import IngestMode, IngestReport
from frontdesk.llm.breaker import BreakerSettings, CircuitBreaker
from frontdesk.memory.checkpointer import open_checkpointer
from frontdesk.notify import build_notifier, notify_problems
from frontdesk.routing.classifier import EmbeddingIntentClassifier, load_examples
from frontdesk.routing.router import IntentRouter, fast_paths_for
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)

DATA_DIR = Path(__file__).parent / "data"
ROUTER_EXAMPLES = DATA_DIR / "router_examples.jsonl"
# The keyword features' weight beside the embedding (telecom's measured best is 0.5).
LEXICAL_WEIGHT = 0.5
GREETINGS = [
    (
        r"(hi|hello|hey|hiya|yo|good (morning|afternoon|evening)|hola|buenas|buenos dias|"
        r"buenas (tardes|noches)|thanks|thank you|gracias)( there| seven)?"
    )
]


class CasinoKnowledge:
    """Both casinos' content and search; `frontdesk ingest` indexes every casino."""

    def __init__(self, content: CasinoContent, search: ContentSearch):
        self.content = content
        self.search = search


@dataclass(frozen=True)
class CasinoIngestReport:
    """What `frontdesk ingest` did, casino by casino (a report with `lines()`)."""

    casinos: dict[str, IngestReport | None]
    items: dict[str, int]

    def lines(self) -> list[str]:
        lines = []
        for casino_id, report in self.casinos.items():
            if report is None:
                lines.append(f"{casino_id}: {self.items[casino_id]} items, index up to date")
            else:
                lines.append(
                    f"{casino_id}: {report.chunks} chunks from {self.items[casino_id]} items: "
                    f"{report.added} added, {report.removed} removed ({report.seconds:.1f} s)"
                )
        return lines


def open_knowledge(
    settings: Settings, models: Models, *, ingest_mode: IngestMode = "if_changed", progress=None
) -> tuple[CasinoKnowledge, CasinoIngestReport]:
    content = CasinoContent.load()
    search = ContentSearch(
        content,
        settings.index_dir(NAME),
        models.embeddings,
        models.embeddings_id,
        ingest_mode=ingest_mode,
    )
    reports = {casino_id: search.ingest(casino_id) for casino_id in content.casino_ids}
    items = {cid: len(content.catalog(cid).all_items()) for cid in content.casino_ids}
    return CasinoKnowledge(content, search), CasinoIngestReport(reports, items)


def build_router(
    settings: Settings, models: Models, knowledge: Any = None, *, use_llm: bool = True
) -> IntentRouter:
    classifier = EmbeddingIntentClassifier(
        models.embeddings,
        load_examples(ROUTER_EXAMPLES),
        cache_dir=settings.index_dir(NAME),
        embeddings_id=models.embeddings_id,
        # The content already loaded when there is one (the service, the routing suite).
        lexical=router_keywords(knowledge.content if knowledge else CasinoContent.load()),
        lexical_weight=LEXICAL_WEIGHT,
    )
    host = CasinoHostSettings.of(settings)
    enabled = use_llm and settings.router_llm != "never"

    async def llm_route(text: str) -> tuple[str, float]:
        return await model_route(models.chat, host.router_timeout_s)(text)

    return IntentRouter(
        classifier,
        fast_paths=fast_paths_for("greeting", GREETINGS),
        llm_route=llm_route if enabled else None,
        mode=settings.router_llm,
        min_confidence=settings.router_min_confidence,
    )


def load_learned_layer(embeddings: Embeddings, weights_dir: Path) -> LearnedLayer | None:
    """The compliance gate's learned layer for these embeddings (shipped weights when current,
    else trained and kept under `weights_dir`); None for embeddings it is not trained for
    (the offline hashing ones of tests and trials: logged), where the regex layers stand
    alone."""
    space = vector_space_id(embeddings)
    if space is None or not space.startswith(LEARNED_SPACES):
        logger.warning("compliance gate: regex layers only (no learned layer for %s)", space)
        return None
    features = WithLexical(embeddings)  # the spelling beside the meaning
    detector = load_or_train(features, training_rows(), weights_dir, GATE_WEIGHTS,
                             spec=GATE_LABELS, shipped_dir=SHIPPED_WEIGHTS,
                             space=f"{space}+{LEXICAL_ID}")  # fmt: skip
    return LearnedLayer(features, detector) if detector is not None else None


def breaker_for(host: CasinoHostSettings, store: Store, content: CasinoContent) -> CircuitBreaker:
    def audit(old: str, new: str, reason: str) -> None:
        logger.warning("model circuit %s -> %s (%s)", old, new, reason)
        if new == "open":
            for casino_id in content.casino_ids:
                store.audit(casino_id, "circuit_breaker_opened", details={"reason": reason})

    settings = BreakerSettings(
        failure_threshold=host.breaker_failures,
        window_s=host.breaker_window_s,
        cooldown_s=host.breaker_cooldown_s,
    )
    return CircuitBreaker("chat_model", settings, on_transition=audit)


async def build_service(settings: Settings, models: Models) -> CasinoHostService:
    host = CasinoHostSettings.of(settings)
    provider = sms_provider(host)  # a sender without its credentials stops the start here
    knowledge, _ = open_knowledge(settings, models)
    resources = AsyncExitStack()
    try:
        try:
            store = open_store(settings, knowledge.content)
        except StorageError as exc:  # the database is down or refuses: say so, plainly
            raise HostUnavailable(f"the casino host cannot start: {exc}") from None
        resources.callback(store.close)
        checkpointer = await resources.enter_async_context(
            open_checkpointer(settings.checkpointer, settings.checkpoint_path)
        )
    except BaseException:
        await resources.aclose()
        raise
    if host.default_casino not in knowledge.content.casino_ids:
        await resources.aclose()
        raise ValueError(
            f"FRONTDESK_CASINO_HOST_DEFAULT_CASINO={host.default_casino!r} is not a casino: "
            f"{', '.join(knowledge.content.casino_ids)}"
        )
    learned_gate = await asyncio.to_thread(
        load_learned_layer, models.embeddings, settings.data_dir / "guard"
    )
    services = HostServices(
        llm=models.chat,
        router=build_router(settings, models, knowledge),
        content=knowledge.content,
        search=knowledge.search,
        breaker=breaker_for(host, store, knowledge.content),
        settings=host,
        learned_gate=learned_gate,
        glossary=Glossary.load(SPANISH_RESORT_GLOSSARY),
    )
    service = CasinoHostService(build_graph(checkpointer), services, store, resources=resources)
    service.sms = build_gateway(service, host, provider,
                                simulator=host.simulator_on(settings.auth_mode))  # fmt: skip
    service.staff = build_desk(settings, service)
    sweeper = asyncio.create_task(sweep_forever(service.staff, lambda: service.clock()))
    resources.callback(sweeper.cancel)
    sender = asyncio.create_task(send_due_forever(service.sms.outbound, lambda: service.clock()))
    resources.callback(sender.cancel)
    resources.push_async_callback(finish_sending, service.sms)  # runs first on close
    return service


def build_gateway(
    service: CasinoHostService,
    host: CasinoHostSettings,
    provider: SMSProvider,
    *,
    simulator: bool = True,
) -> SmsGateway:
    """The SMS channel of this service: inbound webhooks, the outbound queue's sender and the
    rate limits, sending through `provider` (the simulator also reports each delivery).
    `simulator`: whether the phone simulator exists (its webhook takes no key otherwise)."""
    key = host.sms_telnyx_public_key
    limiter = RateLimiter.from_url(host.sms_redis_url)
    outbound = OutboundSender(service.store, service.services.content, provider,
                              safe_mode=host.sms_safe_mode, limiter=limiter)  # fmt: skip
    gateway = SmsGateway(
        service,
        provider,
        outbound,
        WebhookSecrets(
            simulator_keys=tuple(host.sms_simulator_keys) if simulator else (),
            twilio_auth_token=host.sms_twilio_auth_token,
            telnyx_public_key=telnyx_public_key(key) if key else None,
        ),
        limiter=limiter,
        human_delay=host.sms_human_delay,
        audit_casino=host.default_casino,
    )
    if isinstance(provider, SimulatorProvider) and gateway.secrets.simulator_keys:
        provider.on_sent = gateway.report_simulated_delivery
    return gateway


def build_desk(settings: Settings, service: CasinoHostService) -> StaffDesk:
    """Who is told of escalations (the chain in FRONTDESK_NOTIFY_*), and the staff page's
    answers, sent through the service's SMS channel."""
    return StaffDesk(service.store, service.services.content, build_notifier(settings),
                     staff_url=f"{settings.public_url.rstrip('/')}{STAFF_PAGE}",
                     sender=service.sms.outbound if service.sms else None,
                     person_said=service.person_said)  # fmt: skip


def insecure_settings(settings: Settings) -> list[str]:
    """What would leave the casino host unprotected with FRONTDESK_AUTH_MODE=required: a public
    development secret, a provider whose webhooks could not be verified, or escalations that
    would reach no one."""
    host = CasinoHostSettings.of(settings)
    problems = notify_problems(settings)  # an escalation must reach a person
    if CasinoHostStorageSettings.of(settings).uses_development_pepper:
        problems.append(
            "FRONTDESK_CASINO_HOST_PHONE_PEPPER is the public development pepper: set a random "
            "secret (once per deployment: changing it later orphans the phone index)"
        )
    if host.simulator_on(settings.auth_mode) and DEV_SIMULATOR_KEY in host.sms_simulator_keys:
        problems.append(
            "FRONTDESK_CASINO_HOST_SMS_SIMULATOR_KEYS holds the public development key while the "
            "phone simulator is on: set your own key, or FRONTDESK_CASINO_HOST_SMS_SIMULATOR_"
            "ENABLED=false"
        )
    for name in dict.fromkeys(filter(None, (host.sms_provider, host.sms_secondary_provider))):
        problems += [
            f"{variable} is not set, and the SMS provider is {name}"
            for variable, value in PROVIDER_SECRETS.get(name, {}).items()
            if not value(host)
        ]
    return problems


# The variables each provider needs to send and to have its webhooks verified.
PROVIDER_SECRETS: dict[str, dict[str, Callable[[CasinoHostSettings], object]]] = {
    "twilio": {
        "FRONTDESK_CASINO_HOST_SMS_TWILIO_ACCOUNT_SID": lambda h: h.sms_twilio_account_sid,
        "FRONTDESK_CASINO_HOST_SMS_TWILIO_AUTH_TOKEN": lambda h: h.sms_twilio_auth_token,
    },
    "telnyx": {
        "FRONTDESK_CASINO_HOST_SMS_TELNYX_API_KEY": lambda h: h.sms_telnyx_api_key,
        "FRONTDESK_CASINO_HOST_SMS_TELNYX_PUBLIC_KEY": lambda h: h.sms_telnyx_public_key,
    },
}


def sms_provider(host: CasinoHostSettings) -> SMSProvider:
    """Who sends (FRONTDESK_CASINO_HOST_SMS_PROVIDER), behind the failover when a secondary is
    set. A provider without its credentials is a start-up error, not a failure per message."""

    def one(name: str) -> SMSProvider:
        if name == "twilio":
            if not (host.sms_twilio_account_sid and host.sms_twilio_auth_token):
                raise ValueError("the Twilio sender needs FRONTDESK_CASINO_HOST_SMS_TWILIO_ACCOUNT_SID "
                                 "and FRONTDESK_CASINO_HOST_SMS_TWILIO_AUTH_TOKEN")  # fmt: skip
            return TwilioProvider(host.sms_twilio_account_sid, host.sms_twilio_auth_token,
                                  base_url=host.sms_twilio_api_url)  # fmt: skip
        if name == "telnyx":
            if not host.sms_telnyx_api_key:
                raise ValueError("the Telnyx sender needs FRONTDESK_CASINO_HOST_SMS_TELNYX_API_KEY")
            return TelnyxProvider(host.sms_telnyx_api_key, base_url=host.sms_telnyx_api_url)
        return SimulatorProvider()

    primary = one(host.sms_provider)
    if host.sms_secondary_provider and host.sms_secondary_provider != host.sms_provider:
        return FailoverProvider(primary, one(host.sms_secondary_provider))
    return primary


FINISH_SENDING_S = 10.0
SEND_DUE_EVERY_S = 2.0


async def finish_sending(gateway: SmsGateway) -> None:
    """On close, the replies under way (and the simulator's delivery reports) get a few
    seconds; what is still queued then is sent by the next start's sweep."""
    try:
        await asyncio.wait_for(gateway.drain(), FINISH_SENDING_S)
    except TimeoutError:
        logger.warning("closing: SMS still due are left to the outbound queue")


async def send_due_forever(sender: OutboundSender, clock: Callable[[], datetime]) -> None:
    """Items 35-37 while the service runs: queued messages that are due (retries at 5/25/125 s,
    what a restart left behind) are sent, each through the gate again, on the service's clock
    (the one its turns run at)."""
    while True:
        await asyncio.sleep(SEND_DUE_EVERY_S)
        try:
            await sender.sweep(clock())
        except Exception:
            logger.exception("outbound sweep failed")


def demo_guests(settings: Settings) -> list[dict[str, str]]:
    """Whom the web UI's demo sign-in may text as: a few made-up numbers (555 exchange)."""
    host = CasinoHostSettings.of(settings)
    numbers = [host.demo_guest, "+18605550101", "+18605550102", "+17025550103"]
    return [{"id": n, "label": f"Guest {n[:2]} ({n[2:5]}) {n[5:8]}-{n[8:]}"} for n in numbers]
