"""Names to places: where each symbol is defined and used, and which files a name means.

Built from the manifest's per-file definitions and references, so it costs no parsing at
start. It answers "where is `parse_args` defined?" exactly, finds the files a question names
("config.toml", "src/app/cli.py") and, for a symbol, the places that use it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

__all__ = ["SymbolHit", "SymbolIndex", "Usage"]


@dataclass(frozen=True)
class SymbolHit:
    path: str
    name: str
    qualified: str
    kind: str
    start_line: int
    end_line: int
    signature: str
    source_type: str


@dataclass(frozen=True)
class Usage:
    path: str
    line: int
    caller: str | None = None  # the innermost definition around the line ("Context.invoke")


class SymbolIndex:
    def __init__(self, files: Mapping[str, Mapping[str, Any]], source_types: Mapping[str, str]):
        """`files`: the manifest's entries (path -> {"definitions": [...], "references":
        [[name, line], ...]}); `source_types`: path -> code/test/doc/config/data."""
        self._by_name: dict[str, list[SymbolHit]] = defaultdict(list)
        self._usages: dict[str, list[Usage]] = defaultdict(list)
        self._paths = sorted(files)
        self._by_basename: dict[str, list[str]] = defaultdict(list)
        for path in self._paths:
            entry = files[path]
            self._by_basename[PurePosixPath(path).name.lower()].append(path)
            for d in entry.get("definitions") or []:
                hit = SymbolHit(
                    path=path,
                    name=d["name"],
                    qualified=d["qualified"],
                    kind=d["kind"],
                    start_line=d["start_line"],
                    end_line=d["end_line"],
                    signature=d["signature"],
                    source_type=source_types.get(path, "code"),
                )
                for key in {d["name"].lower(), d["qualified"].lower()}:
                    self._by_name[key].append(hit)
            around = _innermost_definitions(entry.get("definitions") or [])
            for name, line in entry.get("references") or []:
                self._usages[name.lower()].append(Usage(path, line, around.get(line)))

    def __len__(self) -> int:
        return len(self._paths)

    def definitions(self, name: str) -> list[SymbolHit]:
        """Where `name` (`get_json`, `HTTPClient.get_json`) is defined: code before tests,
        then by path; an exact-case match first."""
        hits = self._by_name.get(name.lower(), [])
        return sorted(
            hits,
            key=lambda h: (
                h.name != name and h.qualified != name,
                h.source_type != "code",
                h.path,
                h.start_line,
            ),
        )

    def usages(self, name: str) -> list[Usage]:
        """Where `name` is called or referred to (by its last part: `client.get_json()`
        refers to `get_json`)."""
        return sorted(self._usages.get(name.rsplit(".", 1)[-1].lower(), []),
                      key=lambda u: (u.path, u.line))  # fmt: skip

    def files_named(self, token: str) -> list[str]:
        """The files `token` names: a path, a path's tail (`app/cli.py`) or a file name."""
        token = token.strip("./").lower()
        if not token:
            return []
        if "/" in token:
            return [p for p in self._paths if p.lower() == token or p.lower().endswith("/" + token)]
        return list(self._by_basename.get(token, []))

    def known_names(self) -> Iterable[str]:
        return self._by_name.keys()


def _innermost_definitions(definitions: Iterable[Mapping[str, Any]]) -> dict[int, str]:
    """Line -> the qualified name of the innermost definition that spans it: the caller of
    whatever that line calls (the call graph the parse already holds, no second parse)."""
    around: dict[int, str] = {}
    # Widest first, so a method's lines overwrite its class's, and a nested function its own.
    for d in sorted(definitions, key=lambda d: d["start_line"] - d["end_line"]):
        for line in range(d["start_line"], d["end_line"] + 1):
            around[line] = d["qualified"]
    return around
