"""The casino host's speed figures (issue 18 targets), measured side by side in one run:

- gate: the compliance gate alone per message (every labelled guardrail message, three
  rounds), p50/p95 ms (target p95 < 5 ms);
- turn overhead: a whole turn through the service (storage, gate, router, extraction, tools,
  validation, envelope) with a scripted model that answers at once, so the figure is the
  turn's own cost without inference (target p50 < 20 ms); beside it, in the same run, the MiniLM
  query embedding the router and the search each make per turn.
End-to-end turns with the embedded model are measured by `frontdesk eval casino_host`
(turn_p50_s / turn_p95_s), which runs the shipped conversations.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from frontdesk.assistants.casino_host.build import build_service
from frontdesk.assistants.casino_host.compliance import check
from frontdesk.assistants.casino_host.evaluation.conversations import DEV_CONVERSATIONS, EVAL_DIR
from frontdesk.config import get_settings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.runtime import Models

ROUNDS = 3


def _pct(values: list[float], q: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q / 100))]


def bench_gate() -> dict:
    texts = [
        json.loads(line)["text"]
        for name in ("guardrails.jsonl", "guardrails_heldout.jsonl")
        for line in (EVAL_DIR / name).read_text().splitlines()
        if line.strip()
    ]
    timings = []
    for _ in range(ROUNDS):
        for text in texts:
            started = time.perf_counter()
            check(text)
            timings.append((time.perf_counter() - started) * 1000)
    return {
        "messages": len(texts) * ROUNDS,
        "p50_ms": round(_pct(timings, 50), 3),
        "p95_ms": round(_pct(timings, 95), 3),
        "max_ms": round(max(timings), 3),
    }


def _turn_texts() -> list[str]:
    return [
        json.loads(line)["turns"][0]["text"]
        for line in DEV_CONVERSATIONS.read_text().splitlines()
        if line.strip()
    ]


async def bench_turns(tmp: Path) -> dict:
    base = get_settings()
    settings = base.model_copy(
        update={
            "data_dir": tmp,
            "models_dir": base.models_dir,
            "checkpointer": "sqlite",
            "router_llm": "never",
        }
    )
    models = Models(settings, chat_override=ScriptedChatModel(script=lambda _: "Happy to help."))
    service = await build_service(settings, models)
    service.clock = lambda: datetime(2026, 11, 25, 20, 0, tzinfo=UTC)
    texts = _turn_texts()
    turns_ms, embed_ms = [], []
    try:
        for round_ in range(2):  # the first round warms caches and creates the guests
            turns_ms.clear()
            embed_ms.clear()
            for index, text in enumerate(texts):
                guest = f"+1860555{index:04d}"
                started = time.perf_counter()
                await service.ask(text, f"bench-{round_}-{index}", user_id=guest)
                turns_ms.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()  # a text not embedded before: no cache hit
                models.embeddings.embed_query(f"{text} ({round_}.{index})")
                embed_ms.append((time.perf_counter() - started) * 1000)
    finally:
        await service.aclose()
    return {
        "turns": len(turns_ms),
        "p50_ms": round(statistics.median(turns_ms), 1),
        "p95_ms": round(_pct(turns_ms, 95), 1),
        "query_embedding_p50_ms": round(statistics.median(embed_ms), 1),
    }


def bench_casino_host(tmp: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="frontdesk-casino-host-") as name:
        return {
            "gate": bench_gate(),
            "turn_overhead": asyncio.run(bench_turns(Path(tmp or name))),
        }


if __name__ == "__main__":
    print(json.dumps(bench_casino_host(), indent=2))
