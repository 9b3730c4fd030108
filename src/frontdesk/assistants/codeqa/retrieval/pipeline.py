"""From a question to the chunks that answer it: the router's requests and the retrieval.

The graph's router and retrieval nodes are these two functions over the state, and the
retrieval evaluation calls them the same way, so what is measured is what answers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from langchain_core.documents import Document

from frontdesk.assistants.codeqa.repository import Repository, chunk_at
from frontdesk.assistants.codeqa.retrieval.fast_path import ask_kind, missing_name, named_targets
from frontdesk.assistants.codeqa.retrieval.lacking import lacking_words, unknown_names
from frontdesk.assistants.codeqa.retrieval.search import (
    CODE_TYPES,
    Hit,
    RetrievalRequest,
    SearchSettings,
)
from frontdesk.assistants.codeqa.retrieval.tokenizer import code_terms

__all__ = ["Retrieved", "retrieve", "route_question"]

USAGES_SHOWN = 5
DEFINITIONS_SHOWN = 2
FILE_CHUNKS_SHOWN = 2
MENTIONS_SHOWN = 3
_SOURCE_WORDS = {
    "test": re.compile(r"\btests?\b|\btested\b|\bunit\s+tests?\b|\bpytest\b", re.IGNORECASE),
    "doc": re.compile(r"\b(?:docs?|documentation|readme|guide)\b", re.IGNORECASE),
    "config": re.compile(
        r"\b(?:config(?:uration)?\s+files?|settings\s+files?|toml|yaml|pyproject|makefile)\b",
        re.IGNORECASE,
    ),
}

# "How are the settings read from the TOML file?" asks for the code that reads it, not the
# file: a question about handling config or docs is not filtered to them.
_HANDLES = re.compile(
    r"\b(?:read|reads|reading|parse[sd]?|parsing|load(?:s|ed|ing)?|writ(?:e|es|ten|ing)|"
    r"generat\w*|render\w*|handl\w*|validat\w*)\b",
    re.IGNORECASE,
)


# "Where is the X export implemented?" asks for code: words found only in docs, data or config
# are not evidence that the code exists (seen: a question whose words were only in the analyst's
# demo tickets, answered by a 0.5B model with a `get` method that "exports" to it).
_ASKS_FOR_CODE = re.compile(
    r"\b(?:implement\w*|handl\w*|defin\w*|comput\w*|calculat\w*|function|method|class|"
    r"module|code|logic|mechanism)\b",
    re.IGNORECASE,
)
# ... and when the nearest docs, data or config are this much nearer than the nearest code,
# the code that was found is not about it (that question: 0.48 for the demo data, 0.31 for
# the nearest code; a question the code answers has its code nearest, or within this).
CODE_MARGIN = 0.1


@dataclass(frozen=True)
class Retrieved:
    chunks: list[Document]
    metadata: dict[str, Any] = field(default_factory=dict)


def route_question(query: str, repo: Repository, asked: str | None = None) -> dict[str, Any]:
    """The router's output (G3, G14: no model): the symbols and files the question names (the
    fast path), the kinds of source it asks about (tests, docs, config) and a folder it
    names, as one retrieval request; and what the person `asked` (the query without the
    subject a follow-up carries over) names that the repository nowhere holds."""
    targets = named_targets(query, repo.symbols)
    asked = query if asked is None else asked
    unknown = unknown_names(asked, repo.has_term, lambda name: bool(repo.symbols.definitions(name)))
    source_types = [
        kind
        for kind, words in _SOURCE_WORDS.items()
        if words.search(query) and not (kind in ("config", "doc") and _HANDLES.search(query))
    ]
    folders = [f for f in repo.folders if re.search(rf"(?<![\w/]){re.escape(f)}", query + "/")]
    request = {
        "query": query,
        "source_types": source_types,
        "folders": folders[:1],
        "file_patterns": [],
        "symbols": list(targets.symbols),
        "reasoning": "named in the question" if targets else "described in the question",
    }
    return {
        "cleaned_query": query,
        "retrieval_requests": [request],
        "ask": ask_kind(query),
        "fast_path": bool(targets),
        "missing_name": missing_name(query, targets) or (unknown[0] if unknown else None),
        "lacking_words": [] if unknown else lacking_words(asked, repo.has_term, repo.words),
        "files": sorted({p for paths in targets.files.values() for p in paths}),
    }


def retrieve(
    output: dict[str, Any],
    repo: Repository,
    *,
    top_k: int,
    search: SearchSettings,
    min_similarity: float,
) -> Retrieved:
    """Named definitions (and, for "what calls X", its callers) and named files first, then
    hybrid search; and the gate: nothing named, nothing near and no keyword match for every
    term means nothing is returned ("not found", G18), never a guess."""
    named: list[Document] = []
    for request in output.get("retrieval_requests") or []:
        for name in request.get("symbols") or []:
            for hit in repo.symbols.definitions(name)[:DEFINITIONS_SHOWN]:
                named.extend(repo.chunks_defining(hit))
            if output.get("ask") == "usages":
                for usage in repo.symbols.usages(name)[:USAGES_SHOWN]:
                    if (chunk := chunk_at(repo, usage.path, usage.line)) is not None:
                        named.append(chunk)
    for path in output.get("files") or []:
        named.extend(repo.chunks_of_file(path)[:FILE_CHUNKS_SHOWN])
    searched: list[Document] = []
    metadata: dict[str, Any] = {"bm25_count": 0, "dense_count": 0, "filters": []}
    best = -1.0
    mentions: list[str] = []  # files outside the code that hold every word of a request
    for request in output.get("retrieval_requests") or []:
        result = repo.search(
            RetrievalRequest(
                query=request["query"],
                source_types=tuple(request.get("source_types") or ()),
                folders=tuple(request.get("folders") or ()),
                file_patterns=tuple(request.get("file_patterns") or ()),
            ),
            top_k,
            search,
        )
        searched.extend(hit.document for hit in result.hits)
        metadata["bm25_count"] += result.bm25_count
        metadata["dense_count"] += result.dense_count
        metadata["filters"].append(result.filter_used)
        if not _words_found(request["query"], result.hits):
            continue  # near in meaning, yet none of its words: nothing in the repository
        if not _ASKS_FOR_CODE.search(output.get("cleaned_query") or request["query"]):
            best = max(best, result.best_similarity)
            if repo.full_keyword_matches(request["query"], limit=1):
                best = max(best, min_similarity)
            continue
        # The words that say "code" are the question's frame, not what the code is about.
        holders = repo.full_keyword_matches(_ASKS_FOR_CODE.sub(" ", request["query"]))
        if any(d.metadata.get("source_type") in CODE_TYPES for d in holders):
            best = max(best, result.best_similarity, min_similarity)
        elif result.best_similarity - result.best_code_similarity >= CODE_MARGIN:
            mentions.extend(d.metadata.get("path", "") for d in holders)
            mentions.extend(
                h.metadata.get("path", "")
                for h in result.hits
                if h.metadata.get("source_type") not in CODE_TYPES
                and h.similarity >= result.best_code_similarity + CODE_MARGIN
            )
        else:
            best = max(best, result.best_similarity)
            mentions.extend(d.metadata.get("path", "") for d in holders)
    found: dict[str, Document] = {}
    for document in [*named, *searched]:
        found.setdefault(document.id or "", document)
    chunks = list(found.values())[: top_k + len(named)]
    covered = bool(named) or best >= min_similarity
    metadata.update(best_similarity=round(best, 4), no_context=not covered, named=len(named))
    if not covered and mentions:
        metadata["mentioned_only_in"] = list(dict.fromkeys(mentions))[:MENTIONS_SHOWN]
    return Retrieved(chunks if covered else [], metadata)


def _words_found(query: str, hits: list[Hit]) -> bool:
    """Whether one of the hits holds two of the question's own words (its one word, if it has
    one): MiniLM puts any question about code near some code (0.3 for a made-up device's name,
    over the gate), and the 0.5B model then places the device in it. Every labelled question
    has two of its words in a retrieved chunk; of six about things the repository lacks, none
    did. (Example phrases stay out of this comment: the repository indexes itself.)"""
    words = set(code_terms(_ASKS_FOR_CODE.sub(" ", query)))
    if not words:
        return True
    needed = min(2, len(words))
    return any(
        len(words & set(code_terms(f"{h.metadata.get('path', '')} {h.document.page_content}")))
        >= needed
        for h in hits
    )
