"""The labelled injection data the guard is trained and measured on, shipped in `data/`.

Every file is JSONL, one `{"text", "label": injection|benign|unsafe, "source"}` per line.
`data/README.md` names each file's origin and license. The held-out files are never trained on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

DATA_DIR = Path(__file__).parent / "data"
# What the learned layer trains on, in this order (the order fixes the weights bit for bit).
TRAINING_FILES = ("injection_dev.jsonl", "project_sets.jsonl", "written_train.jsonl")
# Own rows written before any tuning: reported beside the tuning figures, never trained on.
# The code questions were written before the guard was trained on any (issue 17).
HELDOUT_FILES = ("written_heldout.jsonl", "written_heldout_code.jsonl")
LABELS = ("injection", "benign", "unsafe")
# Payloads that read as harmless requests on their own ("Recommend a good book"): attacks only
# when hidden in a document, so they are measured embedded (screening) and never trained on.
EMBEDDED_ONLY_SOURCES = frozenset({"bipia-text-task-irrelevant"})


class DatasetError(ValueError):
    """A labelled file that cannot be read; the message names the file and line."""


@dataclass(frozen=True)
class LabelledRow:
    text: str
    label: str
    source: str

    @property
    def is_attack(self) -> bool:
        return self.label == "injection"


def _parse_row(line: str, where: str) -> LabelledRow:
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        raise DatasetError(f"{where}: not valid JSON ({error.msg})") from None
    text = row.get("text") if isinstance(row, dict) else None
    if type(text) is not str:
        raise DatasetError(f"{where}: expected an object with a string 'text'")
    if row.get("label") not in LABELS:
        raise DatasetError(f"{where}: label must be one of {LABELS}, got {row.get('label')!r}")
    return LabelledRow(text=text, label=row["label"], source=str(row.get("source", "unknown")))


def load_rows(path: Path) -> list[LabelledRow]:
    """Read and validate the labelled rows; a bad line is reported with its number."""
    with Path(path).open(encoding="utf-8") as handle:
        return [
            _parse_row(line, f"{path}:{number}")
            for number, line in enumerate(handle, start=1)
            if line.strip()
        ]


def training_rows(data_dir: Path = DATA_DIR) -> list[LabelledRow]:
    """All shipped rows the learned layer may see (embedded-only and unsafe rows included:
    `trainable` decides what a fit uses)."""
    return [row for name in TRAINING_FILES for row in load_rows(data_dir / name)]


def heldout_rows(data_dir: Path = DATA_DIR) -> list[LabelledRow]:
    return [row for name in HELDOUT_FILES for row in load_rows(data_dir / name)]


def trainable(row: LabelledRow) -> bool:
    """Rows a fit learns from: injections and benign rows. Unsafe rows (harmful requests with no
    injection technique) are the output checks' business and are reported apart."""
    return row.label != "unsafe" and row.source not in EMBEDDED_ONLY_SOURCES


class TextLabelSource(Protocol):
    """Any labelled row (`LabelledRow`, `multilabel.LabelledText`): what a digest covers."""

    @property
    def text(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def source(self) -> str: ...


def rows_digest(rows: Sequence[TextLabelSource]) -> str:
    """Identifies a training set: weights trained on other rows are stale."""
    payload = json.dumps([(r.text, r.label, r.source) for r in rows], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]
