"""What the casino host's nodes run with (LangGraph's runtime context), built once per turn.

The services (model, router, content, breaker) are shared; the guest's profile, offer history
and the casino's catalog are the turn's, read before the graph runs. Nodes only read them: what
a turn learns (extracted fields, an offer, an escalation) comes back as state, and the service
writes it once, keyed by the guest's message (service.py), so a retried message is not applied
twice.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from frontdesk.assistants.casino_host.compliance.learned import LearnedLayer
from frontdesk.assistants.casino_host.content import CasinoContent, Catalog, ContentSearch
from frontdesk.assistants.casino_host.profile import GuestProfile, OfferHistory
from frontdesk.assistants.casino_host.profile.view import ProfileView
from frontdesk.assistants.casino_host.settings import CasinoHostSettings
from frontdesk.knowledge.glossary import Glossary
from frontdesk.llm.breaker import CircuitBreaker
from frontdesk.routing.router import IntentRouter


@dataclass(frozen=True)
class HostServices:
    """Shared by every turn of one service."""

    llm: Any  # a LangChain chat model
    router: IntentRouter
    content: CasinoContent
    search: ContentSearch
    breaker: CircuitBreaker
    settings: CasinoHostSettings = field(default_factory=CasinoHostSettings)
    # The compliance gate's learned layer (None: the regex layers alone, as with the offline
    # hashing embeddings).
    learned_gate: LearnedLayer | None = None
    # A Spanish message in the English words the content is written in, for the search and for
    # telling which venue it asks about (None: the message as written).
    glossary: Glossary | None = None


@dataclass(frozen=True)
class CasinoHostContext:
    services: HostServices
    catalog: Catalog
    profile: GuestProfile  # as loaded when the turn began; nodes do not change it
    offers: OfferHistory
    now: datetime  # aware, the casino's clock
    # new_guest | continued | new_session (the last one went idle: a warm or cold resume)
    opening: str = "continued"
    # A new session: the agent that answered last in the previous one.
    previous_agent: str | None = None

    @functools.cached_property
    def view(self) -> ProfileView:
        """What the turn's nodes may know of the guest (consent-filtered, < 0.40 left out),
        worked out once per turn."""
        return self.profile.prompt_view(self.now)

    def in_content_words(self, text: str) -> str:
        """`text` with its English rendering after it when it has Spanish words the glossary
        knows ("mariscos" -> "seafood"), else `text`."""
        glossary = self.services.glossary
        rendering = glossary.translate(text) if glossary is not None else None
        if not rendering or rendering.casefold() == text.casefold():
            return text
        return f"{text} {rendering}"

    @property
    def llm(self) -> Any:
        return self.services.llm

    @property
    def settings(self) -> CasinoHostSettings:
        return self.services.settings
