"""Which files of a repository get indexed.

A git checkout lists its files with `git ls-files` (tracked, plus untracked ones its ignore
rules allow); any other folder is walked with its `.gitignore` files applied. Either way,
binaries, vendored and generated files, lock files and files over the size limit are left out,
and every file left out is reported with the reason, so a user can see why a file is missing.
Symbolic links are never followed: a link loop cannot trap the walk, and nothing outside the
repository is read."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from frontdesk.assistants.codeqa.indexing.languages import language_of, source_type_of

__all__ = ["MAX_FILE_BYTES", "RepoFile", "Walk", "walk_repository"]

MAX_FILE_BYTES = 1_000_000
_SNIFF_BYTES = 8192
# Folders that hold someone else's code or build output, wherever they are.
_SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "vendor", "third_party", "third-party", ".venv",
     "venv", "env", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox",
     ".nox", "dist", "build", "target", "site-packages", ".eggs", ".idea", ".vscode",
     "bower_components", ".next", ".cache", "coverage", "htmlcov"}
)  # fmt: skip
_LOCK_FILES = frozenset(
    {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "uv.lock",
     "Cargo.lock", "Gemfile.lock", "composer.lock", "go.sum", "Pipfile.lock"}
)  # fmt: skip
_GENERATED_SUFFIXES = (".min.js", ".min.css", "_pb2.py", "_pb2_grpc.py", ".pb.go", ".map")


@dataclass(frozen=True)
class RepoFile:
    path: str  # repository-relative, with forward slashes
    absolute: Path
    language: str | None
    source_type: str
    size: int


@dataclass
class Walk:
    root: Path
    files: list[RepoFile] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # path -> why
    used_git: bool = False


def walk_repository(root: Path | str, max_bytes: int = MAX_FILE_BYTES) -> Walk:
    """The indexable files under `root`, sorted by path, and those left out with why.
    Raises NotADirectoryError (or FileNotFoundError) for a path that is not a folder."""
    root = Path(root).expanduser()
    if not root.exists():
        raise FileNotFoundError(f"{root} does not exist")
    if not root.is_dir():
        raise NotADirectoryError(f"{root} is not a folder")
    root = root.resolve()
    listed = _git_files(root)
    walk = Walk(root=root, used_git=listed is not None)
    candidates = listed if listed is not None else _walked_files(root, walk.skipped)
    for relative in sorted(set(candidates)):
        why = _why_skipped(root, relative, max_bytes)
        if why:
            walk.skipped[relative] = why
            continue
        absolute = root / relative
        language = language_of(relative)
        walk.files.append(
            RepoFile(
                path=relative,
                absolute=absolute,
                language=language,
                source_type=source_type_of(relative, language),
                size=absolute.stat().st_size,
            )
        )
    return walk


def _git_files(root: Path) -> list[str] | None:
    """`git ls-files` of a checkout whose top is `root`; None when it is not one (or git is
    missing), so the folder is walked instead."""
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            capture_output=True, timeout=60, check=True,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    names = [n for n in done.stdout.decode("utf-8", "surrogateescape").split("\0") if n]
    # Deleted but still in the index: not on disk, nothing to read.
    return [n for n in names if os.path.lexists(root / n)]


def _walked_files(root: Path, skipped: dict[str, str]) -> Iterator[str]:
    """Every file under `root` that its .gitignore files do not exclude, links not followed."""
    specs: list[tuple[str, pathspec.PathSpec]] = []
    for folder, dirs, names in os.walk(root, followlinks=False):
        here = Path(folder).relative_to(root).as_posix()
        prefix = "" if here == "." else here + "/"
        ignore = Path(folder) / ".gitignore"
        if ignore.is_file():
            lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
            specs.append((prefix, pathspec.PathSpec.from_lines("gitwildmatch", lines)))
        kept = []
        for name in sorted(dirs):
            relative = prefix + name
            if name in _SKIPPED_DIRS:
                skipped[relative + "/"] = "vendored or generated folder"
            elif os.path.islink(Path(folder) / name):
                skipped[relative + "/"] = "symbolic link (not followed)"
            elif _ignored(specs, relative + "/"):
                skipped[relative + "/"] = "ignored by .gitignore"
            else:
                kept.append(name)
        dirs[:] = kept
        for name in names:
            relative = prefix + name
            if _ignored(specs, relative):
                skipped[relative] = "ignored by .gitignore"
            else:
                yield relative


def _ignored(specs: list[tuple[str, pathspec.PathSpec]], relative: str) -> bool:
    return any(
        relative.startswith(prefix) and spec.match_file(relative[len(prefix) :])
        for prefix, spec in specs
    )


def _why_skipped(root: Path, relative: str, max_bytes: int) -> str | None:
    path = root / relative
    parts = relative.split("/")
    if any(part in _SKIPPED_DIRS for part in parts[:-1]):
        return "vendored or generated folder"
    if os.path.islink(path):
        return "symbolic link (not followed)"
    if not path.is_file():
        return "not a regular file"
    name = parts[-1]
    if name in _LOCK_FILES:
        return "lock file"
    if name.endswith(_GENERATED_SUFFIXES):
        return "generated file"
    try:
        size = path.stat().st_size
        if size > max_bytes:
            return f"over {max_bytes // 1_000_000} MB ({size:,} bytes)"
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError as error:
        return f"unreadable ({error.strerror or error})"
    if b"\0" in head:
        return "binary"
    if size == 0:
        return "empty"
    return None
