"""Header-aware chunking of markdown documents (seed 004, ingestion steps 3-5).

Chunks are cut by a recursive splitter that prefers, in order, a header (H1, H2, H3), a bullet,
a numbered step, a line break and a space, up to 600 tokens with 120 of overlap. A "token" is a
word or a punctuation mark (`count_tokens`): close to a subword tokenizer's count on prose, and
the same whichever embedding model is configured, so chunk boundaries do not move when it does.

Each chunk carries its section path (the last three headers above its start), the headings of
every section it covers, its document's keywords (summary and header words, at most 12), and a
sha1 of its text. A chunk under 200 tokens that contains none of its document's keywords says
too little to be worth a place among the top results, and is dropped.

Dense search embeds at most 256 subword tokens, less than a chunk, so each chunk also gets views
(knowledge/chunking.py): each of its paragraphs or list blocks, led by its document's title and
section, embedded beside the chunk. A question about one step then meets that step's vector.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass

from langchain_text_splitters import RecursiveCharacterTextSplitter

from frontdesk.knowledge.chunking import Chunk, chunk_id
from frontdesk.knowledge.markdown import HEADER_RE, MarkdownCorpus, MarkdownDocument

SEPARATORS = ["\n# ", "\n## ", "\n### ", "\n- ", "\n1) ", "\n", " "]
CHUNK_TOKENS = 600
OVERLAP_TOKENS = 120
MIN_INFORMATIVE_TOKENS = 200
MAX_KEYWORDS = 12
SECTION_DEPTH = 3
MIN_VIEW_TOKENS = 4
_TOKEN = re.compile(r"\w+|[^\w\s]")
_WORD = re.compile(r"[^\W\d_][\w-]*")
# Words too common to say what a document is about (English and Polish).
_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "your",
        "you",
        "are",
        "how",
        "what",
        "when",
        "why",
        "this",
        "that",
        "from",
        "into",
        "not",
        "can",
        "does",
        "our",
        "its",
        "all",
        "any",
        "use",
        "using",
        "about",
        "after",
        "before",
        "over",
        "under",
        "via",
        "per",
        "step",
        "steps",
        "guide",
        "oraz",
        "dla",
        "jak",
        "czy",
        "nie",
        "lub",
        "się",
        "jest",
        "aby",
        "przez",
        "przy",
        "jeśli",
        "gdy",
        "który",
        "która",
        "które",
    ]
)


def count_tokens(text: str) -> int:
    return len(_TOKEN.findall(text))


def extract_keywords(document: MarkdownDocument, limit: int = MAX_KEYWORDS) -> list[str]:
    """Up to `limit` words from the summary and the headers, most frequent first."""
    headers = [m.group(2) for line in document.text.splitlines() if (m := HEADER_RE.match(line))]
    words = [
        w.strip("-").lower()
        for source in [document.meta.get("summary", ""), document.title, *headers]
        for w in _WORD.findall(str(source))
    ]
    words = [w for w in words if 2 < len(w) < 24 and w not in _STOP]
    counts = Counter(words)
    first_seen = {w: i for i, w in reversed(list(enumerate(words)))}
    return sorted(counts, key=lambda w: (-counts[w], first_seen[w]))[:limit]


@dataclass(frozen=True)
class _Header:
    offset: int
    level: int
    title: str


def _headers(text: str) -> list[_Header]:
    found, offset, in_code = [], 0, False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            in_code = not in_code
        elif not in_code and (match := HEADER_RE.match(line)):
            found.append(_Header(offset, len(match.group(1)), match.group(2).strip()))
        offset += len(line) + 1
    return found


def section_path_at(headers: list[_Header], offset: int, depth: int = SECTION_DEPTH) -> list[str]:
    """The open headers at `offset` (outermost first), the last `depth` of them."""
    stack: dict[int, str] = {}
    for header in headers:
        if header.offset > offset:
            break
        stack = {level: title for level, title in stack.items() if level < header.level}
        stack[header.level] = header.title
    return [stack[level] for level in sorted(stack)][-depth:]


def _blocks(chunk: str) -> list[str]:
    return [b.strip() for b in re.split(r"\n\s*\n", chunk) if count_tokens(b) >= MIN_VIEW_TOKENS]


def chunk_document(
    document: MarkdownDocument,
    corpus_id: str,
    *,
    chunk_tokens: int = CHUNK_TOKENS,
    overlap_tokens: int = OVERLAP_TOKENS,
) -> tuple[list[Chunk], int]:
    """(chunks, number dropped as low-information)."""
    splitter = RecursiveCharacterTextSplitter(
        chunk_size=chunk_tokens,
        chunk_overlap=overlap_tokens,
        separators=SEPARATORS,
        keep_separator="start",
        length_function=count_tokens,
        strip_whitespace=True,
    )
    headers = _headers(document.text)
    keywords = extract_keywords(document)
    chunks: list[Chunk] = []
    dropped = 0
    start = -1
    for text in splitter.split_text(document.text):
        # Where the chunk starts: after the previous chunk's start (chunks overlap, so a
        # plain find could land on an earlier repeat of the same words). The splitter's own
        # `add_start_index` counts the overlap in characters, not in our tokens.
        found = document.text.find(text, start + 1)
        start = found if found >= 0 else max(0, document.text.find(text))
        if count_tokens(text) < MIN_INFORMATIVE_TOKENS and not any(
            k in text.lower() for k in keywords
        ):
            dropped += 1
            continue
        path = section_path_at(headers, start) or [document.title]
        inside = [h.title for h in headers if start < h.offset < start + len(text)]
        covered = list(dict.fromkeys([*path, *inside]))
        lead = f"{document.title} — {' > '.join(path)}"
        views = tuple(dict.fromkeys(f"{lead}: {block}" for block in _blocks(text)))
        chunks.append(
            Chunk(
                id=chunk_id(text, f"{corpus_id}/{document.path}"),
                content=text,
                views=views if len(views) > 1 else (),
                metadata={
                    "property_id": corpus_id,
                    "doc_id": document.doc_id,
                    "title": document.title,
                    "path": document.path,
                    "version": document.version,
                    "last_updated": document.meta.get("last_updated", ""),
                    "audience": document.meta.get("audience", ""),
                    "language": document.meta.get("language", ""),
                    "section_path": " > ".join(path),
                    "sections": " | ".join(covered),
                    "keywords": ", ".join(keywords),
                    "sha1": hashlib.sha1(text.encode("utf-8")).hexdigest(),
                    "chunk_index": len(chunks),
                    "source": document.path,
                },
            )
        )
    return chunks, dropped


def chunk_corpus(
    corpus: MarkdownCorpus,
    chunk_tokens: int = CHUNK_TOKENS,
    overlap_tokens: int = OVERLAP_TOKENS,
) -> list[Chunk]:
    chunks: list[Chunk] = []
    seen: set[str] = set()
    for document in corpus.documents:
        found, _ = chunk_document(
            document, corpus.property_id, chunk_tokens=chunk_tokens, overlap_tokens=overlap_tokens
        )
        for chunk in found:
            if chunk.id not in seen:
                seen.add(chunk.id)
                chunks.append(chunk)
    return chunks
