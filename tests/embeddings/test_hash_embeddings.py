"""HashEmbeddings: deterministic, normalised, and similar texts land close together."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from frontdesk.embeddings import HashEmbeddings


def cosine(a, b) -> float:
    return float(np.dot(a, b))


def test_vectors_are_384_dims_and_unit_length():
    vectors = np.array(HashEmbeddings().embed_documents(["The spa opens at nine.", "x", "!!!", ""]))
    assert vectors.shape == (4, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_same_text_same_vector_across_processes():
    text = "Late check-out costs thirty euros."
    here = HashEmbeddings().embed_query(text)
    code = (
        "import json; from frontdesk.embeddings import HashEmbeddings; "
        f"print(json.dumps(HashEmbeddings().embed_query({text!r})))"
    )
    # A fresh interpreter has a different str-hash seed: the vector must not depend on it.
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert np.allclose(here, np.array(json.loads(out.stdout)), atol=1e-6)


def test_texts_sharing_words_are_closer_than_unrelated_ones():
    e = HashEmbeddings()
    query = e.embed_query("When does breakfast start?")
    related = e.embed_query("Breakfast starts at seven")
    unrelated = e.embed_query("Parking garage fees per night")
    assert cosine(query, related) > cosine(query, unrelated) + 0.2


def test_character_trigrams_match_word_variants():
    e = HashEmbeddings()
    base = e.embed_query("reservation")
    assert cosine(base, e.embed_query("reservations")) > cosine(base, e.embed_query("elevator"))


def test_documents_and_queries_agree():
    e = HashEmbeddings()
    assert e.embed_documents(["a b c"])[0] == e.embed_query("a b c")


def test_bad_input_is_refused_clearly():
    e = HashEmbeddings()
    with pytest.raises(TypeError, match="list of strings"):
        e.embed_documents("one string")
    with pytest.raises(TypeError, match="embeds strings"):
        e.embed_query(42)
    with pytest.raises(ValueError, match="dimensions"):
        HashEmbeddings(dimensions=1)
