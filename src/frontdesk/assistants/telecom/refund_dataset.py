"""The refund conversations a suite runs: one JSONL row per conversation, read and checked.

    {"id", "language", "user_id", "turns": [the customer's messages, in order],
     "expect": {"cases_opened": 0 or 1, "case": {"invoice_id", "amount_pln", "reason"},
                "kind"}, "note"?}

(`case` is given when one case is expected, absent or null otherwise. A field of `case` given
as null is not compared.) A malformed row is reported by its line; nothing half-loads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from frontdesk.eval.datasets import DatasetError

CENT = Decimal("0.01")


@dataclass(frozen=True)
class ExpectedCase:
    """What the case must hold; a None field is not compared."""

    invoice_id: str | None
    amount_pln: Decimal | None
    reason: str | None


@dataclass(frozen=True)
class RefundConversation:
    id: str
    language: str
    user_id: str
    turns: tuple[str, ...]
    cases_opened: int
    case: ExpectedCase | None
    kind: str
    note: str | None = None
    line: int = 0


@dataclass(frozen=True)
class OpenedCase:
    case_id: str
    user_id: str
    invoice_id: str
    amount_pln: Decimal
    reason: str


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ValueError(message)


def _text(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"'{key}' must be a non-empty string, got {value!r:.80}")
    return value.strip()


def _optional_text(row: dict[str, Any], key: str) -> str | None:
    return None if row.get(key) is None else _text(row, key)


def _amount(value: Any) -> Decimal | None:
    if value is None:
        return None
    number = not isinstance(value, bool) and isinstance(value, int | float | str)
    _require(number, f"'amount_pln' must be a number, got {value!r:.80}")
    try:
        amount = Decimal(str(value)).quantize(CENT)
    except InvalidOperation:
        raise ValueError(f"'amount_pln' must be a number, got {value!r:.80}") from None
    if amount <= 0:
        raise ValueError(f"'amount_pln' must be more than 0, got {value!r}")
    return amount


def parse_conversation(row: Any, line: int = 0) -> RefundConversation:
    """One dataset row; ValueError says what is wrong with it."""
    _require(isinstance(row, dict), f"a row must be a JSON object, got {type(row).__name__}")
    turns = row.get("turns")
    _require(
        isinstance(turns, list)
        and bool(turns)
        and all(isinstance(t, str) and t.strip() for t in turns),
        "'turns' must be a non-empty list of non-empty strings",
    )
    expect = row.get("expect")
    _require(isinstance(expect, dict), "'expect' must be an object")
    opened = expect.get("cases_opened")
    _require(
        not isinstance(opened, bool) and isinstance(opened, int) and opened >= 0,
        f"'expect.cases_opened' must be a whole number >= 0, got {opened!r}",
    )
    given = expect.get("case")
    if opened == 1:
        _require(isinstance(given, dict), "'expect.case' must be an object when one is expected")
        for key in ("invoice_id", "amount_pln", "reason"):
            _require(key in given, f"'expect.case' must give '{key}' (null: not compared)")
        invoice = _optional_text(given, "invoice_id")
        reason = _optional_text(given, "reason")
        case = ExpectedCase(
            invoice_id=invoice.upper() if invoice else None,
            amount_pln=_amount(given["amount_pln"]),
            reason=reason.lower() if reason else None,
        )
    else:
        _require(given is None, f"'expect.case' is for one expected case; this expects {opened}")
        case = None
    note = row.get("note")
    return RefundConversation(
        id=_text(row, "id"),
        language=_text(row, "language").lower(),
        user_id=_text(row, "user_id"),
        turns=tuple(turns),
        cases_opened=opened,
        case=case,
        kind=_optional_text(expect, "kind") or "unlabelled",
        note=note if isinstance(note, str) else None,
        line=line,
    )


def load_conversations(path: str | Path) -> list[RefundConversation]:
    """The conversations of a JSONL file in file order; DatasetError names the line at fault."""
    path = Path(path)
    if not path.is_file():
        raise DatasetError(f"{path}: dataset file not found")
    conversations: list[RefundConversation] = []
    seen: set[str] = set()
    for number, raw in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:  # JSONDecodeError is a ValueError too
            conversation = parse_conversation(json.loads(raw), number)
            if conversation.id in seen:
                raise ValueError(f"duplicate id {conversation.id!r}")
        except ValueError as exc:
            raise DatasetError(f"{path}:{number}: {exc}") from None
        seen.add(conversation.id)
        conversations.append(conversation)
    if not conversations:
        raise DatasetError(f"{path}: no conversations")
    return conversations
