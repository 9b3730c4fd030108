"""MiniLM ONNX embeddings on the real model (fast: ~23 MB int8), plus provider selection.

The real-model tests skip when the model is not installed (`frontdesk models install`).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from frontdesk.config import Settings
from frontdesk.embeddings import HashEmbeddings, MiniLMEmbeddings, build_embeddings
from frontdesk.embeddings.minilm import ONNX_MODEL, TOKENIZER
from frontdesk.model_files import ModelNotInstalledError, UnknownModelError, is_verified

INSTALLED_SETTINGS = Settings()  # the project's models dir (FRONTDESK_DATA_DIR to move it)
installed = all(
    is_verified(m.path(INSTALLED_SETTINGS.models_dir), m.sha256) for m in (ONNX_MODEL, TOKENIZER)
)
needs_model = pytest.mark.skipif(
    not installed, reason="MiniLM not installed: frontdesk models install"
)


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbeddings:
    return MiniLMEmbeddings.from_settings(INSTALLED_SETTINGS)


@needs_model
def test_similar_sentences_are_closer_than_unrelated_ones(minilm):
    query, paraphrase, unrelated = minilm.embed_array(
        [
            "What time is breakfast served?",
            "When can I get breakfast in the morning?",
            "Where do I park my car?",
        ]
    )
    assert query @ paraphrase > 0.6
    assert query @ paraphrase > query @ unrelated + 0.3


@needs_model
def test_vectors_are_normalised_384_dims(minilm):
    vectors = np.array(
        minilm.embed_documents(["spa", "A much longer sentence about the pool.", ""])
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


@needs_model
def test_batching_keeps_the_input_order(minilm):
    texts = [f"{'word ' * (i % 7)}sentence number {i}" for i in range(40)]  # > one batch
    together = minilm.embed_array(texts)
    alone = np.array([minilm.embed_query(t) for t in (texts[0], texts[33], texts[39])])
    assert np.allclose(together[[0, 33, 39]], alone, atol=1e-4)


@needs_model
def test_long_inputs_are_truncated_not_refused(minilm):
    long_text = "The hotel has a rooftop bar. " * 400  # ~2,800 tokens
    vector = minilm.embed_query(long_text)
    assert len(vector) == 384
    # Truncation at 256 tokens: the tail adds nothing once the head fills the window.
    assert np.allclose(vector, minilm.embed_query(long_text + " Parking is free."), atol=1e-5)


@needs_model
def test_concurrent_calls_share_one_model(minilm):
    texts = ["pool hours", "room service", "airport shuttle", "late check-out"]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(minilm.embed_query, texts * 3))
    assert np.allclose(results[:4], results[8:], atol=1e-5)


@needs_model
@needs_model
def test_a_repeated_query_is_embedded_once(minilm, monkeypatch):
    minilm.clear_query_cache()
    first = minilm.embed_query("where is the poker room")
    calls = []
    original = minilm.embed_array
    monkeypatch.setattr(minilm, "embed_array", lambda texts: calls.append(texts) or original(texts))
    again = minilm.embed_query("where is the poker room")
    assert again == first and calls == []
    again.append(0.0)  # a caller changing its copy does not change the cache
    assert minilm.embed_query("where is the poker room") == first
    minilm.clear_query_cache()
    assert minilm.embed_query("where is the poker room") == pytest.approx(first, abs=1e-6)
    assert calls == [["where is the poker room"]]


def test_empty_input_and_bad_input(minilm):
    assert minilm.embed_documents([]) == []
    with pytest.raises(TypeError, match="list of strings"):
        minilm.embed_documents("not a list")
    with pytest.raises(TypeError, match="expected str"):
        minilm.embed_documents(["ok", None])


def test_missing_model_names_the_install_command(tmp_path):
    settings = Settings(data_dir=tmp_path, embeddings_provider="embedded", _env_file=None)
    with pytest.raises(ModelNotInstalledError, match="frontdesk models install"):
        build_embeddings(settings)


def test_hash_provider_needs_no_model(tmp_path):
    settings = Settings(data_dir=tmp_path, embeddings_provider="hash", _env_file=None)
    assert isinstance(build_embeddings(settings), HashEmbeddings)


def test_unknown_embedded_model_is_refused(tmp_path):
    settings = Settings(data_dir=tmp_path, embeddings_model="bge-large", _env_file=None)
    with pytest.raises(UnknownModelError, match="all-minilm-l6-v2"):
        build_embeddings(settings)


@pytest.mark.parametrize(
    "provider, module", [("openai", "langchain_openai"), ("google", "langchain_google_genai")]
)
def test_hosted_embeddings_without_the_extra_name_the_pip_command(
    tmp_path, monkeypatch, provider, module
):
    monkeypatch.setitem(sys.modules, module, None)
    settings = Settings(data_dir=tmp_path, embeddings_provider=provider, _env_file=None)
    with pytest.raises(ImportError, match=rf"pip install 'frontdesk\[{provider}\]'"):
        build_embeddings(settings)


def test_idle_worker_threads_sleep_rather_than_spin(minilm):
    # A spinning pool kept a core busy after each query; on two cores the rest of a turn
    # ran at half speed beside it (benchmarks/casino_host.py: 42 -> 27 ms).
    session, _ = minilm._load()
    options = session.get_session_options()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
