"""A text's spelling beside its meaning: hashed character n-grams next to its sentence
embedding, for the learned classifiers (`multilabel.py`).

The embedding model reads English well and Spanish, slang and typos less well: "xq perdi la
renta" and "lo de la renta se fue en la ruleta" land far apart. Character 3- to 5-grams of
each word, accents and case folded, hashed into a fixed number of buckets, carry what the
words look like ("rent", "renta", "rentaa" share most of theirs). Measured on writers held out
(`multilabel_eval`), the two together caught more risky texts at the same rate of benign ones
flagged than either alone (docs/casino_host.md, the compliance gate's figures).

`WithLexical(embeddings)` is an `Embeddings`: each vector is the base embedding and the
lexical vector, each of unit length, side by side and scaled by 1/sqrt(2). Its queries go
through the base model's own `embed_query`, so a model that keeps recent queries embeds a
message once for the gate and the router alike.
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib

import numpy as np
from langchain_core.embeddings import Embeddings

DIMENSIONS = 1024
GRAM_SIZES = (3, 4, 5)
# Named in the weights' vector space: another hashing or size is another space.
LEXICAL_ID = f"chargrams{DIMENSIONS}-v1"
_NOT_A_WORD = re.compile(r"[^a-z0-9$]+")


def folded_words(text: str) -> list[str]:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_A_WORD.sub(" ", plain).split()


def lexical_vector(text: str, dimensions: int = DIMENSIONS) -> np.ndarray:
    """log(1 + count) of each word's character n-grams (the word marked at both ends) per
    hashed bucket, of unit length (zero for a text with no word)."""
    counts = np.zeros(dimensions)
    for word in folded_words(text):
        marked = f"<{word}>"
        for size in GRAM_SIZES:
            for start in range(max(1, len(marked) - size + 1)):
                gram = marked[start : start + size].encode("utf-8")
                counts[zlib.crc32(gram) % dimensions] += 1.0  # crc32: the same in every process
    vector = np.log1p(counts)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def _unit(vector: list[float]) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(array))
    return array / norm if norm else array


class WithLexical(Embeddings):
    """The base embedding and the lexical vector of a text, side by side."""

    def __init__(self, base: Embeddings, dimensions: int = DIMENSIONS):
        self.base = base
        self.dimensions = dimensions

    def _joined(self, vector: list[float], text: str) -> list[float]:
        both = np.concatenate([_unit(vector), lexical_vector(text, self.dimensions)])
        return (both / math.sqrt(2)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self._joined(self.base.embed_query(text), text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        vectors = self.base.embed_documents(texts)
        return [self._joined(vector, text) for vector, text in zip(vectors, texts, strict=True)]
