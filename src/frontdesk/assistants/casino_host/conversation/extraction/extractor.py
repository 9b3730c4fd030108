"""`extract()`: run every field finder over one guest message and merge their hits."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime
from zoneinfo import ZoneInfo

from frontdesk.assistants.casino_host.profile.profile_field import clamp_to_source

from .companions import Companion, find_companions
from .dates import find_visit_date
from .dining import find_budget, find_cuisines, find_dietary, find_kids_menu
from .fields import (
    ABOUT_COMPANION,
    COMPANIONS,
    CONTEXTUAL,
    FIELD_ORDER,
    LANGUAGE,
    LIST_PATHS,
    MIN_CONFIDENCE,
    Extracted,
    resolve_targets,
)
from .language import detect_language, find_language_request
from .leisure import (
    find_accessibility,
    find_games,
    find_gaming_level,
    find_interests,
    find_occasion,
    find_spa_treatments,
)
from .names import find_email, find_names
from .party import find_party_size
from .text import Hit, Message, fold
from .timezones import find_timezone


def extract(
    message: str,
    *,
    now: datetime,
    timezone: str = "America/New_York",
    language: str | None = None,
    targets: Sequence[str] | None = None,
) -> list[Extracted]:
    """Profile fields stated or implied in one guest SMS, in `FIELD_ORDER`.

    `now` must be timezone aware; relative dates resolve in `timezone` (the guest's).
    `language` ("en"/"es") is the conversation language, used to read 12/03 as D/M in
    Spanish; by default it is detected from the message. `targets` (paths or seed aliases)
    limits the output to those fields (item 30), except that an explicit language request is
    always returned. Only values above MIN_CONFIDENCE are returned.
    """
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone aware")
    wanted = resolve_targets(targets)
    text = unicodedata.normalize("NFC", message or "")
    prepared = Message(
        text=text,
        folded=fold(text),
        now=now.astimezone(ZoneInfo(timezone)),
        language=language or detect_language(text) or "en",
    )
    companions = find_companions(prepared)
    hits: list[Hit] = [
        *find_names(prepared),
        *find_email(prepared),
        *find_language_request(prepared.folded),
        *find_timezone(prepared),
        *find_visit_date(prepared),
        *find_party_size(prepared, companions),
        *find_occasion(prepared),
        *find_dietary(prepared, companions),  # before companions are read: it annotates them
        *find_cuisines(prepared),
        *find_kids_menu(prepared, companions),
        *find_interests(prepared, companions),
        *find_accessibility(prepared, companions),
        *find_gaming_level(prepared, companions),
        *find_games(prepared, companions),
        *find_spa_treatments(prepared),
        *find_budget(prepared),
        *_companion_hits(companions),
    ]
    merged = _merge(prepared, hits)
    return [
        item
        for item in merged
        if item.confidence > MIN_CONFIDENCE
        and (wanted is None or item.path in wanted or item.path == LANGUAGE)
    ]


def _companion_hits(companions: list[Companion]) -> list[Hit]:
    return [
        Hit(COMPANIONS, companion, ABOUT_COMPANION, CONTEXTUAL, companion.start, companion.end)
        for companion in companions
    ]


def _merge(message: Message, hits: list[Hit]) -> list[Extracted]:
    """One Extracted per path. Lists keep each distinct item once, in order of appearance, with
    the weakest confidence among them; single values keep the most confident hit."""
    by_path: dict[str, list[Hit]] = {}
    for hit in hits:
        by_path.setdefault(hit.path, []).append(hit)
    merged: list[Extracted] = []
    for path in FIELD_ORDER:
        path_hits = by_path.get(path)
        if not path_hits:
            continue
        if path in LIST_PATHS:
            merged.append(_merge_list(message, path, path_hits))
            continue
        best = max(path_hits, key=lambda hit: hit.confidence)
        merged.append(
            Extracted(
                path=path,
                value=best.value,
                confidence=clamp_to_source(best.confidence, best.source),
                source=best.source,  # type: ignore[arg-type]
                evidence=message.evidence(best.start, best.end),
            )
        )
    return merged


def _merge_list(message: Message, path: str, hits: list[Hit]) -> Extracted:
    ordered = sorted(hits, key=lambda hit: hit.start)
    if path == COMPANIONS:
        values: list[object] = [hit.value.as_value() for hit in ordered]  # type: ignore[attr-defined]
        kept = ordered
    else:
        values, kept = [], []
        for hit in ordered:
            # A hit may carry one item or an explicit empty list ("no allergies").
            items = hit.value if isinstance(hit.value, list) else [hit.value]
            strongest = max((h for h in ordered if h.value == hit.value), key=_confidence)
            if hit is not strongest:
                continue
            values.extend(item for item in items if item not in values)
            kept.append(hit)
    weakest = min(kept, key=_confidence)
    evidence = " | ".join(dict.fromkeys(message.evidence(hit.start, hit.end) for hit in kept))
    return Extracted(
        path=path,
        value=values,
        confidence=clamp_to_source(weakest.confidence, weakest.source),
        source=weakest.source,  # type: ignore[arg-type]
        evidence=evidence,
    )


def _confidence(hit: Hit) -> float:
    return hit.confidence
