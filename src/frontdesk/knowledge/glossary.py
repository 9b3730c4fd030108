"""Query translation by glossary: a question in one language rewritten in the words of
documents written in another, so an embedder that knows one language finds them.

The embedded MiniLM model is an English model: a Polish question ("Dioda PON miga na
czerwono") lands near whatever Polish text the knowledge has, not near the English section
that answers it ("PON LED blinking red"). A glossary maps the question's words to the
documents' words; the retriever searches with both the question and its rendering.

Glossary file: one entry per line, source words, a tab, target words (empty: a word that
carries no topic, dropped). A source word ending in `*` matches any word it begins
(inflected forms: "diod*" matches "dioda", "diody"); other words match exactly. Matching is
case-insensitive; the longest entry starting at a word wins. Blank lines and `#` comments are
ignored. Words no entry matches are kept as written (product names, "PON", "APN").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from frontdesk.errors import FrontdeskError

# A guest's Spanish in the English words of a resort's guide: the concierge and the casino host
# read Spanish questions through it (its header says how it was written).
SPANISH_RESORT_GLOSSARY = Path(__file__).parent / "data" / "glossary_es_en.tsv"

_WORD = re.compile(r"[\w][\w\-./:]*", re.UNICODE)


class GlossaryError(FrontdeskError):
    """A glossary file is missing or has a malformed line."""


@dataclass(frozen=True)
class Entry:
    source: tuple[str, ...]  # lower-cased words; a trailing "*" marks a prefix
    target: str

    def matches(self, words: list[str], start: int) -> bool:
        if start + len(self.source) > len(words):
            return False
        for pattern, word in zip(self.source, words[start : start + len(self.source)], strict=True):
            if pattern.endswith("*"):
                if not word.startswith(pattern[:-1]):
                    return False
            elif word != pattern:
                return False
        return True


class Glossary:
    def __init__(self, entries: list[Entry]):
        # Longest first (more words, then longer words), so "tryb most*" beats "most*".
        self.entries = sorted(
            entries, key=lambda e: (len(e.source), sum(map(len, e.source))), reverse=True
        )
        self._by_first: dict[str, list[Entry]] = {}
        for entry in self.entries:
            self._by_first.setdefault(entry.source[0][:2].rstrip("*"), []).append(entry)

    @classmethod
    def load(cls, path: str | Path) -> Glossary:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise GlossaryError(f"{path}: cannot read the glossary ({exc.strerror})") from None
        entries = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            source, _, target = line.partition("\t")
            words = tuple(source.lower().split())
            if not words or any(w == "*" for w in words):
                raise GlossaryError(f"{path}:{number}: an entry needs source words")
            entries.append(Entry(words, " ".join(target.split())))
        if not entries:
            raise GlossaryError(f"{path}: the glossary has no entries")
        return cls(entries)

    def translate(self, text: str) -> str | None:
        """`text` in the glossary's target words, or None when no entry matched."""
        # "hoy." at a sentence's end is "hoy"; inside a word the marks stay ("wi-fi", "5.5").
        words = [w.lower().rstrip("-./:") for w in _WORD.findall(text)]
        out: list[str] = []
        matched = False
        position = 0
        while position < len(words):
            entry = self._entry_at(words, position)
            if entry is None:
                out.append(words[position])
                position += 1
                continue
            matched = True
            if entry.target:
                out.append(entry.target)
            position += len(entry.source)
        return " ".join(out) if matched else None

    @functools.cached_property
    def target_words(self) -> frozenset[str]:
        """Every word the glossary renders into: the documents' everyday vocabulary."""
        return frozenset(w for e in self.entries for w in re.findall(r"[a-z]+", e.target.lower()))

    def unknown_words(self, text: str) -> list[str]:
        """The words of `text` no entry covers: kept as written by `translate`, so a rendering
        with any of them is only partly in the target language."""
        words = [w.lower().rstrip("-./:") for w in _WORD.findall(text)]
        unknown, position = [], 0
        while position < len(words):
            entry = self._entry_at(words, position)
            if entry is None:
                unknown.append(words[position])
            position += len(entry.source) if entry is not None else 1
        return unknown

    def _entry_at(self, words: list[str], position: int) -> Entry | None:
        for entry in self._by_first.get(words[position][:2], []):
            if entry.matches(words, position):
                return entry
        # Entries of one letter ("w", "z") are filed under that letter.
        for entry in self._by_first.get(words[position][:1], []):
            if len(entry.source[0].rstrip("*")) < 2 and entry.matches(words, position):
                return entry
        return None
