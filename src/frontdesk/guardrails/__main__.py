"""Measure the injection guardrail on a labelled JSONL file.

    python -m frontdesk.guardrails ../shared/datasets/injection_dev.jsonl [--show-misses] [--json]

Each line is {"text": str, "label": "injection"|"benign"|"unsafe", "source": str}. Prints the
detection rate on injection rows (with the sources named by --apart reported separately:
by default the BIPIA task-irrelevant payloads, which read as harmless requests on their own),
the false-positive rate on benign rows, the flag rate on unsafe rows, per-source and
per-family counts, and the time per message.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from frontdesk.guardrails import datasets
from frontdesk.guardrails.audit import audit_input
from frontdesk.guardrails.datasets import DatasetError

LABELS = ("injection", "benign", "unsafe")
DEFAULT_APART = ("bipia-text-task-irrelevant",)


def load_rows(path: Path) -> list[dict[str, str]]:
    """Read and validate the labelled rows (`datasets.load_rows`: a bad line is reported with
    its number), as the dicts this report counts."""
    return [
        {"text": row.text, "label": row.label, "source": row.source}
        for row in datasets.load_rows(path)
    ]


def _rate(hits: int, total: int) -> float | None:
    return hits / total if total else None


def evaluate(rows: list[dict[str, str]], apart: tuple[str, ...] = DEFAULT_APART) -> dict[str, Any]:
    """Audit every row and summarise; `apart` sources are left out of the detection rate."""
    by_source: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    families: Counter[str] = Counter()
    counts = {key: [0, 0] for key in ("injection", "injection_apart", "benign", "unsafe")}
    misses, false_positives, timings = [], [], []
    for row in rows:
        start = time.perf_counter()
        result = audit_input(row["text"])
        timings.append(time.perf_counter() - start)
        label, source = row["label"], row["source"]
        key = "injection_apart" if label == "injection" and source in apart else label
        counts[key][0] += result.flagged
        counts[key][1] += 1
        by_source[f"{source} ({label})"][0] += result.flagged
        by_source[f"{source} ({label})"][1] += 1
        if result.flagged:
            families[result.family or "?"] += 1
            if label == "benign":
                false_positives.append({**row, "family": result.family, "matched": result.matched})
        elif key == "injection":
            misses.append(row)
    timings.sort()
    return {
        "rows": len(rows),
        "detection_rate": _rate(*counts["injection"]),
        "injection_rows": counts["injection"][1],
        "apart_sources": list(apart),
        "apart_flag_rate": _rate(*counts["injection_apart"]),
        "apart_rows": counts["injection_apart"][1],
        "false_positive_rate": _rate(*counts["benign"]),
        "benign_rows": counts["benign"][1],
        "unsafe_flag_rate": _rate(*counts["unsafe"]),
        "unsafe_rows": counts["unsafe"][1],
        "per_source": {
            name: {"flagged": hit, "rows": total, "rate": hit / total}
            for name, (hit, total) in sorted(by_source.items())
        },
        "per_family": dict(families.most_common()),
        "mean_ms": 1000 * sum(timings) / len(timings) if timings else None,
        "p99_ms": 1000 * timings[int(0.99 * (len(timings) - 1))] if timings else None,
        "max_ms": 1000 * timings[-1] if timings else None,
        "misses": misses,
        "false_positives": false_positives,
    }


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def print_report(report: dict[str, Any], show_misses: bool) -> None:
    print(f"rows: {report['rows']}")
    print(
        f"detection rate (injection, excluding {', '.join(report['apart_sources'])}): "
        f"{_pct(report['detection_rate'])} of {report['injection_rows']}"
    )
    print(
        f"flag rate on apart sources: {_pct(report['apart_flag_rate'])} of {report['apart_rows']}"
    )
    false_positive = _pct(report["false_positive_rate"])
    print(f"false-positive rate (benign): {false_positive} of {report['benign_rows']}")
    unsafe = _pct(report["unsafe_flag_rate"])
    print(f"flag rate on unsafe (not required): {unsafe} of {report['unsafe_rows']}")
    print(
        f"time per message: mean {report['mean_ms']:.3f} ms, p99 {report['p99_ms']:.3f} ms, "
        f"max {report['max_ms']:.3f} ms"
    )
    print("\nper source:")
    for name, stats in report["per_source"].items():
        print(f"  {name:45s} {stats['flagged']:4d}/{stats['rows']:<4d} {_pct(stats['rate'])}")
    print("\nper family (flagged rows):")
    for name, count in report["per_family"].items():
        print(f"  {name:25s} {count}")
    for row in report["false_positives"]:
        print(f"\nFALSE POSITIVE [{row['source']}] {row['family']}: {row['matched']!r}")
        print(f"  {row['text'][:200]!r}")
    if show_misses:
        for row in report["misses"]:
            print(f"\nMISS [{row['source']}]: {row['text'][:300]!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m frontdesk.guardrails", description=__doc__.split("\n")[0]
    )
    parser.add_argument("file", type=Path, help="labelled JSONL file (text, label, source)")
    parser.add_argument(
        "--apart",
        nargs="*",
        default=list(DEFAULT_APART),
        help="injection sources reported apart from the detection rate",
    )
    parser.add_argument(
        "--show-misses", action="store_true", help="print undetected injection rows"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    if not args.file.is_file():
        parser.error(f"no such file: {args.file}")
    try:
        rows = load_rows(args.file)
    except DatasetError as error:
        parser.error(str(error))
    report = evaluate(rows, tuple(args.apart))
    if args.json:
        summary = {
            key: value for key, value in report.items() if key not in ("misses", "false_positives")
        }
        summary["false_positives"] = [
            {"text": r["text"], "family": r["family"]} for r in report["false_positives"]
        ]
        json.dump(summary, sys.stdout, indent=2)
        print()
    else:
        try:
            print_report(report, args.show_misses)
        except BrokenPipeError:  # Output piped into `head`: nothing left to print to.
            sys.stderr.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
