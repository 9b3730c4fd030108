"""Indexing a repository: walk it, chunk what changed, and bring the search index in line.

Chunks live in the core's knowledge index (one vector store for every repository, each chunk
tagged with its repository id, so searches filter by it); the manifest beside it keeps each
file's hash, chunks and symbols. Re-indexing reads every file's bytes to hash them, which is
fast, but parses only the files whose hash changed and embeds only chunks whose text is new.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from frontdesk.assistants.codeqa.indexing.chunker import DEFAULT_BUDGET, CodeChunk, chunk_file
from frontdesk.assistants.codeqa.indexing.languages import grammar
from frontdesk.assistants.codeqa.indexing.manifest import Manifest, content_hash
from frontdesk.assistants.codeqa.indexing.walker import walk_repository
from frontdesk.assistants.codeqa.retrieval.tokenizer import code_terms
from frontdesk.errors import FrontdeskError
from frontdesk.knowledge.chunking import Chunk, chunk_id
from frontdesk.knowledge.index import KnowledgeIndex

__all__ = ["CodeIndex", "IndexReport", "InvalidRepository", "repo_id_for"]

Progress = Callable[[str, int, int], None]  # (stage, done, total)
_REPO_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
DOCSTRING_METADATA_CHARS = 300
# What is embedded of a test, doc or config chunk: its start (the header: path, name,
# signature, docstring). Embedding costs time in proportion to the text, tests are often half
# of a repository's chunks, and their full text crowds the code out of the nearest vectors:
# measured on the development set, this indexes 1.6 times as fast and ranks better
# (docs/codeqa.md). Code chunks are embedded whole (up to the model's token limit).
OUTSIDE_CODE_EMBED_CHARS = 150


class InvalidRepository(FrontdeskError):
    """A path that is not a folder, or a repository id that cannot be used."""


@dataclass(frozen=True)
class IndexReport:
    repo_id: str
    root: Path
    files: int
    parsed: int  # files read and chunked this run (the rest came from the manifest)
    chunks: int
    added: int
    removed: int
    relabelled: int
    skipped: dict[str, str] = field(default_factory=dict)
    unparsed: tuple[str, ...] = ()  # files whose syntax tree had errors: indexed in windows
    seconds: float = 0.0

    def lines(self, skipped_shown: int = 10) -> list[str]:
        """What a person is told about the run."""
        summary = (
            f"{self.repo_id}: {self.files} files ({self.parsed} read again), {self.chunks} "
            f"chunks ({self.added} new, {self.removed} removed) in {self.seconds:.1f} s"
        )
        lines = [summary]
        if not self.files:
            lines.append(
                "  nothing to index here: no source, doc or config files"
                + (f" ({len(self.skipped)} skipped, below)" if self.skipped else "")
            )
        if self.unparsed:
            lines.append(
                f"  {len(self.unparsed)} files with syntax errors, indexed in line windows"
            )
        lines += [
            f"  skipped {path}: {why}" for path, why in list(self.skipped.items())[:skipped_shown]
        ]
        if len(self.skipped) > skipped_shown:
            lines.append(f"  ... and {len(self.skipped) - skipped_shown} more skipped")
        return lines


def repo_id_for(root: Path, given: str | None = None) -> str:
    """The id a repository is known by: `given`, else its folder's name."""
    candidate = given if given is not None else Path(root).resolve().name
    if not _REPO_ID.fullmatch(candidate or ""):
        raise InvalidRepository(
            f"repository id {candidate!r} is not usable: letters, digits, '.', '_' and '-', "
            "starting with a letter or digit, at most 64 (pass --id NAME)"
        )
    return candidate


class CodeIndex:
    """Every indexed repository under `directory`."""

    def __init__(
        self,
        directory: Path,
        embeddings: Embeddings,
        embeddings_id: str,
        *,
        budget: int = DEFAULT_BUDGET,
        outside_code_embed_chars: int = OUTSIDE_CODE_EMBED_CHARS,
    ) -> None:
        self.directory = Path(directory)
        self.budget = budget
        self.outside_code_embed_chars = outside_code_embed_chars
        self._written: dict[str, int] = {}  # repo id -> the manifest mtime this object wrote
        self._runs = 0  # indexing runs under way in this process (a worker thread, the CLI)
        self._runs_lock = threading.Lock()
        self.knowledge = KnowledgeIndex(
            self.directory,
            embeddings,
            embeddings_id,
            title_keys=("symbol", "path"),
            tokenizer=code_terms,
        )

    @property
    def writing(self) -> bool:
        return self._runs > 0

    def written_here(self, repo_id: str, stamp: int) -> bool:
        """Whether this object wrote the manifest as it is now (`stamp`: its mtime in ns);
        if not, another process indexed the repository and the store must be read afresh."""
        return self._written.get(repo_id) == stamp

    def manifest_path(self, repo_id: str) -> Path:
        return self.directory / "repos" / f"{repo_id}.json"

    def repositories(self) -> list[str]:
        return sorted(p.stem for p in (self.directory / "repos").glob("*.json"))

    def manifest(self, repo_id: str) -> Manifest:
        return Manifest.load(self.manifest_path(repo_id), budget=self.budget)

    def index(
        self, root: Path | str, repo_id: str | None = None, progress: Progress | None = None
    ) -> IndexReport:
        with self._runs_lock:
            self._runs += 1
        try:
            return self._index(root, repo_id, progress)
        finally:
            with self._runs_lock:
                self._runs -= 1

    def _index(
        self, root: Path | str, repo_id: str | None, progress: Progress | None
    ) -> IndexReport:
        started = time.perf_counter()
        root = Path(root).expanduser()
        try:
            walk = walk_repository(root)
        except (FileNotFoundError, NotADirectoryError) as error:
            raise InvalidRepository(str(error)) from None
        repo = repo_id_for(walk.root, repo_id)
        manifest = self.manifest(repo)
        entries: dict[str, dict[str, Any]] = {}
        chunks: list[Chunk] = []
        skipped = dict(walk.skipped)
        parsed = 0
        unparsed: list[str] = []
        for done, file in enumerate(walk.files, 1):
            try:
                data = file.absolute.read_bytes()
            except OSError as error:  # deleted or replaced since the walk listed it
                skipped[file.path] = f"changed during indexing ({error.strerror or error})"
                continue
            sha = content_hash(data)
            result = manifest.cached(file.path, sha)
            if result is None:
                # Records (JSONL, CSV) are found by name, not read: embedding every window
                # of a data set would cost more than the code it sits beside.
                text = "" if file.source_type == "data" else data.decode("utf-8", "replace")
                result = chunk_file(file, text, self.budget)
                parsed += 1
            entries[file.path] = Manifest.entry(sha, result)
            if not result.parsed and grammar(file.language) is not None:
                unparsed.append(file.path)
            chunks.extend(
                _stored_chunk(repo, c, self.outside_code_embed_chars) for c in result.chunks
            )
            if progress:
                progress("reading", done, len(walk.files))
        sync = self.knowledge.sync(
            chunks, repo, (lambda d, t: progress("embedding", d, t)) if progress else None
        )
        manifest.save(entries, root=str(walk.root), budget=self.budget)
        self._written[repo] = self.manifest_path(repo).stat().st_mtime_ns
        return IndexReport(
            repo_id=repo,
            root=walk.root,
            files=len(entries),
            parsed=parsed,
            chunks=len(chunks),
            added=sync.added,
            removed=sync.removed,
            relabelled=sync.relabelled,
            skipped=skipped,
            unparsed=tuple(unparsed),
            seconds=time.perf_counter() - started,
        )


def _stored_chunk(repo_id: str, chunk: CodeChunk, outside_code_embed_chars: int) -> Chunk:
    text = chunk.searchable()
    limit = None if chunk.source_type == "code" else outside_code_embed_chars
    # The repository id is in the id: one vector store holds every repository, and two
    # repositories may hold the same file; so is how much was embedded, so that a change of
    # it embeds the chunks again.
    return Chunk(
        id=chunk_id(text, f"{repo_id}:{chunk.path}:{limit}"),
        content=text,
        key=text[:limit] if limit is not None and len(text) > limit else None,
        metadata={
            "property_id": repo_id,
            "path": chunk.path,
            "language": chunk.language or "",
            "source_type": chunk.source_type,
            "start_line": chunk.start_line,
            "end_line": chunk.end_line,
            "symbol": chunk.symbol,
            "symbols": " ".join(chunk.symbols),
            "kind": chunk.kind,
            "parent": chunk.parent,
            "signature": chunk.signature,
            "docstring": chunk.docstring[:DOCSTRING_METADATA_CHARS],
        },
    )
