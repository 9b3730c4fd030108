"""Time per turn for each assistant, with the real embedded model, side by side in one run.

    PYTHONPATH=src .venv/bin/python -m benchmarks.turns [--per-assistant 20] [--assistants a,b]
    .venv/bin/python -m benchmarks.run --only turns

For each assistant: a fresh data dir, its knowledge indexed first (not timed), one warm-up
turn, then `--per-assistant` questions asked one after another, each on a new conversation,
through the same `AssistantService.ask` the server and `frontdesk ask` use. The questions are
an even sample of the assistant's own labelled set (answers, or SQL for the analyst), so every
kind of question in it is represented. Reported per assistant: p50/p95/max seconds to the
finished answer, turns that ended out of time, and turns that raised. The assistants run one
after another in the same process, so their figures are taken in the same stretch of machine
time (these VMs drift by a factor of two); the model itself is loaded once and shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
import uuid
from pathlib import Path

from benchmarks.run import pct

# Each assistant's questions come from the set it is measured on; the first file found is used.
QUESTION_SETS = ("answers.jsonl", "sql.jsonl")
ASSISTANTS = ("concierge", "telecom", "analyst")


def sample_questions(eval_dir: Path, count: int) -> list[str]:
    """`count` single-turn questions spread evenly over the assistant's labelled set (rows of a
    multi-turn thread are skipped: alone, a follow-up is not the question it was written as)."""
    for name in QUESTION_SETS:
        path = eval_dir / name
        if path.exists():
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            questions = [row["question"] for row in rows if not row.get("thread")]
            step = max(1, len(questions) // count)
            return questions[::step][:count]
    raise FileNotFoundError(f"no labelled questions in {eval_dir} ({', '.join(QUESTION_SETS)})")


async def time_assistant(name: str, data_dir: Path, count: int, models) -> dict:
    from frontdesk.assistants.registry import load_services, plugin
    from frontdesk.config import Settings

    found = plugin(name)
    settings = Settings(
        data_dir=data_dir, models_dir=Settings().models_dir, assistant=name, _env_file=None
    )
    if found.open_knowledge is not None:  # indexing is set-up, not a turn
        found.open_knowledge(settings, models, ingest_mode="if_changed")
    service = (await load_services(settings, models, [name]))[name]
    questions = sample_questions(found.eval_dir, count)
    timings: list[float] = []
    out_of_time = errors = 0
    try:
        await service.ask(questions[0], str(uuid.uuid4()))  # warm-up: prompt cache, ONNX sessions
        for question in questions:
            started = time.perf_counter()
            try:
                answer = await service.ask(question, str(uuid.uuid4()))
            except Exception:  # noqa: BLE001 - a failed turn is counted, and the run goes on
                errors += 1
                continue
            timings.append(time.perf_counter() - started)
            out_of_time += bool(answer.extra.get("out_of_time"))
            print(f"{name}: {timings[-1]:6.1f} s  {question[:70]}", flush=True)
    finally:
        await service.aclose()
    return {
        "turns": len(questions),
        "p50_s": round(pct(timings, 50), 1) if timings else None,
        "p95_s": round(pct(timings, 95), 1) if timings else None,
        "max_s": round(max(timings, default=0), 1),
        "out_of_time": out_of_time,
        "errors": errors,
    }


async def run_turns(assistants: list[str], count: int) -> dict:
    from frontdesk.config import Settings
    from frontdesk.runtime import Models

    results: dict = {"per_assistant": count}
    with tempfile.TemporaryDirectory(prefix="frontdesk-turns-") as tmp:
        settings = Settings(data_dir=Path(tmp), models_dir=Settings().models_dir, _env_file=None)
        models = Models(settings)  # one chat model and one embedding model, as the server has
        for name in assistants:
            results[name] = await time_assistant(name, Path(tmp), count, models)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-assistant", type=int, default=20)
    parser.add_argument("--assistants", default=",".join(ASSISTANTS))
    args = parser.parse_args()
    results = asyncio.run(run_turns(args.assistants.split(","), args.per_assistant))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
