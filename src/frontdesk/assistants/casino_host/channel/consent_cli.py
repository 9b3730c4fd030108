"""`frontdesk sms consent import FILE.csv`: a casino's existing opt-ins, with their evidence.

The CSV has a header row naming its columns, in any order:

- required: casino_id, phone (E.164, e.g. +18605550123), consent_type (express or
  express_written), method (paper_form, loyalty_signup, web_form, …), captured_at (ISO 8601
  with its offset, e.g. 2026-03-01T14:30:00-05:00), disclosure_text (the words the guest
  agreed to; may be blank for express), tcpa_version (the rules it was taken under);
- optional: ip_address, user_agent, source_reference (the form's or sign-up's own id),
  marketing (true or false: the guest agreed to marketing texts; blank is true for
  express_written, and express cannot carry it).

Every row is checked; those that do not hold up are reported by line (a number shows only its
last four digits) and the rest are imported in one transaction: all of them, or, should the
database fail midway, none. Exit 0 once the import committed (rejected rows or not), 1 when the
database failed (nothing written), 2 for a file that cannot be read or a wrong header.
"""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer

from frontdesk.cli_common import console, fail, out

app = typer.Typer(help="Guests' SMS consent.", no_args_is_help=True)


@app.command("import")
def import_file(
    file: Annotated[Path, typer.Argument(help="The CSV of opt-ins.")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Check every row, write nothing.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The report as JSON.")] = False,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report", help="Write the rejected rows to this CSV (line, last four, reason)."
        ),
    ] = None,
) -> None:
    """Import existing opt-ins (loyalty sign-ups, paper forms) with their evidence.

    The CSV needs a header row; its columns may come in any order.
    Required: casino_id, phone (E.164, e.g. +18605550123),
    consent_type (express or express_written),
    method (paper_form, loyalty_signup, web_form, keyword, ...),
    captured_at (ISO 8601 with its offset or Z, e.g. 2026-03-01T14:30:00-05:00),
    disclosure_text (the words agreed to; required for express_written),
    tcpa_version (the rules it was taken under).
    Optional: ip_address, user_agent, source_reference,
    marketing (true or false; blank means true for express_written).

    Bad rows are reported by line, with the last four digits only; the rest
    go in one transaction, all or none. An import never lifts a STOP, nor
    brings back a consent the guest withdrew later; a guest who already
    holds as much is counted unchanged.

    Exit 0 once the import committed (rejected rows or not), 1 when the
    database failed (nothing written), 2 for a file that cannot be read or
    a wrong header.
    """
    from rich.markup import escape
    from rich.progress import Progress

    from frontdesk.assistants.casino_host.channel.stores import open_store
    from frontdesk.assistants.casino_host.consent.import_rows import ImportFileError, read_rows
    from frontdesk.assistants.casino_host.consent.imports import import_consents
    from frontdesk.assistants.casino_host.content import CasinoContent
    from frontdesk.assistants.casino_host.storage import (
        StaleProfile,
        StorageError,
        StorageUnavailable,
    )
    from frontdesk.config import get_settings

    try:
        data = file.read_bytes()
    except OSError as exc:
        raise fail(escape(f"cannot read {file}: {exc.strerror or exc}"), 2) from None
    now, content = datetime.now(UTC), CasinoContent.load()
    try:
        rows, rejected = read_rows(data, content.casino_ids, now)
    except ImportFileError as exc:
        raise fail(escape(f"{file}: {exc}"), 2) from None
    try:
        store = open_store(get_settings(), content)
    except StorageError as exc:
        raise fail(escape(str(exc)), 1) from None
    try:
        with Progress(console=console, transient=True, disable=len(rows) < 200) as bar:
            task = bar.add_task("checking" if dry_run else "importing", total=len(rows))
            done = import_consents(store, rows, rejected, now=now, dry_run=dry_run,
                                   progress=lambda: bar.advance(task))  # fmt: skip
    except StorageUnavailable as exc:
        raise fail(escape(f"{exc}; nothing was imported, run it again once the database is "
                          "back"), 1) from None  # fmt: skip
    except StaleProfile:
        raise fail("a guest's profile changed during the import (a message came in); nothing "
                   "was imported, run it again", 1) from None  # fmt: skip
    except StorageError as exc:
        raise fail(escape(f"{exc}; nothing was imported"), 1) from None
    finally:
        store.close()
    result = {"rows": len(rows) + len(rejected), **done.as_dict()}
    if report is not None:
        try:
            with report.open("w", newline="", encoding="utf-8") as sink:
                writer = csv.writer(sink)
                writer.writerow(["line", "phone_last_four", "reason"])
                writer.writerows([r["line"], r["phone_last_four"], r["reason"]]
                                 for r in result["rejected"])  # fmt: skip
        except OSError as exc:  # the import stands: say so, and what the report lacks
            console.print(f"warning: the import {'was checked' if dry_run else 'committed'}, "
                          f"but {report} could not be written: {exc.strerror or exc}",
                          markup=False)  # fmt: skip
    if as_json:
        out.print(json.dumps(result, ensure_ascii=False), markup=False)
        return
    verb = "would import" if dry_run else "imported"
    out.print(f"{verb} {done.imported}, unchanged {done.unchanged}, rejected "
              f"{len(done.rejected)} (of {len(rows) + len(rejected)} rows)")  # fmt: skip
    for row in result["rejected"]:
        shown = f"…{row['phone_last_four']}" if row["phone_last_four"] else "-"
        out.print(f"  line {row['line']} ({shown}): {row['reason']}", markup=False)
