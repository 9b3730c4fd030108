"""Citations an answer may make: only lines it was shown.

The model cites `path:start-end` (or `path:line`). Each citation is checked against the
blocks the retrieval gave it: one inside a block stays; one that names a shown file but other
lines is corrected to the shown block that overlaps it, or the file's first shown block; one
that names a file it was not shown is removed. So no citation points outside the retrieved
chunks (the issue's citation precision of 1.0), whatever the model writes."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from frontdesk.assistants.codeqa.retrieval.expansion import ContextBlock

__all__ = ["Citation", "check_citations", "mentioned_paths"]

# A path (with a dot in its last part, or a slash) then :line or :start-end; optionally in
# backticks or brackets.
_CITATION = re.compile(
    r"(?P<path>(?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9]{1,8}|(?:[\w.-]+/)+[\w.-]+)"
    r":(?P<start>\d{1,7})(?:\s*[-–]\s*(?P<end>\d{1,7}))?"
)

# A path with a folder and an extension, not followed by ":line" (that is a citation).
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+[\w.-]+\.[A-Za-z0-9]{1,8})(?![\w/]|:\d)")
# A file name without a folder (`sources.js`), only with an extension that names source, docs
# or config, and not called (`response.json()` is a method).
_FILE_EXTENSIONS = (
    "py|pyi|js|mjs|cjs|jsx|ts|tsx|go|rs|java|c|h|cc|cpp|hpp|md|rst|toml|ya?ml|json|ini|cfg"
    "|sh|rb|php|kt|swift|sql|html|css|vue"
)
_FILE_NAME = re.compile(
    rf"(?<![\w/.-])([\w-]+\.(?:{_FILE_EXTENSIONS}))(?![\w/(-]|\.\w|:\d)", re.IGNORECASE
)
# Products named like files.
_PRODUCTS = frozenset({"node.js", "next.js", "nuxt.js", "vue.js", "react.js", "three.js", "d3.js",
                       "chart.js", "express.js", "angular.js", "ember.js", "backbone.js"})  # fmt: skip


def mentioned_paths(
    text: str, *, is_attribute: Callable[[str], bool] = lambda name: False
) -> list[str]:
    """The files `text` names without a line: paths (`web/static/js/sources.js`) and bare
    file names (`sources.js`). `is_attribute(name)` says the part after the dot is a name the
    code defines or uses (`session.json` may be an attribute, not a file)."""
    paths = [m.group(1).strip("./") for m in _PATH.finditer(text)]
    for match in _FILE_NAME.finditer(text):
        name = match.group(1)
        if name.lower() in _PRODUCTS or is_attribute(name.rsplit(".", 1)[1]):
            continue
        paths.append(name)
    return paths


@dataclass(frozen=True)
class Citation:
    path: str
    start_line: int
    end_line: int
    symbol: str = ""
    chunk_id: str = ""

    def __str__(self) -> str:
        if self.start_line == self.end_line:
            return f"{self.path}:{self.start_line}"
        return f"{self.path}:{self.start_line}-{self.end_line}"


def check_citations(answer: str, blocks: Sequence[ContextBlock]) -> tuple[str, list[Citation]]:
    """The answer with every citation inside the shown blocks, and those citations in order
    (each once)."""
    cited: list[Citation] = []

    def fix(match: re.Match[str]) -> str:
        path = match.group("path")
        start = int(match.group("start"))
        end = int(match.group("end") or start)
        start, end = min(start, end), max(start, end)
        block = _block_for(path, start, end, blocks)
        if block is None:
            return ""
        inside = any(a <= start and end <= b for a, b in block.cited)
        if inside:
            citation = Citation(block.path, start, end, block.symbol, block.chunk_id)
        else:
            a, b = block.cited[0]
            citation = Citation(block.path, a, b, block.symbol, block.chunk_id)
        if citation not in cited:
            cited.append(citation)
        return str(citation)

    text = _CITATION.sub(fix, answer)
    # A removed citation leaves "()" or "see ." behind: tidy what it left (a call's "()" stays).
    text = re.sub(r"(?<![\w)\]])\(\s*[,;]?\s*\)|\[\s*\]|``", "", text)
    text = re.sub(r"[ \t]+([.,;:])", r"\1", re.sub(r"[ \t]{2,}", " ", text))
    return text.strip(), cited


def _block_for(
    path: str, start: int, end: int, blocks: Sequence[ContextBlock]
) -> ContextBlock | None:
    same = [b for b in blocks if b.path == path or b.path.endswith("/" + path)]
    if not same:
        return None
    overlapping = [b for b in same if any(a <= end and start <= z for a, z in b.cited)]
    return (overlapping or same)[0]
