"""`frontdesk sms consent import`: a casino's existing opt-ins, row by row, all or none
(issue 33). The rows' checks are pure; the import runs on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest
from tests.casino_host import test_storage_support as support
from tests.casino_host.test_storage_support import NOW

from frontdesk.assistants.casino_host.channel.eligibility import check_message_eligibility
from frontdesk.assistants.casino_host.channel.outbound import OutboundSender
from frontdesk.assistants.casino_host.channel.providers import SimulatorProvider
from frontdesk.assistants.casino_host.consent.import_rows import (
    REQUIRED,
    ImportFileError,
    read_rows,
)
from frontdesk.assistants.casino_host.consent.imports import import_consents
from frontdesk.assistants.casino_host.consent.records import receive
from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.storage import StorageUnavailable, Store

casino = support.casino
database_url = support.database_url
postgres_server = support.postgres_server
postgres_url = support.postgres_url
store = support.store

DISCLOSURE = ("Join Momentum texts: up to 8 msgs/month. Msg&data rates may apply. Reply STOP "
              "to cancel. Consent is not a condition of purchase.")  # fmt: skip
TCPA = "47 CFR 64.1200, as amended 2025-04-11"


def optins(casino_id: str, n: int, *, written: bool = True, start: int = 0) -> list[dict]:
    return [{"casino_id": casino_id, "phone": f"+1860555{start + i:04d}",
             "consent_type": "express_written" if written else "express",
             "method": "loyalty_signup", "captured_at": "2026-01-10T12:00:00-05:00",
             "disclosure_text": DISCLOSURE, "tcpa_version": TCPA, "ip_address": "203.0.113.9",
             "source_reference": f"SIGNUP-{i}"} for i in range(n)]  # fmt: skip


def as_csv(rows: list[dict], header: list[str] | None = None) -> bytes:
    sink = io.StringIO()
    columns = header or list(dict.fromkeys(name for row in rows for name in row))
    writer = csv.DictWriter(sink, fieldnames=columns)
    writer.writeheader()
    writer.writerows(rows)
    return sink.getvalue().encode()


BAD = {  # row index -> (column, value, the reason's words)
    7: ("casino_id", "caesars", "unknown casino"),
    80: ("phone", "call me maybe", "E.164"),
    150: ("consent_type", "implied", "consent_type must be"),
    222: ("captured_at", "yesterday", "not an ISO 8601"),
    300: ("captured_at", "2026-01-10T12:00:00", "needs its UTC offset"),
    410: ("captured_at", "2031-01-01T00:00:00Z", "in the future"),
    555: ("disclosure_text", "", "disclosure_text is empty"),
    640: ("ip_address", "300.1.1.1", "not an IP address"),
    777: ("method", "Paper Form!", "method must be"),
    901: ("phone", "+18605550900", "earlier line"),  # row 900's number again
}


def thousand_with_ten_bad(casino_id: str) -> bytes:
    rows = optins(casino_id, 1000)
    for index, (column, value, _reason) in BAD.items():
        rows[index][column] = value
    return as_csv(rows)


# -- the rows' checks (pure) -------------------------------------------------------------------


def test_ten_bad_rows_of_a_thousand_are_named_by_line_with_their_reason():
    rows, rejected = read_rows(thousand_with_ten_bad("mohegan_sun"), {"mohegan_sun"}, NOW)
    assert len(rows) == 990
    assert {r.line: r.reason for r in rejected}.keys() == {i + 2 for i in BAD}  # header: line 1
    for r in rejected:
        assert BAD[r.line - 2][2] in r.reason
    # A report shows the last four digits at most, never a number.
    assert all(len(r.last_four) <= 4 for r in rejected)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "empty"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        (b"casino_id,consent_type\nmohegan_sun,express\n", "lacks phone"),
        (",".join([*REQUIRED, "shoe_size"]).encode() + b"\n", "unknown or repeated"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_whole(data, words):
    with pytest.raises(ImportFileError, match=words):
        read_rows(data, {"mohegan_sun"}, NOW)


def test_a_row_with_too_many_or_too_few_fields_is_rejected_and_the_rest_go_on():
    good = as_csv(optins("mohegan_sun", 2)).decode()
    data = (good + "mohegan_sun,+18605559999,express\n" + "\n").encode()
    rows, rejected = read_rows(data, {"mohegan_sun"}, NOW)
    assert len(rows) == 2 and [r.line for r in rejected] == [4]
    assert "3 fields" in rejected[0].reason and rejected[0].last_four == "9999"


# -- the import ----------------------------------------------------------------------------


def consenting(store: Store, casino_id: str) -> int:
    return sum(
        bool(store.load_profile(casino_id, g).profile.consent.get("sms_opt_in"))
        for g in store.consent_chain_guests(casino_id)
    )


def test_990_of_a_thousand_are_imported_once_with_their_evidence(store, casino):
    rows, rejected = read_rows(thousand_with_ten_bad(casino), {casino}, NOW)
    report = import_consents(store, rows, rejected, now=NOW)
    assert (report.imported, report.unchanged, len(report.rejected)) == (990, 0, 10)
    again = import_consents(store, *read_rows(thousand_with_ten_bad(casino), {casino}, NOW),
                            now=NOW + timedelta(minutes=1))  # fmt: skip
    assert (again.imported, again.unchanged) == (0, 990)  # the same file twice: nothing new
    guest = store.find_guest(casino, "+18605550000")
    [event] = store.consent_chain(casino, guest)
    assert event.payload["method"] == "import:loyalty_signup"
    assert event.payload["disclosure_text"] == DISCLOSURE and event.payload["tcpa_version"] == TCPA
    assert event.payload["ip_address"] == "203.0.113.9" and event.payload["channel"] == "import"
    guests = store.consent_chain_guests(casino)
    assert len(guests) == 990 and all(store.verify_consent_chain(casino, g).valid for g in guests)
    assert len(store.audit_entries(casino, event="consent_imported", limit=2000)) == 990


def test_a_database_that_fails_midway_leaves_nothing_imported(store, casino, monkeypatch):
    rows, rejected = read_rows(as_csv(optins(casino, 600)), {casino}, NOW)
    append, calls = store.append_consent_event, []

    def failing(*args, **kwargs):
        calls.append(1)
        if len(calls) == 500:
            raise StorageUnavailable("test-db", "the connection went away")
        return append(*args, **kwargs)

    monkeypatch.setattr(store, "append_consent_event", failing)
    with pytest.raises(StorageUnavailable):
        import_consents(store, rows, rejected, now=NOW)
    monkeypatch.undo()
    assert consenting(store, casino) == 0 and store.find_guest(casino, "+18605550001") is None
    assert store.audit_entries(casino, event="consent_imported") == []
    report = import_consents(store, rows, rejected, now=NOW)  # back: all of it, once
    assert report.imported == 600


def test_an_import_never_overrides_a_stop_and_a_dry_run_writes_nothing(store, casino):
    guest, _ = store.get_or_create_guest(casino, "+18605550003", now=NOW)
    loaded = store.load_profile(casino, guest)
    loaded.profile.consent.update(suppressed=True, sms_opt_in=False)
    store.save_profile(casino, loaded.profile, loaded.version, now=NOW)
    rows, rejected = read_rows(as_csv(optins(casino, 5)), {casino}, NOW)
    dry = import_consents(store, rows, rejected, now=NOW, dry_run=True)
    assert (dry.imported, [r.line for r in dry.rejected]) == (4, [5])
    assert "STOP" in dry.rejected[0].reason and consenting(store, casino) == 0
    assert import_consents(store, rows, rejected, now=NOW).imported == 4
    assert store.load_profile(casino, guest).profile.consent["suppressed"] is True


def test_express_consent_is_raised_to_written_by_a_later_written_one(store, casino):
    express = read_rows(as_csv(optins(casino, 3, written=False)), {casino}, NOW)
    written = read_rows(as_csv(optins(casino, 3)), {casino}, NOW)
    assert import_consents(store, *express, now=NOW).imported == 3
    assert import_consents(store, *written, now=NOW).imported == 3
    assert import_consents(store, *express, now=NOW).unchanged == 3  # never lowered


def test_the_gate_lets_marketing_reach_only_written_consent(tmp_path):
    opened = Store(tmp_path / "gate.db", phone_pepper="test-pepper")
    content = CasinoContent.load()
    opened.put_casino("mohegan_sun", name="Mohegan Sun", timezone="America/New_York", state="CT")
    rows = optins("mohegan_sun", 1) + optins("mohegan_sun", 1, written=False, start=1)
    import_consents(opened, *read_rows(as_csv(rows), {"mohegan_sun"}, NOW), now=NOW)
    sender = OutboundSender(opened, content, SimulatorProvider())
    noon = datetime(2026, 11, 25, 17, 0, tzinfo=UTC)  # noon in Connecticut
    assert sender.check("mohegan_sun", "+18605550000", "marketing", noon).eligible
    express = sender.check("mohegan_sun", "+18605550001", "marketing", noon)
    assert not express.eligible and express.consent_tier == "express_written"
    assert sender.check("mohegan_sun", "+18605550001", "informational", noon).eligible
    assert check_message_eligibility  # the gate the sender runs (channel/eligibility.py)
    opened.close()


@pytest.mark.postgres
def test_postgresql_going_away_midway_leaves_nothing_imported(postgres_server):
    """The server ends the import's connection at row 300 (as a restart or failover would)."""
    from sqlalchemy import create_engine, text

    url = postgres_server()
    opened = Store(url, phone_pepper="test-pepper")
    opened.put_casino("mohegan_sun", name="Mohegan Sun", timezone="America/New_York", state="CT")
    rows, rejected = read_rows(as_csv(optins("mohegan_sun", 500)), {"mohegan_sun"}, NOW)
    admin = create_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    done = []

    def cut_at_300() -> None:
        done.append(1)
        if len(done) == 300:
            with admin.connect() as conn:
                conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                  "WHERE datname = :db AND pid <> pg_backend_pid()"),
                             {"db": url.rsplit("/", 1)[1]})  # fmt: skip

    with pytest.raises(StorageUnavailable):
        import_consents(opened, rows, rejected, now=NOW, progress=cut_at_300)
    admin.dispose()
    assert opened.consent_chain_guests("mohegan_sun") == []
    assert opened.find_guest("mohegan_sun", "+18605550001") is None
    assert import_consents(opened, rows, rejected, now=NOW).imported == 500  # back: all, once
    opened.close()


# -- the guest's own word, marketing, and the rows' finer checks -------------------------------


def texted(store: Store, casino_id: str, phone: str, words: str, at: datetime) -> None:
    """The guest texts a keyword (STOP, START) through the real consent path."""
    place = CasinoContent.load().catalog("mohegan_sun").casino
    receive(store, casino_id, place, phone, words, f"{phone}-{words}-{at.isoformat()}", at)


def test_a_stop_after_the_consent_was_captured_is_never_overridden(store, casino):
    later = NOW + timedelta(hours=3)
    written = as_csv(optins(casino, 2))  # captured 2026-01-10
    assert import_consents(store, *read_rows(written, {casino}, NOW), now=NOW).imported == 2
    texted(store, casino, "+18605550000", "STOP", NOW + timedelta(hours=1))
    texted(store, casino, "+18605550000", "START", NOW + timedelta(hours=2))  # SMS only again
    texted(store, casino, "+18605550001", "STOP", NOW + timedelta(hours=1))  # and stays out
    again = import_consents(store, *read_rows(written, {casino}, later), now=later)
    assert again.imported == 0 and [r.line for r in again.rejected] == [2, 3]
    assert "opted out on 2026-03-15 15:00 UTC, after this consent was captured" in (
        again.rejected[0].reason
    )
    assert "opted out on 2026-03-15 15:00 UTC (STOP)" in again.rejected[1].reason
    consent = store.load_profile(casino, store.find_guest(casino, "+18605550000")).profile.consent
    assert consent["sms_opt_in"] and not consent["marketing_consent"]
    assert consent.get("consent_type") != "express_written"
    # SMS consent captured before the STOP: the guest holds it already (their START).
    express = read_rows(as_csv(optins(casino, 1, written=False)), {casino}, later)
    assert import_consents(store, *express, now=later).unchanged == 1
    # A form signed after the START is a new consent, and counts.
    fresh = optins(casino, 2)
    for row in fresh:
        row["captured_at"] = (NOW + timedelta(hours=2, minutes=30)).isoformat()
    report = import_consents(store, *read_rows(as_csv(fresh), {casino}, later), now=later)
    assert report.imported == 1 and "(STOP)" in report.rejected[0].reason  # 0001 is still out
    guest = store.find_guest(casino, "+18605550000")
    assert store.load_profile(casino, guest).profile.consent["marketing_consent"] is True
    assert store.consent_chain_length(casino, guest) == 4
    assert store.verify_consent_chain(casino, guest).valid


def test_written_consent_without_marketing_reaches_informational_only(tmp_path):
    opened = Store(tmp_path / "gate.db", phone_pepper="test-pepper")
    opened.put_casino("mohegan_sun", name="Mohegan Sun", timezone="America/New_York", state="CT")
    rows = optins("mohegan_sun", 1)
    rows[0]["marketing"] = "false"
    import_consents(opened, *read_rows(as_csv(rows), {"mohegan_sun"}, NOW), now=NOW)
    sender = OutboundSender(opened, CasinoContent.load(), SimulatorProvider())
    noon = datetime(2026, 11, 25, 17, 0, tzinfo=UTC)
    assert not sender.check("mohegan_sun", "+18605550000", "marketing", noon).eligible
    assert sender.check("mohegan_sun", "+18605550000", "informational", noon).eligible
    rows[0]["marketing"] = "true"  # the casino's later form says yes to offers: raised
    report = import_consents(opened, *read_rows(as_csv(rows), {"mohegan_sun"}, NOW), now=NOW)
    assert report.imported == 1
    assert sender.check("mohegan_sun", "+18605550000", "marketing", noon).eligible
    opened.close()


def test_the_rows_finer_checks():
    rows = optins("mohegan_sun", 6, written=False)
    rows[0]["phone"] = "(860) 555-0100"  # punctuation, ten US digits: +1
    rows[1]["disclosure_text"] = ""  # express consent may come without a disclosure
    rows[2]["marketing"] = "yes"  # marketing needs written consent
    rows[3]["captured_at"] = ""
    rows[4]["marketing"] = "perhaps"
    rows[5]["captured_at"] = "2026-01-10T17:00:00Z"
    read, rejected = read_rows(as_csv(rows), {"mohegan_sun"}, NOW)
    assert [r.phone for r in read] == ["+18605550100", "+18605550001", "+18605550005"]
    assert read[1].disclosure_text is None and not any(r.marketing for r in read)
    reasons = {r.line: r.reason for r in rejected}
    assert "marketing needs express_written" in reasons[4]
    assert "captured_at is empty" in reasons[5] and "true or false" in reasons[6]
    header = [*REQUIRED, "ip"]
    with pytest.raises(ImportFileError, match=r"ip \(did you mean ip_address\?\)"):
        read_rows(",".join(header).encode() + b"\n", {"mohegan_sun"}, NOW)
    twice = optins("mohegan_sun", 1) * 2
    assert "on line 2" in read_rows(as_csv(twice), {"mohegan_sun"}, NOW)[1][0].reason


@pytest.mark.parametrize("written", ["(860) 555-12", "86055512", "+86055512", "555-0123"])
def test_a_number_cut_short_is_refused_never_read_as_another_country(written):
    # "(860) 555-12" once went in as +86055512 and took another guest's line's place.
    rows = optins("mohegan_sun", 1)
    rows[0]["phone"] = written
    read, rejected = read_rows(as_csv(rows), {"mohegan_sun"}, NOW)
    assert read == [] and "E.164" in rejected[0].reason
