"""The technical agent's answer: generated from the context, checked, cited.

The answer is checked against its context by the core's grounding check (every number, time,
size, price... it states must be in the context, for the thing it describes). A 0.5B model
reading four long chunks picks a neighbouring value now and then ("160 MHz" for the 80 MHz
default); told which detail is wrong and shown the context sentence that holds the right one,
it usually corrects it. If its second answer still fails, the customer gets the context's own
sentences about the question instead of a wrong value.

Every answer then ends with the real Sources section (`Title — Section — File (version)`),
whatever the model wrote for one.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from frontdesk.agentkit.grounding import check_grounding
from frontdesk.agentkit.prompts import render
from frontdesk.agentkit.streaming import message_text
from frontdesk.assistants.telecom import prompts
from frontdesk.knowledge.mmr import citation_of


async def grounded_answer(
    llm, system: str, turn: str, context: list[str], language: str
) -> str:
    """The model's answer to `turn`, retried once when it states what `context` does not."""
    reply = await llm.ainvoke([SystemMessage(content=system), HumanMessage(content=turn)])
    text = message_text(reply).strip()
    report = check_grounding(text, context)
    if not text or report.grounded:
        return text
    retry = f"{turn}\n\n" + render(prompts.RETRY_FEEDBACK, feedback=report.feedback())
    reply = await llm.ainvoke([SystemMessage(content=system), HumanMessage(content=retry)])
    second = message_text(reply).strip()
    again = check_grounding(second, context)
    if second and again.grounded:
        return second
    evidence = again.evidence or report.evidence
    if evidence:
        return render(prompts.FROM_THE_MANUAL[language], sentences=" ".join(evidence))
    return render(prompts.NOT_RELIABLE[language])


def bounded_context(hits: list[dict[str, Any]], max_chars: int) -> list[dict[str, Any]]:
    """The hits that fit in `max_chars` as `[SOURCE] ...` blocks (at least the first)."""
    kept, used = [], 0
    for hit in hits:
        size = len(source_block(hit))
        if kept and used + size > max_chars:
            break
        kept.append(hit)
        used += size
    return kept


def cite(hit: dict[str, Any]) -> str:
    c = citation_of(hit)
    version = f" ({c['version']})" if c["version"] else ""
    return f"{c['title']} — {c['section']} — {c['file']}{version}"


def source_block(hit: dict[str, Any]) -> str:
    return f"[SOURCE] {cite(hit)}\n{hit['content']}"


def sources_section(hits: list[dict[str, Any]], language: str) -> str:
    lines = list(dict.fromkeys(f"- {cite(hit)}" for hit in hits))
    return prompts.SOURCES_HEADING[language] + "\n" + "\n".join(lines)


# A "Sources:" label the model wrote, on its own line or inline ("... Sources: x").
_SOURCES_LABEL = re.compile(r"(\*\*|#+\s*)?\b(sources|źródła|zrodla)\b(\*\*)?\s*:", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\[SOURCES?\]", re.IGNORECASE)


def with_sources(text: str, hits: list[dict[str, Any]], language: str) -> str:
    """`text` ending with the real Sources section, whatever the model wrote for one."""
    section = sources_section(hits, language)
    if _PLACEHOLDER.search(text):
        return _PLACEHOLDER.sub(section, text, count=1).strip()
    # A section the model wrote is replaced: its titles may be made up or incomplete.
    labels = list(_SOURCES_LABEL.finditer(text))
    body = text[: labels[-1].start()] if labels else text
    if not body.strip():  # the model wrote only a "Sources:" line: keep its words, not its label
        body = _SOURCES_LABEL.sub("", text)
    return f"{body.rstrip()}\n\n{section}"


