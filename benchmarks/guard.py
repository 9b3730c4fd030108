"""The injection guard's cost per message over the shared dev set (962 rows) and the written
held-out rows: the guard given the embedding already computed (rules + one dot product: the
cost the guard adds to a turn, target p95 < 5 ms), and with the MiniLM embedding computed
cold (query cache cleared), which the router then reuses."""

from __future__ import annotations

import time

import numpy as np

from frontdesk.config import Settings
from frontdesk.embeddings import MiniLMEmbeddings
from frontdesk.guardrails.datasets import DATA_DIR, heldout_rows, load_rows
from frontdesk.guardrails.guard import InjectionGuard


def _percentiles(seconds: list[float]) -> dict[str, float]:
    ms = np.array(seconds) * 1000
    return {
        "p50_ms": round(float(np.percentile(ms, 50)), 3),
        "p95_ms": round(float(np.percentile(ms, 95)), 3),
        "max_ms": round(float(ms.max()), 3),
    }


def bench_guard(data_dir=None) -> dict:
    embeddings = MiniLMEmbeddings.from_settings(Settings())
    guard = InjectionGuard.load(embeddings, data_dir=data_dir)
    texts = [r.text for r in load_rows(DATA_DIR / "injection_dev.jsonl") + heldout_rows()]
    vectors = embeddings.embed_array(texts)
    beyond, with_embedding = [], []
    for text, vector in zip(texts, vectors):
        start = time.perf_counter()
        # What check() does besides embedding: the rules, then the learned layer.
        if not guard.check_rules(text).flagged:
            guard.check_learned(vector)
        beyond.append(time.perf_counter() - start)
    embeddings.clear_query_cache()
    for text in texts:
        start = time.perf_counter()
        guard.check(text)  # a turn's guard: rules, then (if they pass) embedding + learned
        with_embedding.append(time.perf_counter() - start)
    return {
        "messages": len(texts),
        "beyond_embedding": _percentiles(beyond),
        "with_embedding": _percentiles(with_embedding),
    }


if __name__ == "__main__":
    import json

    print(json.dumps(bench_guard(), indent=2))
