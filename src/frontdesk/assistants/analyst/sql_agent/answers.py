"""Turning query results into an answer: the model writes it, the rows check it.

The rows themselves always travel with the answer (`final_structured_data`, shown as a table),
so the sentence only has to say what they mean. A small model sometimes states a number that is
not in the result (a row count for a sum, a neighbouring value); every number in its sentence
must be a value of the result, the number of rows, or a number from the question. If one is
not, the reply is written from the rows instead, without the model.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from frontdesk.agentkit.prompts import render, with_max_tokens
from frontdesk.agentkit.streaming import message_text
from frontdesk.assistants.analyst import prompts
from frontdesk.guardrails.screening import screen_untrusted

logger = logging.getLogger(__name__)

ANSWER_TOKENS = 160
PROMPT_ROWS = 10
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")


def render_table(columns: Sequence[str], rows: Sequence[dict[str, Any]], limit: int) -> str:
    """`col | col` lines, at most `limit` rows: what the model reads. Cells are database
    content anyone may have written (a work order's notes): instructions planted in them are
    screened out before they reach a prompt."""
    head = " | ".join(columns)
    body = [" | ".join(screened_cell(row.get(c)) for c in columns) for row in rows[:limit]]
    return "\n".join([head, *body])


def screened_cell(value: Any) -> str:
    """One cell as a prompt shows it, instructions planted in it screened out."""
    return screen_untrusted(_cell(value)).text


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    return str(value)


def _canonical(token: str) -> str | None:
    try:
        number = Decimal(token.replace(",", ""))
    except InvalidOperation:
        return None
    return format(number.normalize(), "f") if number != 0 else "0"


def numbers_in(text: str) -> set[str]:
    return {c for c in (_canonical(m) for m in _NUMBER.findall(text)) if c is not None}


def result_numbers(rows: Sequence[dict[str, Any]], row_count: int) -> set[str]:
    values = {str(row_count)}
    for row in rows:
        for value in row.values():
            if isinstance(value, bool) or value is None:
                continue
            if isinstance(value, int | float | Decimal):
                as_text = _canonical(
                    str(round(float(value), 2)) if isinstance(value, float) else str(value)
                )
                if as_text:
                    values.add(as_text)
                    values.add(_canonical(str(round(float(value)))) or "")
            else:
                values |= numbers_in(str(value))
    return values


def unsupported_numbers(answer: str, rows: Sequence[dict[str, Any]], question: str) -> set[str]:
    allowed = result_numbers(rows, len(rows)) | numbers_in(question)
    return numbers_in(answer) - allowed


# A capitalised word inside a sentence is a name ("James Clark", "Dallas"); the answer may only
# name what the rows, their columns or the question name.
_NAME = re.compile(r"(?<=[a-z,;:] )[A-Z][a-zA-Z'-]+")


def unsupported_names(answer: str, rows: Sequence[dict[str, Any]], question: str) -> set[str]:
    known = " ".join(
        [
            question,
            *(str(k) for row in rows[:1] for k in row),
            *(str(v) for row in rows for v in row.values()),
        ]
    ).casefold()
    return {name for name in _NAME.findall(answer) if name.casefold() not in known}


def plain_answer(columns: Sequence[str], rows: Sequence[dict[str, Any]], truncated: bool) -> str:
    """The reply written from the rows alone."""
    if len(rows) == 1 and len(columns) == 1:
        return f"The result is {_cell(rows[0][columns[0]])}."
    if len(rows) == 1:
        pairs = ", ".join(f"{c}: {_cell(rows[0][c])}" for c in columns)
        return f"Found one row: {pairs}."
    more = " (the first rows; there are more)" if truncated else ""
    return f"Found {len(rows)} rows{more}; they are listed in the table below."


async def summarize_rows(
    llm, question: str, columns: Sequence[str], rows: Sequence[dict[str, Any]], *, truncated: bool
) -> str:
    turn = render(
        prompts.ANSWER,
        question=question,
        row_count=len(rows),
        truncated=", more not shown" if truncated or len(rows) > PROMPT_ROWS else "",
        rows=render_table(columns, rows, PROMPT_ROWS),
    )
    try:
        reply = await with_max_tokens(llm, ANSWER_TOKENS).ainvoke(
            [SystemMessage(content=prompts.ANSWER_SYSTEM), HumanMessage(content=turn)]
        )
        text = message_text(reply).strip()
    except Exception:
        logger.warning("answer generation failed; answering from the rows", exc_info=True)
        return plain_answer(columns, rows, truncated)
    wrong = unsupported_numbers(text, rows, question)
    if not text or wrong:
        if wrong:
            logger.info(
                "answer stated numbers not in the result %s; answering from the rows", wrong
            )
        return plain_answer(columns, rows, truncated)
    return text
