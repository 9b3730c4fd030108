"""The whisper planner's rules (items 20-21, 33): what to explore next, what to listen for, how
ready the guest is for an offer. Pure; a model-backed planner may refine the plan, and when it
fails the graph can fall back to this one (or to None, seed §1.13).

Order (item 33, seed §9.3): name, visit_date, party_size, dining, entertainment, gaming,
occasions, companions. First contact asks the name (seed §1.13). Otherwise the guest's own topic
wins when it still has something to learn (guest intent first, seed §1.13). Gaming waits until
rapport is established (the conversation has reached discovery) and never follows a
responsible-gaming trigger. Companions are never asked about: their fields are listened for
while dining, entertainment, party size or occasions are discussed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from frontdesk.assistants.casino_host.profile._time import require_aware
from frontdesk.assistants.casino_host.profile.fields import FIELDS, paths_for_topic
from frontdesk.assistants.casino_host.profile.signals import (
    Sentiment,
    estimate_sentiment,
    is_substantive,
    normalise,
)
from frontdesk.assistants.casino_host.profile.view import ProfileView

NextTopic = Literal[
    "name", "visit_date", "party_size", "dining", "entertainment", "gaming", "occasions",
    "companions", "offer_ready", "none",
]  # fmt: skip
TOPIC_ORDER: tuple[str, ...] = (
    "name", "visit_date", "party_size", "dining", "entertainment", "gaming", "occasions",
    "companions",
)  # fmt: skip
NEXT_TOPICS: frozenset[str] = frozenset((*TOPIC_ORDER, "offer_ready", "none"))
SENTIMENTS: frozenset[str] = frozenset({"positive", "neutral", "cautious", "negative"})
GAMING_PHASES = frozenset({"discovery", "offer", "post_visit"})  # rapport established
OFFER_PHASES = frozenset({"discovery", "offer"})
COMPANION_CONTEXT_TOPICS = frozenset({"party_size", "dining", "entertainment", "occasions"})
NOTE_LIMIT = 200
OFFER_READY = 0.8  # only the planner lifts readiness above this, the comp handoff gate (seed §1.13)
HISTORY_LIMIT = 20  # the planner reads the last 20 messages (seed §1.7)

INTENT_TERMS: Mapping[str, tuple[str, ...]] = {
    "dining": ("dinner", "lunch", "breakfast", "brunch", "restaurant", "eat", "food", "steak",
               "seafood", "buffet", "menu", "reservation", "table for", "cena", "restaurante",
               "comida", "comer"),
    "entertainment": ("show", "concert", "comedy", "music", "band", "spa", "massage", "event",
                      "tickets", "club", "nightlife", "espectaculo", "concierto", "musica"),
    "gaming": ("poker", "slots", "slot", "blackjack", "roulette", "craps", "baccarat",
               "table games", "tragamonedas", "ruleta"),
    "occasions": ("birthday", "anniversary", "wedding", "bachelor", "bachelorette", "celebrate",
                  "celebrating", "cumpleanos", "aniversario", "boda"),
}  # fmt: skip
NOTES: Mapping[str, str] = {
    "name": "Introduce yourself as Seven and ask what to call them.",
    "visit_date": "Share what is coming up, then ask when they plan to visit.",
    "party_size": "Give a useful tip, then ask how many are in their group.",
    "dining": "Recommend a restaurant first, then ask about tastes or dietary needs.",
    "entertainment": "Mention a show or spa option, then ask what they enjoy.",
    "gaming": "Lightly ask if they enjoy table games or slots. No pressure, no offers.",
    "occasions": "Ask if there is a special occasion; we love to make those memorable.",
    "companions": "Never ask about companions; note kids or partners only if they come up.",
    "offer_ready": "Guest is engaged and well known: one offer may be made this arc.",
    "none": "Stay with the guest's question; no new profiling question.",
}


@dataclass(frozen=True)
class WhisperPlan:
    next_topic: NextTopic
    offer_readiness_score: float
    conversation_note: str
    sentiment_estimate: Sentiment
    extraction_targets: tuple[str, ...] = field(default_factory=tuple)  # registry paths
    reciprocity_flag: bool = False  # share value before asking (item 33)

    def __post_init__(self) -> None:
        if self.next_topic not in NEXT_TOPICS:
            raise ValueError(f"unknown next_topic {self.next_topic!r}")
        if self.sentiment_estimate not in SENTIMENTS:
            raise ValueError(f"unknown sentiment {self.sentiment_estimate!r}")
        if not 0.0 <= self.offer_readiness_score <= 1.0:
            raise ValueError("offer_readiness_score outside 0..1")
        if len(self.conversation_note) > NOTE_LIMIT:
            raise ValueError("conversation_note longer than 200 characters")
        unknown = [path for path in self.extraction_targets if path not in FIELDS]
        if unknown:
            raise ValueError(f"extraction targets not in the registry: {unknown}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "next_topic": self.next_topic,
            "extraction_targets": list(self.extraction_targets),
            "offer_readiness_score": self.offer_readiness_score,
            "conversation_note": self.conversation_note,
            "sentiment_estimate": self.sentiment_estimate,
            "reciprocity_flag": self.reciprocity_flag,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> WhisperPlan:
        return cls(
            next_topic=raw["next_topic"],
            offer_readiness_score=float(raw["offer_readiness_score"]),
            conversation_note=raw.get("conversation_note") or "",
            sentiment_estimate=raw["sentiment_estimate"],
            extraction_targets=tuple(raw.get("extraction_targets") or ()),
            reciprocity_flag=bool(raw.get("reciprocity_flag", False)),
        )


def _turn(message: Any) -> tuple[str, str]:
    """(role, text) from a (role, text) pair, a {"role", "content"|"text"} dict, or a chat
    message object with `type` ("human"/"ai") and `content`; role is "guest" or "host"."""
    if isinstance(message, tuple):
        role, text = message
    elif isinstance(message, Mapping):
        role, text = message.get("role", ""), message.get("content", message.get("text", ""))
    else:
        role, text = getattr(message, "type", ""), getattr(message, "content", "")
    guest = str(role).casefold() in {"guest", "human", "user"}
    return ("guest" if guest else "host"), text if isinstance(text, str) else str(text)


def offer_readiness(completeness: float, substantive_messages: int, sentiment: str) -> float:
    """Half how well we know the guest, half how engaged they are. Under 3 substantive
    exchanges it stays at or below 0.3 (seed §9.20); a negative guest is not offered anything."""
    warmth = {"positive": 1.0, "neutral": 0.85, "cautious": 0.5, "negative": 0.0}[sentiment]
    engagement = min(1.0, substantive_messages / 6) * warmth
    score = 0.5 * completeness + 0.5 * engagement
    if substantive_messages < 3:
        score = min(score, 0.3)
    if sentiment == "negative":
        score = min(score, 0.2)
    return round(min(1.0, max(0.0, score)), 2)


def _topic_allowed(topic: str, view: ProfileView, phase: str) -> bool:
    if topic == "gaming":
        return phase in GAMING_PHASES and not view.responsible_gaming_triggered
    return True


def _missing(topic: str, view: ProfileView) -> list[str]:
    return [path for path in paths_for_topic(topic) if not view.known(path)]


def _missing_paths(paths: list[str], view: ProfileView) -> list[str]:
    return [path for path in paths if not view.known(path)]


def _topic_open(topic: str, view: ProfileView) -> bool:
    """A topic is open until one of its scored fields is known: completeness counts a group
    once, so a second dining fact is listened for, not asked for. Side fields (visit frequency
    beside the visit date) do not close a topic."""
    paths = paths_for_topic(topic)
    scored = [path for path in paths if FIELDS[path].completeness_group] or paths
    return bool(scored) and not any(view.known(path) for path in scored)


def _intent(text: str) -> str | None:
    plain = f" {normalise(text)} "
    for topic, terms in INTENT_TERMS.items():
        if any(f" {term} " in plain for term in terms):
            return topic
    return None


def _note(topic: str, sentiment: str, first_contact: bool) -> str:
    note = NOTES[topic]
    if topic == "name" and not first_contact:
        note = "Share something useful, then ask what to call them."
    if sentiment == "cautious" and topic not in ("none", "offer_ready"):
        note += " Guest is guarded: share 2-3 recommendations before one question."
    if len(note) > NOTE_LIMIT:
        note = note[:NOTE_LIMIT].rsplit(" ", 1)[0]
    return note


def plan_next(
    profile_view: ProfileView,
    recent_messages: Sequence[Any],
    phase: str,
    now: datetime,
    *,
    reciprocity_enabled: bool = True,
) -> WhisperPlan:
    """The plan for the speaking agent's next reply. `reciprocity_enabled=False` is the A/B arm
    that asks directly (seed §9.14)."""
    require_aware(now)
    turns = [_turn(message) for message in list(recent_messages)[-HISTORY_LIMIT:]]
    guest_texts = [text for role, text in turns if role == "guest"]
    latest = guest_texts[-1] if guest_texts else ""
    sentiment = estimate_sentiment(latest) if guest_texts else "neutral"
    substantive = sum(1 for text in guest_texts if is_substantive(text))
    readiness = offer_readiness(profile_view.completeness, substantive, sentiment)
    first_contact = len(guest_texts) <= 1 and not any(role == "host" for role, _ in turns)

    def plan(topic: str, targets: list[str]) -> WhisperPlan:
        asks = topic in TOPIC_ORDER and topic != "companions"
        reciprocity = reciprocity_enabled and asks and not (first_contact and topic == "name")
        return WhisperPlan(
            next_topic=topic,  # type: ignore[arg-type]
            offer_readiness_score=readiness,
            conversation_note=_note(topic, sentiment, first_contact),
            sentiment_estimate=sentiment,
            extraction_targets=tuple(dict.fromkeys(targets)),
            reciprocity_flag=reciprocity,
        )

    if first_contact and not profile_view.known("core_identity.name"):
        return plan("name", ["core_identity.name"])
    if sentiment == "negative" or phase in ("post_visit", "dormant"):
        return plan("none", [])
    if readiness > OFFER_READY and profile_view.completeness > 0.6 and phase in OFFER_PHASES:
        # The freeplay tier needs an email: the offer conversation is where it is asked for.
        return plan("offer_ready", _missing_paths(["core_identity.email"], profile_view))

    intent = _intent(latest)
    candidates = [t for t in TOPIC_ORDER if _topic_allowed(t, profile_view, phase)]
    if intent in candidates and _topic_open(intent, profile_view):
        topic = intent
    else:
        topic = next((t for t in candidates if _topic_open(t, profile_view)), "none")
    targets = _missing(topic, profile_view) if topic != "none" else []
    # Listen for what the guest brings up, even a topic we would not ask about yet (gaming
    # before rapport); after a responsible-gaming trigger gaming is not even recorded.
    listen = intent == "gaming" and not profile_view.responsible_gaming_triggered
    if intent is not None and intent != topic and (intent in candidates or listen):
        targets += _missing(intent, profile_view)
    if topic in COMPANION_CONTEXT_TOPICS or topic == "companions":
        targets += _missing("companions", profile_view)
    return plan(topic, targets)
