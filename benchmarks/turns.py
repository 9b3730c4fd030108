"""Time per turn for each assistant, with the real embedded model, side by side in one run.

    PYTHONPATH=src .venv/bin/python -m benchmarks.turns [--per-assistant 20] [--assistants a,b]
    .venv/bin/python -m benchmarks.run --only turns

For each assistant: a fresh data dir, its knowledge indexed first (not timed), one warm-up
turn, then `--per-assistant` questions asked one after another, each on a new conversation,
through the same `AssistantService.ask` the server and `frontdesk ask` use, each under the
server's turn clock (`FRONTDESK_SSE_TIMEOUT_S` of running time; before the twelfth session
the benchmark set no clock, so it could not count a turn out of time). The questions are
an even sample of the assistant's own labelled set (answers, SQL for the analyst, the first
text of each conversation for the casino host, asked at that conversation's casino), so every
kind of question in it is represented. Code QA is asked about the shipped repositories its
set was written on (requests and click, indexed first), not Frontdesk's own source. Reported per assistant: p50/p95/max seconds to the
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
from dataclasses import dataclass
from pathlib import Path

from benchmarks.run import pct
from frontdesk.llm.turn_clock import turn_clock_scope

# Each assistant's questions come from the set it is measured on; the first file found is used.
QUESTION_SETS = ("answers.jsonl", "sql.jsonl", "conversations.jsonl")
ASSISTANTS = ("concierge", "telecom", "analyst", "codeqa", "casino_host")


@dataclass(frozen=True)
class Question:
    """A question and what it is asked of: a repository (code QA) or a casino; None: the
    assistant's default."""

    text: str
    scope: str | None = None


def first_question(row: dict) -> Question | None:
    """A labelled row's question. Rows of a multi-turn thread are skipped: alone, a follow-up is
    not the question it was written as; a conversation gives its first text."""
    if "turns" in row:
        return Question(row["turns"][0]["text"], row.get("casino_id"))
    if row.get("thread"):
        return None
    return Question(row["question"], row.get("repo"))


def sample_questions(eval_dir: Path, count: int) -> list[Question]:
    """`count` questions spread evenly over the assistant's labelled set."""
    for name in QUESTION_SETS:
        path = eval_dir / name
        if path.exists():
            rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
            questions = [q for q in map(first_question, rows) if q is not None]
            step = max(1, len(questions) // count)
            return questions[::step][:count]
    raise FileNotFoundError(f"no labelled questions in {eval_dir} ({', '.join(QUESTION_SETS)})")


def index_shipped_repositories(settings, models, folder: Path) -> dict:
    """Code QA's set is about the shipped sdists: index them into the assistant's own index
    (set-up, not timed) and keep the service from indexing Frontdesk's source on start."""
    from frontdesk.assistants.codeqa.evaluation import prepare_repositories
    from frontdesk.assistants.codeqa.service import open_index

    prepare_repositories(open_index(settings, models), folder)
    return {"codeqa": {"index_on_start": False}}


async def time_assistant(name: str, data_dir: Path, count: int, models) -> dict:
    from frontdesk.assistants.registry import load_services, plugin
    from frontdesk.config import Settings

    found = plugin(name)
    settings = Settings(
        data_dir=data_dir, models_dir=Settings().models_dir, assistant=name, _env_file=None
    )
    if name == "codeqa":
        extra = index_shipped_repositories(settings, models, data_dir / "codeqa-repos")
        settings = settings.model_copy(update={"plugin_settings": extra})
    elif found.open_knowledge is not None:  # indexing is set-up, not a turn
        found.open_knowledge(settings, models, ingest_mode="if_changed")
    service = (await load_services(settings, models, [name]))[name]
    questions = sample_questions(found.eval_dir, count)
    timings: list[float] = []
    out_of_time = errors = 0
    try:
        # warm-up: prompt cache, ONNX sessions
        await service.ask(questions[0].text, str(uuid.uuid4()), scope=questions[0].scope)
        for question in questions:
            started = time.perf_counter()
            try:
                # The server's turn clock (FRONTDESK_SSE_TIMEOUT_S of running time): past it a
                # turn answers out of time, as a user in the web UI would see it.
                with turn_clock_scope(settings.sse_timeout_s):
                    answer = await service.ask(
                        question.text, str(uuid.uuid4()), scope=question.scope
                    )
            except Exception:  # noqa: BLE001 - a failed turn is counted, and the run goes on
                errors += 1
                continue
            timings.append(time.perf_counter() - started)
            out_of_time += bool(answer.extra.get("out_of_time"))
            # The answer's start beside its time: under load, a reader checks each came from
            # the model or the facts (`out_of_time` marks the rest).
            said = " ".join(answer.answer.split())[:90]
            late = " [out of time]" if answer.extra.get("out_of_time") else ""
            print(f"{name}: {timings[-1]:6.1f} s{late}  {question.text[:60]}\n    -> {said}",
                  flush=True)  # fmt: skip
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
