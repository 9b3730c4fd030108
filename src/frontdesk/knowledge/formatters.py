"""Turn structured knowledge items into sentences that embed and read well.

Embedding models are trained on prose, so "Bobby's Burgers: American cuisine. Price range: $$."
lands closer to "casual burger place" than the item's JSON would. Each category has a formatter
that orders the fields a guest asks about first; any field a formatter does not know is still
written out by the generic part, so no fact in the source is lost.
"""

from __future__ import annotations

from typing import Any

# Fields that are bookkeeping, not content.
_META_FIELDS = {"name", "property_id", "last_updated", "id"}


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value if v not in (None, ""))
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)}: {_text(v)}" for k, v in value.items())
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"  # "10,000 seats", as the resort writes it and the model copies it
    return str(value).strip()


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


# (field, sentence template): the template gets the field's text as {v}.
FieldPlan = list[tuple[str, str]]

_RESTAURANT: FieldPlan = [
    ("cuisine", "{v} cuisine"),
    ("location", "Located in {v}"),
    ("hours", "Hours: {v}"),
    ("price_range", "Price range: {v}"),
    ("dress_code", "Dress code: {v}"),
    ("reservations", "Reservations: {v}"),
    ("phone", "Phone: {v}"),
    ("features", "Features: {v}"),
]
_ENTERTAINMENT: FieldPlan = [
    ("type", "Type: {v}"),
    ("location", "Located in {v}"),
    ("capacity", "Capacity: {v} seats"),
    ("schedule", "Schedule: {v}"),
    ("hours", "Hours: {v}"),
    ("age_policy", "Age policy: {v}"),
    ("phone", "Phone: {v}"),
    ("features", "Features: {v}"),
]
_HOTEL: FieldPlan = [
    ("type", "Type: {v}"),
    ("tower", "Tower: {v}"),
    ("size_sqft", "Size: {v} square feet"),
    ("beds", "Beds: {v}"),
    ("max_occupancy", "Sleeps up to {v} guests"),
    ("rate_range", "Rates: {v}"),
    ("check_in", "Check-in: {v}"),
    ("check_out", "Check-out: {v}"),
    ("amenities", "Amenities: {v}"),
    ("phone", "Phone: {v}"),
]
_AMENITY: FieldPlan = [
    ("type", "Type: {v}"),
    ("location", "Located in {v}"),
    ("hours", "Hours: {v}"),
    ("price_range", "Prices: {v}"),
    ("age_policy", "Age policy: {v}"),
    ("phone", "Phone: {v}"),
    ("features", "Features: {v}"),
]
_GAMING: FieldPlan = [
    ("type", "Type: {v}"),
    ("location", "Located in {v}"),
    ("games", "Games offered: {v}"),
    ("hours", "Hours: {v}"),
    ("min_age", "Minimum age: {v}"),
    ("features", "Features: {v}"),
]
_PROMOTION: FieldPlan = [
    ("type", "Type: {v}"),
    ("requirements", "Requirements: {v}"),
    ("benefits", "Benefits: {v}"),
    ("how_to_join", "How to join: {v}"),
    ("valid", "Valid: {v}"),
]
_FAQ: FieldPlan = [("question", "Question: {v}"), ("answer", "Answer: {v}")]

# The facts a guest asks about come first; the description follows them.
_PLANS: dict[str, FieldPlan] = {
    "restaurants": _RESTAURANT,
    "dining": _RESTAURANT,
    "entertainment": _ENTERTAINMENT,
    "hotel": _HOTEL,
    "amenities": _AMENITY,
    "gaming": _GAMING,
    "promotions": _PROMOTION,
    "faq": _FAQ,
}


# "$$$$" means nothing to an embedding model or to BM25; guests say "cheap" or "fancy".
_PRICE_WORDS = {
    1: "inexpensive, budget-friendly",
    2: "moderately priced",
    3: "upscale",
    4: "luxury fine dining, the most expensive tier",
}


def _price_words(value: Any) -> str | None:
    text = _text(value)
    tier = len(text) - len(text.lstrip("$"))
    return _PRICE_WORDS.get(tier)


def _format_with_plan(name: str, fields: dict[str, Any], plan: FieldPlan) -> str:
    parts = [f"{name}:"]
    used = set(_META_FIELDS)
    for key, template in plan:
        value = fields.get(key)
        used.add(key)
        if value in (None, "", []):
            continue
        parts.append(_sentence(template.format(v=_text(value))))
        if key == "price_range" and (words := _price_words(value)):
            parts.append(_sentence(f"Price level: {words}"))
    description = fields.get("description")
    used.add("description")
    # A description that only repeats what the fields already said (an FAQ's summary of its
    # answer) would cost the model context tokens and say nothing new.
    if description and _text(description).rstrip(".").casefold() not in " ".join(parts).casefold():
        parts.append(_sentence(_text(description)))
    # Anything the plan does not name is still content: keep it, labelled.
    for key, value in fields.items():
        if key in used or key == "question" or value in (None, "", []):
            continue
        parts.append(_sentence(f"{_label(key)}: {_text(value)}"))
    return " ".join(parts)


def format_item(category: str, name: str, fields: dict[str, Any]) -> str:
    """The text of one item, as it is embedded and shown to the model."""
    return _format_with_plan(name, fields, _PLANS.get(category, []))


def item_details(category: str, fields: dict[str, Any]) -> str:
    """An item as a reader sees it (markdown): its description, then each field on its own
    labelled line, the fields a guest asks about first. For a person opening the item, where
    `format_item` is one run-on paragraph written for the embedding model."""
    keys = [key for key, _ in _PLANS.get(category, [])]
    keys += [key for key in fields if key not in keys]
    lines = [
        f"- **{_label(key)}:** {_text(fields[key])}"
        for key in keys
        if key not in _META_FIELDS
        and key != "description"
        and fields.get(key) not in (None, "", [])
    ]
    description = _text(fields.get("description") or "")
    return "\n\n".join(part for part in (description, "\n".join(lines)) if part)
