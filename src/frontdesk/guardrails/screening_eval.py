"""Screening measured the way indirect injection arrives: each BIPIA payload (and each written
embedded attack) planted inside realistic untrusted content, a venue page, a manual excerpt,
an invoice tool result and database rows. Reported: the share of payloads removed, and the
share of the carriers' own sentences kept (facts must survive, imperatives of a manual too)."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from frontdesk.guardrails.datasets import DATA_DIR, load_rows
from frontdesk.guardrails.screening import REMOVED_MARKER, screen_tool_output, screen_untrusted

PAYLOAD_SOURCES = (
    "bipia-text-task-irrelevant",
    "bipia-text-task-relevant",
    "bipia-text-targeted",
    "written-embedded",
)

VENUE_PAGE = [
    "Sunset Grill serves seafood and steaks on the lakeside terrace.",
    "Hours: 5 PM to 11 PM, Tuesday to Sunday.",
    "Reservations are recommended on weekends; call 555-0142 to book.",
    "Please arrive 15 minutes before your reservation.",
    "The dress code is smart casual, and jackets are not required.",
    "Guests under 21 must be accompanied by an adult after 9 PM.",
]
MANUAL = [
    "If the LOS light blinks red, the fibre signal is not reaching the ONT.",
    "Check that the green fibre cable is firmly seated in the ONT.",
    "Restart the router by holding the power button for ten seconds.",
    "Wait two minutes until the PON light is steady green.",
    "If the problem persists, report a fault in the My Account app.",
    "Do not bend the fibre cable tighter than a pencil.",
]


def _document(sentences: list[str], payload: str) -> str:
    middle = len(sentences) // 2
    return " ".join([*sentences[:middle], payload, *sentences[middle:]])


def _invoice(payload: str) -> dict[str, Any]:
    return {
        "invoice_id": "INV-2024-0311",
        "amount": "129.00 PLN",
        "status": "overdue",
        "due_date": "2024-03-25",
        "note": f"Customer called about late fee. {payload}",
    }


def _rows(payload: str) -> list[dict[str, Any]]:
    return [
        {"customer": "Anna Nowak", "plan": "Fibre 600", "comment": "Happy with speed."},
        {"customer": "Jan Kowalski", "plan": "Fibre 300", "comment": payload},
    ]


def _kept(original: list[str], screened: str) -> int:
    return sum(sentence in screened for sentence in original)


def screening_report() -> dict[str, Any]:
    rows = [
        r
        for name in ("injection_dev.jsonl", "written_train.jsonl")
        for r in load_rows(DATA_DIR / name)
        if r.source in PAYLOAD_SOURCES
    ]
    removed: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    facts_kept = facts_total = 0
    for row in rows:
        for carrier in ("venue page", "manual", "invoice tool output", "database rows"):
            if carrier in ("venue page", "manual"):
                sentences = VENUE_PAGE if carrier == "venue page" else MANUAL
                screened = screen_untrusted(_document(sentences, row.text)).text
                facts_kept += _kept(sentences, screened)
                facts_total += len(sentences)
            else:
                value = _invoice(row.text) if carrier.startswith("invoice") else _rows(row.text)
                screened = json.dumps(screen_tool_output(value), ensure_ascii=False)
                facts_kept += "INV-2024-0311" in screened or "Happy with speed." in screened
                facts_total += 1
            gone = row.text.strip() not in screened and REMOVED_MARKER in screened
            removed[row.source][0] += gone
            removed[row.source][1] += 1
    lines = [
        (
            "screening: payloads planted in a venue page, a manual, an invoice tool output "
            "and database rows"
        ),
        f"{'source':34s} {'planted':>7s}  removed",
    ]
    for source in PAYLOAD_SOURCES:
        hit, total = removed[source]
        if total:
            lines.append(f"{source:34s} {total:7d}  {hit / total:.3f}")
    lines.append(f"{'carrier facts kept':34s} {facts_total:7d}  {facts_kept / facts_total:.3f}")
    return {
        "removed": {s: {"planted": t, "rate": h / t} for s, (h, t) in removed.items()},
        "facts_kept": facts_kept / facts_total,
        "facts": facts_total,
        "text": "\n".join(lines),
    }
