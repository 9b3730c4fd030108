"""`frontdesk eval feedback`: what people thought of the answers (thumbs and comments)."""

from __future__ import annotations

from typing import Any

from frontdesk.config import Settings
from frontdesk.memory.threads import ThreadStore


def feedback_report(settings: Settings, assistant: str | None = None) -> list[dict[str, Any]]:
    """Per assistant: up, down, the share of answers liked, and the latest comments."""
    if not settings.threads_path.exists():
        return []
    store = ThreadStore(settings.threads_path)
    try:
        counts = store.feedback_counts_sync()
    finally:
        store.close()
    rows = []
    for count in counts:
        if assistant and count.assistant != assistant:
            continue
        total = count.up + count.down
        rows.append(
            {
                "assistant": count.assistant,
                "up": count.up,
                "down": count.down,
                "liked": round(count.up / total, 3) if total else None,
                "comments": [{"rating": r, "comment": c} for r, c in count.comments],
            }
        )
    return rows
