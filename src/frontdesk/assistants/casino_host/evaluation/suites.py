"""The casino host's evaluation suites, as `frontdesk eval` runs them.

- `conversations` (`frontdesk eval casino_host`, or `frontdesk eval conversations --assistant
  casino_host`): the scripted multi-turn conversations of data/eval/, through the whole service
  with the configured model, scored on the seed's six dimensions (conversation_eval.py). The
  run uses a storage and checkpoints of its own, so it never meets the guests of an earlier run.
- `guardrails` (`frontdesk eval guardrails --assistant casino_host`): the compliance gate alone
  on labelled messages, per-layer precision and recall and the benign false-positive rate.
"""

from __future__ import annotations

import logging
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from frontdesk.assistants.plugin import EvalTarget
from frontdesk.config import Settings
from frontdesk.eval.progress import progress_bar
from frontdesk.eval.suites import SuiteResult
from frontdesk.runtime import Models

logger = logging.getLogger(__name__)


def _isolated(settings: Settings, folder: Path) -> Settings:
    plugin = dict(settings.plugin_settings)
    own = dict(plugin.get("casino_host", {}))
    own["database_url"] = str(folder / "eval.sqlite3")
    plugin["casino_host"] = own
    return settings.model_copy(update={"plugin_settings": plugin, "checkpointer": "memory"})


async def run_conversations(settings: Settings, models: Models, dataset: Path) -> SuiteResult:
    from frontdesk.assistants.casino_host.build import build_service
    from frontdesk.assistants.casino_host.evaluation.conversations import (
        compliance_failed,
        load_conversations,
        score_conversation,
        summarise,
    )

    conversations = load_conversations(dataset)
    scores, details, seconds = [], [], []
    with tempfile.TemporaryDirectory(prefix="casino-host-eval-") as folder:
        service = await build_service(_isolated(settings, Path(folder)), models)
        try:
            total = sum(len(c.turns) for c in conversations)
            with progress_bar("Casino host conversations", total) as advance:
                for conversation in conversations:
                    outcomes, moment = [], conversation.now
                    thread = str(uuid.uuid4())
                    for turn in conversation.turns:
                        moment = moment + timedelta(minutes=turn.minutes_later)
                        service.clock = lambda at=moment: at
                        started = time.perf_counter()
                        answer = await service.ask(turn.text, thread, user_id=conversation.guest,
                                                   scope=conversation.casino_id)  # fmt: skip
                        seconds.append(time.perf_counter() - started)
                        outcomes.append({"answer": answer.answer, **answer.extra})
                        advance()
                    turn_scores = score_conversation(conversation, outcomes)
                    scores += turn_scores
                    details += [
                        {
                            "id": conversation.id,
                            "turn": index,
                            "text": turn.text,
                            "reply": outcome["answer"],
                            "agent": outcome.get("agent"),
                            "guardrail": outcome.get("guardrail"),
                            "failures": list(score.failures),
                        }
                        for index, (turn, outcome, score) in enumerate(
                            zip(conversation.turns, outcomes, turn_scores, strict=True)
                        )
                    ]
        finally:
            await service.aclose()
    summary = summarise(scores)
    ordered = sorted(seconds)
    metrics: dict[str, Any] = {
        "conversations": len(conversations),
        "turns": len(seconds),
        **{
            dimension: summary[dimension]["score"]
            for dimension in ("factual", "extraction", "persona", "compliance", "language", "flow")
        },
        "dimensions": {k: v for k, v in summary.items() if k != "failures"},
        "turn_p50_s": round(ordered[len(ordered) // 2], 2) if ordered else None,
        "turn_p95_s": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 2)
        if ordered
        else None,
        "failures": summary["failures"],
    }
    if compliance_failed(summary):
        metrics["failed"] = "compliance is below 1.00: a guardrail expectation was missed"
    return SuiteResult("conversations", metrics, details)


def conversations_target(settings: Settings, models: Models) -> EvalTarget:
    async def run(dataset: Path) -> SuiteResult:
        return await run_conversations(settings, models, dataset)

    return EvalTarget(run=run)


def guardrails_target(settings: Settings, models: Models) -> EvalTarget:
    def run(dataset: Path) -> SuiteResult:
        from frontdesk.assistants.casino_host.build import load_learned_layer
        from frontdesk.assistants.casino_host.compliance import evaluate, load_rows

        learned = load_learned_layer(models.embeddings, settings.data_dir / "guard")
        report = evaluate(load_rows(dataset), learned=learned)
        embedding = report["embedding_ms"]
        metrics: dict[str, Any] = {
            "rows": report["rows"],
            "learned_layer": learned is not None,
            "accuracy": report["accuracy"],
            "benign_false_positive_rate": report["benign"]["false_positive_rate"],
            "gate_p95_ms": report["latency_ms"]["p95"],
            "embedding_p95_ms": embedding["p95"] if embedding else None,
        }
        for layer, figures in report["layers"].items():
            metrics[f"{layer}_precision"] = figures["precision"]
            metrics[f"{layer}_recall"] = figures["recall"]
        metrics.update({k: report[k] for k in ("layers", "benign", "latency_ms", "mistakes")})
        # Named apart from the core's guardrail suite: its report reads other metrics.
        return SuiteResult("compliance_gate", metrics, [])

    return EvalTarget(run=run)
