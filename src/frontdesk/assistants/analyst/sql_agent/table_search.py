"""The table selector's pre-filter: which of 120+ tables a question is most likely about.

Each table is described in words (its description, its name and columns split into words:
`workTime` -> "work time"), embedded once and cached on disk. A question's score for a table
is the cosine similarity of the two embeddings plus a bonus for each word of the table's name
the question contains ("technicians" names `technician`), which a small embedding model
weighs too little next to a long description. The model then chooses among the best few.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

NAME_WORD_BONUS = 0.25
# "active technicians" -> employee(isActive, isTechnician): each question word that is a word
# of one of a table's column names adds this much, up to COLUMN_BONUS_CAP.
COLUMN_WORD_BONUS = 0.06
COLUMN_BONUS_CAP = 0.18
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "in",
        "on",
        "for",
        "to",
        "and",
        "or",
        "by",
        "is",
        "are",
        "was",
        "were",
        "how",
        "many",
        "much",
        "what",
        "which",
        "who",
        "when",
        "where",
        "with",
        "from",
        "per",
        "each",
        "all",
        "any",
        "list",
        "show",
        "me",
        "give",
        "this",
        "that",
        "their",
        "id",
    ]
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|_+")
_WORD = re.compile(r"[a-z0-9]+")


def words_of_name(name: str) -> list[str]:
    """`workOrderLine` -> ["work", "order", "line"]; `invoice_items` -> ["invoice", "items"]."""
    return [w.lower() for w in _CAMEL.split(name) if w]


def _stem(word: str) -> str:
    """Plural to singular, enough for table and column names: "categories" -> "category",
    "branches" -> "branch", "statuses" -> "status", "employees" -> "employee"."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes", "uses")):
        return word[:-2]
    return word[:-1]


def table_text(name: str, description: str, columns: list[str]) -> str:
    readable = " ".join(words_of_name(name))
    cols = ", ".join(" ".join(words_of_name(c)) for c in columns[:40])
    return f"{readable}: {description}. Columns: {cols}"


class TableSearch:
    def __init__(
        self,
        embeddings: Embeddings,
        texts: Mapping[str, str],
        *,
        cache_dir: Path | None = None,
        embeddings_id: str = "",
        columns: Mapping[str, list[str]] | None = None,
    ):
        self.embeddings = embeddings
        self.names = list(texts)
        self._name_stems = {n: {_stem(w) for w in words_of_name(n)} for n in self.names}
        self._column_stems = {
            n: {_stem(w) for c in (columns or {}).get(n, []) for w in words_of_name(c)} - _STOP
            for n in self.names
        }
        self._vectors = self._load_or_embed(
            [texts[n] for n in self.names], cache_dir, embeddings_id
        )

    def _load_or_embed(self, docs: list[str], cache_dir: Path | None, embeddings_id: str):
        digest = hashlib.sha1(
            json.dumps([embeddings_id, self.names, docs]).encode("utf-8")
        ).hexdigest()[:16]
        path = cache_dir / f"table_vectors-{digest}.npy" if cache_dir else None
        if path is not None and path.exists():
            return np.load(path)
        vectors = _normalise(np.asarray(self.embeddings.embed_documents(docs), dtype=np.float32))
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(path, vectors)
        return vectors

    def scores(self, question: str) -> dict[str, float]:
        query = _normalise(np.asarray([self.embeddings.embed_query(question)], dtype=np.float32))
        similarity = (self._vectors @ query[0]).tolist()
        tokens = _WORD.findall(question.lower())
        # "workorders" or "work order": adjacent words joined match a name's words joined too.
        asked = {_stem(w) for w in tokens} | {_stem(a + b) for a, b in itertools.pairwise(tokens)}
        scored = {}
        for name, sim in zip(self.names, similarity, strict=True):
            stems = self._name_stems[name]
            joined = _stem("".join(words_of_name(name)))
            hits = len(stems & asked) + (1 if len(stems) > 1 and joined in asked else 0)
            named = NAME_WORD_BONUS * min(hits, len(stems)) / max(1, len(stems))
            column_hits = len(self._column_stems[name] & (asked - _STOP))
            scored[name] = (
                float(sim) + named + min(COLUMN_BONUS_CAP, COLUMN_WORD_BONUS * column_hits)
            )
        return scored

    def search(self, question: str, k: int) -> list[str]:
        scored = self.scores(question)
        return sorted(scored, key=lambda name: (-scored[name], name))[:k]


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


# -- the tables a question names -------------------------------------------------------------

MAX_NAMED_TABLES = 4


def _find(tokens: list[str], phrase: list[str]) -> list[tuple[int, int]]:
    n = len(phrase)
    return [(i, i + n) for i in range(len(tokens) - n + 1) if tokens[i : i + n] == phrase]


def named_tables(question: str, tables: list[str], columns: Mapping[str, list[str]]) -> list[str]:
    """The tables among `tables` the question names: by the table's name ("work order types"
    names `workOrderType`, longest names first, each word of the question used once); when
    it names none, by a column of two words or more that one table alone has ("hourly rate"
    names `employee` for `hourlyRate`). In the order of `tables`, at most MAX_NAMED_TABLES.

    Why: a 0.5B model given a join plan over every table chosen for context copies it whole
    (40 of 56 misses on the demo set joined 7-10 tables where the answer needed 1-3); the
    plan joins these tables only, and the others stay in the schema for columns.
    """
    tokens = [_stem(w) for w in _WORD.findall(question.lower())]
    used: set[int] = set()
    found: set[str] = set()
    by_length = sorted(tables, key=lambda t: (-len(words_of_name(t)), tables.index(t)))
    for table in by_length:
        for start, end in _find(tokens, [_stem(w) for w in words_of_name(table)]):
            if not used & set(range(start, end)):
                used |= set(range(start, end))
                found.add(table)
    if not found:
        holders: dict[str, list[str]] = {}
        for table in tables:
            for column in columns.get(table, []):
                holders.setdefault(column, []).append(table)
        for column, owners in holders.items():
            words = words_of_name(column)
            distinctive = len(owners) == 1 and len(words) > 1 and words[-1] != "id"
            if distinctive and _find(tokens, [_stem(w) for w in words]):
                found.add(owners[0])
    return [t for t in tables if t in found][:MAX_NAMED_TABLES]


def columns_for_prompt(columns: list[str], max_columns: int, question: str = "") -> list[str]:
    """At most `max_columns` of a table's columns for a prompt, in the table's order: keys
    first (id and *Id, for joins), then those the question names a word of, then the rest.

    Why: a table of 500 columns (exported spreadsheets, wide fact tables) cut at its first 50
    hides the one column the question is about, and the model then invents a name."""
    if len(columns) <= max_columns:
        return list(columns)
    asked = {_stem(w) for w in _WORD.findall(question.lower())} - _STOP

    def rank(column: str) -> int:
        words = words_of_name(column)
        if words and words[-1] == "id":
            return 0
        return 1 if asked & {_stem(w) for w in words} else 2

    kept = set(sorted(columns, key=lambda c: (rank(c), columns.index(c)))[:max_columns])
    return [c for c in columns if c in kept]
