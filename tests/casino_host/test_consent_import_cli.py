"""`frontdesk sms consent import FILE.csv` as a casino runs it: the summary and the rejected
rows (last four digits only), --json, --report, --dry-run, and its exit codes (0 committed,
1 the database failed and nothing was written, 2 a file that cannot be read)."""

from __future__ import annotations

import csv
import json

import pytest
from tests.casino_host.test_consent_import import BAD, as_csv, optins, thousand_with_ten_bad
from typer.testing import CliRunner

from frontdesk.assistants.casino_host.storage import StorageUnavailable, Store
from frontdesk.cli import app
from frontdesk.config import get_settings

runner = CliRunner()
pytestmark = pytest.mark.usefixtures("offline_cli_env")


def run(*args: str):
    return runner.invoke(app, ["sms", "consent", "import", *args])


def opened() -> Store:
    return Store.from_settings(get_settings())


def consenting(casino_id: str) -> int:
    store = opened()
    try:
        return sum(
            bool(store.load_profile(casino_id, g).profile.consent.get("sms_opt_in"))
            for g in store.consent_chain_guests(casino_id)
        )
    finally:
        store.close()


def test_a_thousand_rows_with_ten_bad_import_990_and_name_the_ten(tmp_path):
    source, report = tmp_path / "optins.csv", tmp_path / "rejected.csv"
    source.write_bytes(thousand_with_ten_bad("mohegan_sun"))
    result = run(str(source), "--report", str(report))
    assert result.exit_code == 0, result.output
    assert "imported 990, unchanged 0, rejected 10 (of 1000 rows)" in result.stdout
    for index, (_column, _value, words) in BAD.items():
        assert f"line {index + 2} " in result.stdout and words in result.stdout
    assert "…0007" in result.stdout  # the last four digits, never the number
    shown = {f"{i:04d}" for i in BAD if i not in (80, 901)} | {"0899"}  # their own numbers
    assert not any(f"860555{four}" in result.stdout for four in shown)
    with report.open(newline="") as sink:
        rows = list(csv.DictReader(sink))
    assert [int(r["line"]) for r in rows] == sorted(i + 2 for i in BAD)
    assert all(len(r["phone_last_four"]) <= 4 for r in rows)
    again = run(str(source), "--json")  # the same file again: nothing new
    assert again.exit_code == 0, again.output
    body = json.loads(again.stdout)
    assert (body["rows"], body["imported"], body["unchanged"]) == (1000, 0, 990)
    assert len(body["rejected"]) == 10 and body["rejected"][0].keys() == {
        "line",
        "phone_last_four",
        "reason",
    }
    assert consenting("mohegan_sun") == 990


def test_a_dry_run_checks_everything_and_writes_nothing(tmp_path):
    source = tmp_path / "optins.csv"
    source.write_bytes(as_csv(optins("mohegan_sun", 20)))
    result = run(str(source), "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would import 20, unchanged 0, rejected 0" in result.stdout
    assert consenting("mohegan_sun") == 0
    assert "imported 20" in run(str(source)).stdout


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"phone,consent_type\n+18605550001,express\n", "lacks casino_id"),
        (b"\xff\xfecasino_id,phone\n", "not UTF-8"),
        (b"", "empty"),
    ],
)
def test_a_file_that_cannot_be_read_exits_2_and_writes_nothing(tmp_path, data, words):
    source = tmp_path / "optins.csv"
    source.write_bytes(data)
    result = run(str(source))
    assert result.exit_code == 2 and words in result.output
    assert run(str(tmp_path / "missing.csv")).exit_code == 2


def test_the_database_failing_midway_exits_1_and_a_rerun_imports_everything(tmp_path, monkeypatch):
    source = tmp_path / "optins.csv"
    source.write_bytes(as_csv(optins("mohegan_sun", 600)))
    append, calls = Store.append_consent_event, []

    def failing(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 500:
            raise StorageUnavailable("casino_host.sqlite3", "the connection went away")
        return append(self, *args, **kwargs)

    monkeypatch.setattr(Store, "append_consent_event", failing)
    result = run(str(source))
    assert result.exit_code == 1
    assert "nothing was imported" in result.output and "run it again" in result.output
    monkeypatch.setattr(Store, "append_consent_event", append)  # the database is back
    assert consenting("mohegan_sun") == 0
    rerun = run(str(source))
    assert rerun.exit_code == 0 and "imported 600, unchanged 0, rejected 0" in rerun.stdout


def test_an_unreachable_database_exits_1(tmp_path, monkeypatch):
    source = tmp_path / "optins.csv"
    source.write_bytes(as_csv(optins("mohegan_sun", 3)))
    monkeypatch.setenv(
        "FRONTDESK_CASINO_HOST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:9/none"
    )
    get_settings.cache_clear()
    result = run(str(source))
    assert result.exit_code == 1 and "unavailable" in result.output
