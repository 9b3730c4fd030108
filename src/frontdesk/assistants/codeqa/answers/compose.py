"""The answer: from the symbol index when the question asks where something is, else written
by the model from the retrieved code; every citation checked against what was shown."""

from __future__ import annotations

import logging
import re
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.release import sentences
from frontdesk.agentkit.repetition import repeats, without_repeats
from frontdesk.agentkit.writing import write_within_time
from frontdesk.assistants.codeqa import prompts
from frontdesk.assistants.codeqa.answers.citations import (
    Citation,
    check_citations,
    mentioned_paths,
)
from frontdesk.assistants.codeqa.context import CodeQAContext
from frontdesk.assistants.codeqa.indexing.languages import language_of, source_type_of
from frontdesk.assistants.codeqa.repository import RepositoryUnavailable
from frontdesk.assistants.codeqa.retrieval.expansion import ContextBlock, expand
from frontdesk.assistants.codeqa.retrieval.symbol_index import SymbolIndex, Usage
from frontdesk.assistants.codeqa.state import CodeQAState

logger = logging.getLogger(__name__)

MAX_LISTED = 5
HISTORY_TURNS = 2
HISTORY_ANSWER_CHARS = 300
_NAMED = re.compile(r"`([^`\n]{1,80})`|\b([A-Za-z_]\w*(?:_\w+|[a-z][A-Z]\w*)|\w+\(\))")


async def synthesize(state: CodeQAState, ctx: CodeQAContext) -> dict[str, Any]:
    repo_id = state.get("repo_id") or ctx.default_repo
    blocks = [_block(b) for b in state.get("expanded_chunks") or []]
    output = state.get("router_output") or {}
    if state.get("intent") == "follow_up":
        try:
            blocks = _previous_blocks(state, ctx, repo_id)
        except RepositoryUnavailable as unavailable:  # the picker moved to one being indexed
            return {"final_answer": str(unavailable), "citations": [],
                    "messages": [AIMessage(content=str(unavailable))]}  # fmt: skip
    text = None
    if output.get("missing_name") and state.get("intent") != "follow_up":
        name = output["missing_name"]
        text, blocks = prompts.NOT_FOUND_NAMED.substitute(name=f"`{name}`", repo=repo_id), []
    elif output.get("lacking_words") and state.get("intent") != "follow_up":
        words = " or ".join(f"“{w}”" for w in output["lacking_words"])
        text, blocks = prompts.NOT_MENTIONED.substitute(words=words, repo=repo_id), []
    elif not blocks:
        text = _not_found(state, repo_id)
    elif output.get("fast_path") and output.get("ask") in ("locate", "usages"):
        text = _listing(state, ctx, repo_id, output["ask"], blocks)
    if text is None:
        written = without_placeholders(without_repeats(await _written(state, ctx, blocks)))
        text = _without_unshown_files(
            with_true_places(written, ctx.repository(repo_id).symbols, blocks), blocks, ctx, repo_id
        )
        if not text:
            text = _not_found(state, repo_id)
            blocks = []
    answer, citations = check_citations(text, blocks)
    if blocks and not citations:
        # Every answer says where: if it cited nothing itself, the blocks it names (a function,
        # a file) first, then the best of the rest.
        named = _named_first(answer, blocks)
        places = ", ".join(f"{b.path}:{b.start_line}-{b.end_line}" for b in named[:3])
        answer, citations = check_citations(f"{answer}\n\nSources: {places}", blocks)
    return {
        "final_answer": answer,
        "citations": [_citation_dict(c) for c in citations],
        "messages": [AIMessage(content=answer)],
    }


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _without_unshown_files(
    text: str, blocks: list[ContextBlock], ctx: CodeQAContext, repo_id: str
) -> str:
    """The model's text without the sentences that name a file it was not shown (one that
    exists elsewhere in the repository, or one that does not exist at all): the answer says
    only where the code it saw is. Empty when nothing else is left."""
    shown = {b.path for b in blocks}
    symbols = ctx.repository(repo_id).symbols

    def is_attribute(name: str) -> bool:
        return bool(symbols.definitions(name) or symbols.usages(name))

    def unshown(sentence: str) -> bool:
        named = mentioned_paths(sentence, is_attribute=is_attribute)
        return any(not set(symbols.files_named(path)) & shown for path in named)

    sentences = [p for p in _SENTENCE.split(text) if p.strip()]
    kept = [p for p in sentences if not unshown(p)]
    if len(kept) == len(sentences):
        return text
    logger.info("left out %d sentence(s) naming files the answer was not shown",
                len(sentences) - len(kept))  # fmt: skip
    return " ".join(kept).strip()


_BACKTICKED_NAME = re.compile(r"`([A-Za-z_][\w.]*)(?:\(\))?`")


def with_true_places(text: str, symbols: SymbolIndex, blocks: list[ContextBlock]) -> str:
    """The model's text with each sentence that puts one definition (a name in backticks) in
    one file it is not in naming the file the parse has it in: the model's words stay, the
    place is the code's. Seen in the web UI: a queue's function placed in the server's
    admission module."""
    shown = [b.path for b in blocks]
    pieces = []
    for piece in sentences(text):
        names = [n for n in _BACKTICKED_NAME.findall(piece) if symbols.definitions(n)]
        paths = mentioned_paths(piece)
        if len(set(names)) == 1 and len(set(paths)) == 1:
            homes = [d.path for d in symbols.definitions(names[0])]
            if not set(symbols.files_named(paths[0])) & set(homes):
                home = next((h for h in homes if h in shown), homes[0])
                logger.info("%s is in %s, not %s", names[0], home, paths[0])
                piece = piece.replace(paths[0], home)
        pieces.append(piece)
    return "".join(pieces)


def _shows(blocks: list[ContextBlock], path: str, line: int) -> bool:
    return any(b.path == path and any(a <= line <= z for a, z in b.cited) for b in blocks)


def _named_first(answer: str, blocks: list[ContextBlock]) -> list[ContextBlock]:
    """The blocks whose definition the answer names first, then those whose file it names,
    each group in retrieval order."""

    def names(word: str) -> bool:
        return bool(word) and re.search(rf"(?<![\w.]){re.escape(word)}(?!\w)", answer) is not None

    def rank(block: ContextBlock) -> int:
        if names(block.symbol.rsplit(".", 1)[-1] if block.symbol else ""):
            return 0
        return 1 if names(block.path.rsplit("/", 1)[-1]) else 2

    return sorted(blocks, key=rank)


def citations_release(state: dict[str, Any], text: str) -> bool:
    """Whether streamed text may be shown now: every citation in it is one of the shown
    blocks' lines (a wrong one waits for the checked final answer)."""
    if repeats(text):  # a looping model: the final answer keeps each sentence once
        return False
    blocks = [_block(b) for b in state.get("expanded_chunks") or []]
    shown = {b.path for b in blocks}
    for path in mentioned_paths(text):  # a file it was not shown waits for the final check
        if not any(s == path or s.endswith("/" + path) for s in shown):
            return False
    checked, _ = check_citations(text, blocks)
    return checked == text.strip()


def _not_found(state: CodeQAState, repo_id: str) -> str:
    query = state.get("user_query") or ""
    match = _NAMED.search(query)
    if match:
        name = (match.group(1) or match.group(2)).removesuffix("()")
        return prompts.NOT_FOUND_NAMED.substitute(name=f"`{name}`", repo=repo_id)
    mentions = (state.get("retrieval_metadata") or {}).get("mentioned_only_in")
    if mentions:
        return prompts.MENTIONED_ONLY_IN.substitute(repo=repo_id, files=", ".join(mentions))
    return prompts.NOT_FOUND.substitute(repo=repo_id)


def _listing(
    state: CodeQAState, ctx: CodeQAContext, repo_id: str, ask: str, blocks: list[ContextBlock]
) -> str | None:
    """Where the named symbols are defined, or where they are used: from the symbol index,
    no model. None when the request named only files (the model explains those)."""
    repo = ctx.repository(repo_id)
    output = state.get("router_output") or {}
    names = [n for r in output.get("retrieval_requests") or [] for n in r.get("symbols") or []]
    if not names:
        return None
    lines = []
    for name in names:
        definitions = repo.symbols.definitions(name)
        if ask == "usages":
            lines += _callers(name, repo.symbols.usages(name), blocks)
            continue
        head = "is defined in" if len(definitions) == 1 else "is defined in these places:"
        lines.append(f"`{name}` {head}")
        for d in definitions[:MAX_LISTED]:
            owner = f", {d.kind}" + (
                f" of {d.qualified.rsplit('.', 1)[0]}" if "." in d.qualified else ""
            )
            # Lines are cited only where the answer was shown them; a definition the index
            # knows beyond those is named by its file (its line range would be dropped as an
            # uncited citation, and the file with it: "- (build_graph, function)").
            where = (
                f"{d.path}:{d.start_line}-{d.end_line}"
                if _shows(blocks, d.path, d.start_line)
                else d.path
            )
            lines.append(f"- {where} ({d.qualified}{owner}): `{d.signature}`")
    return "\n".join(lines)


def _callers(name: str, usages: list[Usage], blocks: list[ContextBlock]) -> list[str]:
    """What calls `name`, by the definition each call sits in (the parse's call graph): cited
    with its line where the answer shows that code, named with its file elsewhere."""
    if not usages:
        return [f"`{name}` is not called anywhere else in the repository."]
    by_caller: dict[tuple[str, str | None], list[Usage]] = {}
    for usage in sorted(usages, key=lambda u: (_is_test(u.path), u.path, u.line)):
        by_caller.setdefault((usage.path, usage.caller), []).append(usage)
    places = len(by_caller)
    in_tests = sum(_is_test(path) for path, _ in by_caller)
    split = f" ({places - in_tests} outside tests)" if in_tests and in_tests < places else ""
    lines = [f"`{name}` is called or used in {places} place{'s' if places > 1 else ''}{split}:"]
    for (path, caller), found in list(by_caller.items())[: MAX_LISTED * 2]:
        where = f"`{caller}` in `{path}`" if caller else f"the top level of `{path}`"
        cited = [u for u in found if _shows(blocks, u.path, u.line)]
        lines.append(f"- {where}" + (f" ({path}:{cited[0].line})" if cited else ""))
    if places > MAX_LISTED * 2:
        lines.append(f"- and {places - MAX_LISTED * 2} more")
    return lines


def _is_test(path: str) -> bool:
    """The indexer's own reading of the path (a tests folder, test_x.py, x.spec.ts, ...)."""
    return source_type_of(path, language_of(path)) == "test"


# The prompt's example of a citation, copied by the model as if it were one.
_PLACEHOLDER = re.compile(r"\[?\bpath:start-end\b\]?")


def without_placeholders(text: str) -> str:
    """The model's text without the sentences that copy the prompt's citation pattern ("The
    file that handles it is [path:start-end]."): such a sentence says nothing."""
    sentences = [p for p in _SENTENCE.split(text) if p.strip()]
    kept = [p for p in sentences if not _PLACEHOLDER.search(p)]
    return text if len(kept) == len(sentences) else " ".join(kept).strip()


async def _written(state: CodeQAState, ctx: CodeQAContext, blocks: list[ContextBlock]) -> str:
    history = state.get("conversation_history") or []
    turns = "\n".join(
        f"Q: {t['query']}\nA: {t['answer'][:HISTORY_ANSWER_CHARS]}"
        for t in history[-HISTORY_TURNS:]
    )
    turn = render(
        prompts.SYNTHESIS,
        codebase_tree=state.get("codebase_tree") or "(none)",
        context="\n\n".join(b.render() for b in blocks),
        history=render(prompts.HISTORY, turns=turns) if turns and state.get("is_follow_up") else "",
        question=state.get("user_query") or "",
    )
    try:
        written = await write_within_time(
            ctx.llm, [SystemMessage(content=prompts.SYNTHESIS_SYSTEM), HumanMessage(content=turn)]
        )
        text = written.text.strip()
    except Exception:
        logger.warning("the code answer failed; listing the matching code", exc_info=True)
        text = ""
    if text:
        return text
    places = "\n".join(
        f"- {b.path}:{b.start_line}-{b.end_line}" + (f" ({b.symbol})" if b.symbol else "")
        for b in blocks[:MAX_LISTED]
    )
    return prompts.MODEL_UNAVAILABLE.substitute(places=places)


def _previous_blocks(state: CodeQAState, ctx: CodeQAContext, repo_id: str) -> list[ContextBlock]:
    """A restatement answers from the code the last turn cited, reloaded by id (G11)."""
    # The last turn that showed code (a question about the conversation showed none).
    shown = [t for t in state.get("conversation_history") or [] if t.get("chunk_ids")]
    if not shown:
        return []
    repo = ctx.repository(repo_id)
    chunks = repo.chunks_by_id(shown[-1]["chunk_ids"])
    return expand(chunks, repo.documents(), ctx.settings.context_chars)


def _block(data: dict[str, Any]) -> ContextBlock:
    return ContextBlock(
        path=data["path"],
        start_line=data["start_line"],
        end_line=data["end_line"],
        code=data["code"],
        symbol=data["symbol"],
        chunk_id=data["chunk_id"],
        notes=list(data.get("notes") or []),
        cited=[tuple(span) for span in data.get("cited") or []],
    )


def _citation_dict(citation: Citation) -> dict[str, Any]:
    return {
        "label": str(citation),
        "path": citation.path,
        "start_line": citation.start_line,
        "end_line": citation.end_line,
        "symbol": citation.symbol,
        "chunk_id": citation.chunk_id,
    }
