"""Turning query results into an answer: the model writes it, the rows check it.

The rows themselves always travel with the answer (`final_structured_data`, shown as a table),
so the sentence only has to say what they mean. A small model sometimes states a number that is
not in the result (a row count for a sum, a neighbouring value) or a name it made up; every
number in its sentence must be a value of the result, the number of rows, or a number from the
question, and every name (a capitalised word inside a sentence: a customer, technician, part,
city) a word of the result's values or column names, of the question or of the query. If one
is not, the reply is written from the rows instead, without the model.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from frontdesk.agentkit.prompts import render, with_max_tokens
from frontdesk.agentkit.specifics import singular
from frontdesk.agentkit.writing import write_within_time
from frontdesk.assistants.analyst import prompts
from frontdesk.guardrails.screening import screen_untrusted
from frontdesk.knowledge.dates import MONTHS, WEEKDAYS

logger = logging.getLogger(__name__)

ANSWER_TOKENS = 160
PROMPT_ROWS = 10
# A result this small is spelled out in the reply written from the rows.
SPELLED_ROWS = 6
SPELLED_COLUMNS = 3
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


# A capitalised word inside a sentence is taken for a name ("James Clark", "Dallas"); the
# answer may only name what the rows, their column names, the question or the query name.
# Not names: the first word of a sentence, line or list item; all-capital words (HVAC, SLA);
# one-letter words; month and day names; and the common words below, which a model
# capitalises for emphasis or as labels ("the Total is", "Status: Open").
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_START = re.compile(r"(?:^|[.!?:]|\n)[\s\"'“‘«(\[*•#>–—-]*(?:\d+[.)]\s*)?$")
_IDENTIFIER_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_COMMON_WORDS = frozenset(
    _WORD.findall(
        """
    a an the and or but nor so yet if then than as of in on at to from by with without within
    into onto over under after before during between among per about above below across
    through since until via against along around i we you he she it they me us him her them
    my our your his its their this that these those there here who whom whose which what
    when where why how is are was were be been being has have had do does did done can could
    will would shall should may might must all any each every some none no not only just
    also most more less least many much few several both either neither other others another
    same such one two three four five six seven eight nine ten first second third last next
    previous top bottom highest lowest largest smallest maximum minimum max min average mean
    median sum total totals count counts number numbers amount amounts result results row rows
    record records table tables column columns query queries data database value values list
    null unknown yes ok okay note however overall currently together respectively approx
    approximately exactly roughly nearly about around today yesterday tomorrow week weeks month
    months year years quarter day days date dates time times hour hours minute minutes morning
    afternoon evening night weekend weekday am pm mr mrs ms dr sir madam id name names
    answer question please thanks crewos
    """
    )
)
_CALENDAR_WORDS = frozenset(
    [*MONTHS, *WEEKDAYS, *(m[:3] for m in MONTHS), *(d[:3] for d in WEEKDAYS), "sept"]
    + ["tue", "tues", "thu", "thur", "thurs"]
)


def _words(text: str) -> set[str]:
    """Every word of `text` (and of its identifiers: `workOrderNumber` gives work, order,
    number), case-folded, with its singular."""
    found = {w.casefold() for w in _WORD.findall(text)}
    found |= {w.casefold() for w in _IDENTIFIER_WORD.findall(text)}
    return found | {singular(w) for w in found}


def names_in(answer: str) -> list[str]:
    """The capitalised words of `answer` that are not the first word of a sentence, line or
    list item and are not all capitals."""
    names = []
    for match in _WORD.finditer(answer):
        word = match.group(0)
        if len(word) < 2 or not word[0].isupper() or word.isupper():
            continue
        if _SENTENCE_START.search(answer, 0, match.start()):
            continue
        names.append(word)
    return names


def unsupported_names(
    answer: str, rows: Sequence[dict[str, Any]], question: str, sql: str = ""
) -> set[str]:
    """The names the answer states that no row value, column name, word of the question or
    of the query that made the rows (`WHERE c.name = 'Pecan Grove Plastics'`) contains."""
    known = _words(question) | _words(sql) | _COMMON_WORDS | _CALENDAR_WORDS
    for row in rows:
        for column, value in row.items():
            known |= _words(str(column))
            if isinstance(value, str):
                known |= _words(value)
    return {
        name
        for name in names_in(answer)
        if name.casefold() not in known and singular(name.casefold()) not in known
    }


def plain_answer(columns: Sequence[str], rows: Sequence[dict[str, Any]], truncated: bool) -> str:
    """The reply written from the rows alone: a short result is spelled out, a long one is
    left to the table shown with it."""
    if len(rows) == 1 and len(columns) == 1:
        return f"The result is {_cell(rows[0][columns[0]])}."
    if len(rows) == 1:
        pairs = ", ".join(f"{c}: {_cell(rows[0][c])}" for c in columns)
        return f"Found one row: {pairs}."
    more = " (the first rows; there are more)" if truncated else ""
    if len(rows) <= SPELLED_ROWS and len(columns) <= SPELLED_COLUMNS:
        listed = "; ".join(", ".join(_cell(row[c]) for c in columns) for row in rows)
        return f"Found {len(rows)} rows{more}: {listed}."
    return f"Found {len(rows)} rows{more}; they are listed in the table below."


# "How many work orders are in each status?" answered "There are 128 work orders in the
# cancelled status.": every number and name checks out, yet it answers for one row of six.
# A question that asks for one item of a ranking may be answered from one row.
_ONE_ITEM = re.compile(
    r"\b(?:top|most|least|fewest|highest|lowest|largest|smallest|biggest|best|worst|"
    r"max(?:imum)?|min(?:imum)?|latest|earliest|newest|oldest|first|last)\b",
    re.IGNORECASE,
)


def rows_stated(answer: str, rows: Sequence[dict[str, Any]]) -> set[int]:
    """The indexes of the rows the answer speaks of: those with a value (a number, or a text
    of two letters or more) that no other row has and that the answer states."""
    said_numbers = numbers_in(answer)
    said_text = answer.casefold()
    own = [_row_values(row) for row in rows]
    stated = set()
    for index, values in enumerate(own):
        others = set().union(*(v for i, v in enumerate(own) if i != index))
        for value in values - others:
            kind, token = value
            if (kind == "n" and token in said_numbers) or (
                kind == "t" and re.search(rf"(?<!\w){re.escape(token)}(?!\w)", said_text)
            ):
                stated.add(index)
                break
    return stated


def _row_values(row: dict[str, Any]) -> set[tuple[str, str]]:
    values: set[tuple[str, str]] = set()
    for value in row.values():
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, str) and sum(ch.isalpha() for ch in value) >= 2:
            values.add(("t", value.casefold()))
        else:
            values |= {("n", n) for n in result_numbers([{"v": value}], 0) - {"0", ""}}
    return values


def leaves_out_rows(answer: str, rows: Sequence[dict[str, Any]], question: str) -> bool:
    """True when a result of several rows is answered from just one of them, or a short one
    from none (nor its row count: "Work orders are broken down by status."), and the question
    did not ask for one item."""
    if len(rows) < 2 or _ONE_ITEM.search(question):
        return False
    stated = len(rows_stated(answer, rows[:PROMPT_ROWS]))
    if stated == 1:
        return True
    return stated == 0 and len(rows) <= SPELLED_ROWS and str(len(rows)) not in numbers_in(answer)


async def summarize_rows(
    llm,
    question: str,
    columns: Sequence[str],
    rows: Sequence[dict[str, Any]],
    *,
    truncated: bool,
    sql: str = "",
) -> str:
    turn = render(
        prompts.ANSWER,
        question=question,
        row_count=len(rows),
        truncated=", more not shown" if truncated or len(rows) > PROMPT_ROWS else "",
        rows=render_table(columns, rows, PROMPT_ROWS),
    )
    try:
        # Written within the turn's running time: on a busy machine the answer is the rows,
        # worded in code, rather than a turn out of time after its query had run.
        written = await write_within_time(
            with_max_tokens(llm, ANSWER_TOKENS),
            [SystemMessage(content=prompts.ANSWER_SYSTEM), HumanMessage(content=turn)],
        )
        text = written.text.strip()
    except Exception:
        logger.warning("answer generation failed; answering from the rows", exc_info=True)
        return plain_answer(columns, rows, truncated)
    if not text:
        return plain_answer(columns, rows, truncated)
    wrong = unsupported_numbers(text, rows, question)
    if wrong:
        logger.info("answer stated numbers not in the result %s; answering from the rows", wrong)
        return plain_answer(columns, rows, truncated)
    if leaves_out_rows(text, rows, question):
        logger.info("answer left out rows of %d; answering from the rows", len(rows))
        return plain_answer(columns, rows, truncated)
    strangers = unsupported_names(text, rows, question, sql)
    if strangers:
        logger.info(
            "answer named %s, not in the result; answering from the rows", sorted(strangers)
        )
        return plain_answer(columns, rows, truncated)
    return text
