"""Asking the model for SQL: the reply's SQL extracted, and a repeat of a failed query asked
again with sampling."""

from __future__ import annotations

import logging
import re
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from frontdesk.agentkit.prompts import with_max_tokens
from frontdesk.agentkit.streaming import message_text

__all__ = ["SQL_TOKENS", "ask_new_sql", "extract_sql"]

logger = logging.getLogger(__name__)

SQL_TOKENS = 320
# Sampling temperature for a second try when the model repeats a query already tried.
RETRY_TEMPERATURE = 0.8

_FENCE = re.compile(r"```(?:sql)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_START = re.compile(r"\b(select|with)\b", re.IGNORECASE)
# The correction prompt's own labels, which a small model copies after its SQL ("Attempt 2:
# SELECT ... -> no such column", "Error:"): a line that opens with one is the prompt, not SQL.
_PROMPT_LABEL = re.compile(
    r"^[ \t]*(?:attempt \d+|error|question|failed sql|corrected sql|tables used)[ \t]*:",
    re.IGNORECASE | re.MULTILINE,
)


def extract_sql(reply: str) -> str:
    """The SQL in a model's reply: inside a code fence if there is one, from the first
    SELECT/WITH, without the trailing semicolon. Anything else in it is left for the checker
    to refuse (it is never cut away silently)."""
    text = reply.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    start = _START.search(text)
    if start:
        text = text[start.start() :]
    echoed = _PROMPT_LABEL.search(text)
    if echoed:
        text = text[: echoed.start()]
    return text.strip().rstrip(";").strip()


async def ask_sql(llm, system: str, turn: str, **options: Any) -> str:
    model = with_max_tokens(llm, SQL_TOKENS)
    reply = await (model.bind(**options) if options else model).ainvoke(
        [SystemMessage(content=system), HumanMessage(content=turn)]
    )
    return extract_sql(message_text(reply))


def same_sql(a: str, b: str) -> bool:
    return " ".join(a.split()).lower() == " ".join(b.split()).lower()


async def ask_new_sql(llm, system: str, turn: str, tried: list[str]) -> str:
    """SQL for `turn`; when it repeats a query already tried, asked once more with sampling.

    A small model decoding greedily answers a correction prompt with the failed query word for
    word (seen on most failed Chinook cases), which would spend every attempt on one answer.
    """
    sql = await ask_sql(llm, system, turn)
    if any(same_sql(sql, old) for old in tried):
        logger.info("the model repeated a query already tried; asking again with sampling")
        sql = await ask_sql(llm, system, turn, temperature=RETRY_TEMPERATURE)
    return sql
