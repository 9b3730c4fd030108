"""The agents' tools (seed item 15) over real data: the casino's content, the guest's profile and
the offers with their dates. Each returns FACTS: lines of "Name: what is true", computed in code
(today's hours from the weekly table, showtimes in the coming days, an offer that passed the
incentive rules and matches an active promotion), which the model may only restate; the
validation node checks the reply against them.

Which tools run is decided by the agent, deterministically (the 0.5B model picks tools badly,
agentkit/tool_calling.py); the model writes the reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from frontdesk.assistants.casino_host.content import SearchHit, Venue
from frontdesk.assistants.casino_host.content.documents import day_text, moment_text
from frontdesk.assistants.casino_host.content.hours import clock_text
from frontdesk.assistants.casino_host.conversation.context import CasinoHostContext
from frontdesk.assistants.casino_host.profile import decide_incentive

# Characters of one item's text an agent reads (a venue's hours, price and description fit).
ITEM_CHARS = 420
SEARCH_K = 3
# How far down the casino-wide ranking a category's items are looked for.
SEARCH_DEPTH = 8
SCHEDULE_DAYS = 7


@dataclass
class Facts:
    """What the agent's tools found: lines the reply may restate, and what they were about."""

    lines: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    offer: dict[str, Any] | None = None
    # What a reply written in code restates (composed.py): the items found, best first, as
    # (name, text), and today's opening periods by venue name.
    items: list[tuple[str, str]] = field(default_factory=list)
    today: dict[str, str] = field(default_factory=dict)
    # The search's hits, best first: what a reply worked out from one venue's fields reads.
    hits: list[SearchHit] = field(default_factory=list)

    def add(self, line: str, name: str | None = None) -> None:
        """A fact line; with `name`, the line is about that item ("Name: what is true")."""
        if line and line not in self.lines:
            self.lines.append(line)
            if name:
                self.items.append((name, line))
        if name and name not in self.names:
            self.names.append(name)


def _item_line(hit: SearchHit) -> str:
    text = hit.content
    return text if len(text) <= ITEM_CHARS else text[: text.rfind(" ", 0, ITEM_CHARS)] + "."


def _search(ctx: CasinoHostContext, query: str, categories: tuple[str, ...]) -> list[SearchHit]:
    """The best items of these categories: one search (one query embedding), then the filter;
    a search per category cost a turn most of its time."""
    hits = ctx.services.search.search(
        ctx.catalog.casino_id, ctx.in_content_words(query), k=SEARCH_K * SEARCH_DEPTH, now=ctx.now
    )
    return [hit for hit in hits if hit.category in categories][:SEARCH_K]


ALL_DAY = "24 hours"


def opening_today(ctx: CasinoHostContext, venue: Venue) -> str | None:
    """A venue's opening periods today ("5:00 PM-10:00 PM"), "" when closed all day, None
    without regular hours: computed from its weekly table."""
    hours = ctx.catalog.hours_on(venue.id, ctx.now.date())
    if hours is None:
        return None
    if any(p.closes - p.opens >= timedelta(hours=24) for p in hours.periods):
        return ALL_DAY  # not "12:00 AM-12:00 AM", which reads as closed
    return ", ".join(
        f"{clock_text(p.opens.time())}-{clock_text(p.closes.time())}" for p in hours.periods
    )


def get_restaurant_hours(ctx: CasinoHostContext, venue: Venue, facts: Facts) -> None:
    """Today's opening hours of a venue, as a fact line and in `facts.today`."""
    periods = opening_today(ctx, venue)
    if periods is None:
        return
    today = day_text(ctx.now.date())
    if not periods:
        facts.add(f"{venue.name}: closed today ({today}).")
        return
    facts.today[venue.name] = periods
    state = "open now" if ctx.catalog.is_open(venue.id, ctx.now) else "not open right now"
    facts.add(f"{venue.name}: today ({today}) {periods}; {state}.")


def _with_hits(ctx: CasinoHostContext, facts: Facts, hits: list[SearchHit], tool: str) -> None:
    facts.tools.append(tool)
    facts.hits.extend(hits)
    for hit in hits:
        facts.add(_item_line(hit), hit.name)
        if isinstance(hit.item, Venue):
            get_restaurant_hours(ctx, hit.item, facts)


def search_knowledge_base(ctx: CasinoHostContext, query: str, facts: Facts) -> None:
    # Offers are the comp agent's alone (item 19): the host does not read promotions.
    categories = ("hotel", "amenities", "gaming", "faq", "dining", "entertainment")
    _with_hits(ctx, facts, _search(ctx, query, categories), "search_knowledge_base")


def search_dining(ctx: CasinoHostContext, query: str, facts: Facts) -> None:
    _with_hits(ctx, facts, _search(ctx, query, ("dining",)), "search_dining")


def search_entertainment(ctx: CasinoHostContext, query: str, facts: Facts) -> None:
    _with_hits(ctx, facts, _search(ctx, query, ("entertainment",)), "search_entertainment")


def search_spa(ctx: CasinoHostContext, query: str, facts: Facts) -> None:
    _with_hits(ctx, facts, _search(ctx, query, ("spa",)), "search_spa")


def get_event_schedule(ctx: CasinoHostContext, facts: Facts, days: int = SCHEDULE_DAYS) -> None:
    """Showtimes from now to `days` ahead, by start (at most five)."""
    facts.tools.append("get_event_schedule")
    showings = ctx.catalog.events_between(ctx.now, ctx.now + timedelta(days=days))
    for showing in showings[:5]:
        when = moment_text(showing.starts_at) if showing.ends_at is None else "running now"
        facts.add(f"{showing.event.name}: {when}.", showing.event.name)


def active_offers(ctx: CasinoHostContext, facts: Facts) -> None:
    """The casino's promotions valid today, as a guest may hear of them."""
    facts.tools.append("active_offers")
    for promotion in ctx.catalog.active_promotions(ctx.now)[:4]:
        facts.add(
            f"{promotion.title}: {promotion.description} Valid through "
            f"{day_text(promotion.valid_until)}.",
            promotion.title,
        )


def get_eligible_offers(ctx: CasinoHostContext, readiness: float | None, facts: Facts) -> None:
    """The incentive rules' decision (tiers, one per arc, weekly cap, cool-off, responsible
    gaming), made only when an active promotion of that value exists: every offer a guest
    receives is a real, dated one (item 23)."""
    facts.tools.append("get_eligible_offers")
    decision = decide_incentive(ctx.profile, ctx.offers, ctx.now, offer_readiness_score=readiness)
    if not decision.should_offer or decision.value is None:
        return
    promotion = ctx.catalog.promotion_matching(decision.value, ctx.now)
    if promotion is None:
        return
    facts.offer = {
        "tier": decision.tier,
        "value_usd": decision.value_usd,
        "value": decision.value,
        "promotion_id": promotion.id,
        "title": promotion.title,
        "redemption_instruction": promotion.redemption_instruction,
        "valid_until": promotion.valid_until.isoformat(),
    }
    facts.add(
        f"OFFER: {decision.value} ({promotion.title}). To redeem: "
        f"{promotion.redemption_instruction}",
        promotion.title,
    )
