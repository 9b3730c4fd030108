"""Reading a casino's existing opt-ins from CSV (`frontdesk sms consent import`), row by row.

One row, one guest's consent with its evidence (X4): where and how it was given and the words
the guest agreed to. Pure: what a row says and whether it holds up; the writes are
`consent/imports.py`. A file whose header is wrong is refused whole (`ImportFileError`); a
row that does not hold up is rejected with its line and reason, and the rest go on.
"""

from __future__ import annotations

import csv
import io
import ipaddress
import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

import phonenumbers

from frontdesk.assistants.casino_host.storage.phone import guest_number
from frontdesk.errors import FrontdeskError

REQUIRED = ("casino_id", "phone", "consent_type", "method", "captured_at", "disclosure_text",
            "tcpa_version")  # fmt: skip
OPTIONAL = ("ip_address", "user_agent", "source_reference", "marketing")
CONSENT_TYPES = ("express", "express_written")
# `marketing`: whether the guest agreed to marketing texts. Blank: yes for express_written
# (that is what written consent is taken for), no for express (which cannot carry it).
_YES, _NO = frozenset({"true", "yes", "y", "1"}), frozenset({"false", "no", "n", "0"})
# Columns people name otherwise, and the name this file wants.
_SPELLINGS = {"ip": "ip_address", "useragent": "user_agent", "marketing_consent": "marketing",
              "phone_number": "phone", "casino": "casino_id", "tcpa": "tcpa_version"}  # fmt: skip
_PUNCTUATION = re.compile(r"[\s().-]")  # (860) 555-0123, 860.555.0123
_METHOD = re.compile(r"^[a-z][a-z0-9_]{1,39}$")  # paper_form, loyalty_signup, web_form, …
MAX_TEXT = 1000
MAX_FIELD = 300


class ImportFileError(FrontdeskError):
    """The file cannot be imported at all (not UTF-8 text, no header, columns missing)."""


@dataclass(frozen=True)
class ImportRow:
    line: int  # in the file, the header being line 1
    casino_id: str
    phone: str  # E.164
    consent_type: str
    method: str
    captured_at: datetime
    disclosure_text: str | None  # required for express_written; may be blank for express
    tcpa_version: str
    ip_address: str | None = None
    user_agent: str | None = None
    source_reference: str | None = None
    marketing: bool = False  # the guest agreed to marketing texts (express_written only)


@dataclass(frozen=True)
class Rejected:
    line: int
    last_four: str  # of the number, when there is one: the report never shows a number
    reason: str


def last_four(value: str) -> str:
    digits = re.sub(r"\D", "", value)
    return digits[-4:] if len(digits) >= 4 else ""


def read_rows(data: bytes, casinos: Collection[str],
              now: datetime) -> tuple[list[ImportRow], list[Rejected]]:  # fmt: skip
    """Every row that holds up, and every one that does not with its reason."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFileError(f"the file is not UTF-8 text (byte {exc.start}); save it as "
                              "CSV UTF-8") from None  # fmt: skip
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [name.strip().lower() for name in next(reader)]
    except StopIteration:
        raise ImportFileError("the file is empty: it needs a header row") from None
    except csv.Error as exc:
        raise ImportFileError(f"line 1 is not CSV: {exc}") from None
    missing = [name for name in REQUIRED if name not in header]
    if missing:
        raise ImportFileError(f"the header lacks {', '.join(missing)}; it needs "
                              f"{', '.join(REQUIRED)} (and may have {', '.join(OPTIONAL)})")  # fmt: skip
    unknown = [name for name in header if name not in REQUIRED + OPTIONAL]
    if unknown or len(set(header)) != len(header):
        hints = [f"{n} (did you mean {_SPELLINGS[n]}?)" if n in _SPELLINGS else n or "(blank)"
                 for n in unknown]  # fmt: skip
        raise ImportFileError(f"the header has unknown or repeated columns: {', '.join(hints)}"
                              if unknown else "the header repeats a column")  # fmt: skip
    rows: list[ImportRow] = []
    rejected: list[Rejected] = []
    seen: dict[tuple[str, str], int] = {}
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            rejected.append(Rejected(reader.line_num, "", f"not CSV: {exc}"))
            continue
        line = reader.line_num
        if not any(field.strip() for field in fields):
            continue  # a blank line
        if len(fields) != len(header):
            at = header.index("phone")
            shown = last_four(fields[at]) if at < len(fields) else ""
            rejected.append(Rejected(line, shown, f"{len(fields)} fields, the header has "
                                     f"{len(header)} (a comma in a field needs quotes)"))  # fmt: skip
            continue
        values = {name: field.strip() for name, field in zip(header, fields, strict=True)}
        try:
            row = _row(line, values, casinos, now)
        except ValueError as exc:
            rejected.append(Rejected(line, last_four(values.get("phone", "")), str(exc)))
            continue
        earlier = seen.get((row.casino_id, row.phone))
        if earlier is not None:
            rejected.append(Rejected(line, last_four(row.phone), "the same number (for this "
                                     f"casino) is on line {earlier}, an earlier line"))  # fmt: skip
            continue
        seen[(row.casino_id, row.phone)] = line
        rows.append(row)
    return rows, rejected


def _row(line: int, values: dict[str, str], casinos: Collection[str], now: datetime) -> ImportRow:
    casino = values["casino_id"]
    if casino not in casinos:
        raise ValueError(f"unknown casino '{casino[:40]}' (known: {', '.join(sorted(casinos))})")
    written = _PUNCTUATION.sub("", values["phone"])
    try:
        phone = guest_number(written)
    except FrontdeskError:
        raise ValueError("the phone is not a number in E.164 form such as +18605550123") from None
    if not _is_real_number(phone):
        # "(860) 555-12" is not "+86055512": a number cut short is refused, never guessed.
        raise ValueError("the phone is not a whole number: write it in E.164 form with its "
                         "country code, such as +18605550123")  # fmt: skip
    kind = values["consent_type"]
    if kind not in CONSENT_TYPES:
        raise ValueError(f"consent_type must be {' or '.join(CONSENT_TYPES)}, not '{kind[:40]}'")
    if not _METHOD.match(values["method"]):
        raise ValueError("method must be a short lowercase name such as paper_form")
    captured = _captured_at(values["captured_at"], now)
    disclosure = values["disclosure_text"] or None
    if disclosure is None and kind == "express_written":
        raise ValueError("disclosure_text is empty: written consent is the words the guest "
                         "agreed to")  # fmt: skip
    if disclosure is not None and len(disclosure) > MAX_TEXT:
        raise ValueError(f"disclosure_text is longer than {MAX_TEXT} characters")
    if not values["tcpa_version"] or len(values["tcpa_version"]) > MAX_FIELD:
        raise ValueError("tcpa_version is empty or too long")
    ip = values.get("ip_address") or None
    if ip is not None:
        try:
            ip = str(ipaddress.ip_address(ip))
        except ValueError:
            raise ValueError("ip_address is not an IP address") from None
    agent, reference = values.get("user_agent") or None, values.get("source_reference") or None
    if any(len(v) > MAX_FIELD for v in (agent or "", reference or "")):
        raise ValueError(f"user_agent or source_reference is longer than {MAX_FIELD} characters")
    return ImportRow(line, casino, phone, kind, values["method"], captured, disclosure,
                     values["tcpa_version"], ip, agent, reference,
                     _marketing(values.get("marketing", ""), kind))  # fmt: skip


def _is_real_number(e164: str) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(e164))
    except phonenumbers.NumberParseException:
        return False


def _captured_at(value: str, now: datetime) -> datetime:
    if not value:
        raise ValueError("captured_at is empty: when was the consent given?")
    try:
        captured = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(
            "captured_at is not an ISO 8601 time (2026-03-01T14:30:00-05:00)"
        ) from None
    if captured.tzinfo is None:
        raise ValueError("captured_at needs its UTC offset (or Z): when was it, where?")
    if captured > now:
        raise ValueError("captured_at is in the future")
    return captured


def _marketing(value: str, kind: str) -> bool:
    flag = value.lower()
    if flag and flag not in _YES | _NO:
        raise ValueError("marketing must be true or false (or blank)")
    if flag in _YES and kind != "express_written":
        raise ValueError("marketing needs express_written consent; this row is express")
    return kind == "express_written" and flag not in _NO
