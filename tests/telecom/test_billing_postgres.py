"""The billing store's core behaviours on a real PostgreSQL server (127.0.0.1:5432, trust auth).

SQLite forgives a lot (types, sequences, concurrency); these tests run the same rules where
production would run them, in a database of their own that is dropped afterwards.
"""

from __future__ import annotations

import threading
from datetime import date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import create_engine, func, select, text, update
from sqlalchemy.exc import OperationalError

from frontdesk.assistants.telecom.billing_db import Base, BillingStore, Invoice, RefundCase
from frontdesk.assistants.telecom.refund_amend import amend_refund_case
from frontdesk.assistants.telecom.tool_runner import run_tool
from frontdesk.assistants.telecom.tools import (
    BillingToolError,
    RefundCaseIn,
    get_subscription,
    open_refund_case,
)

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"
DB_NAME = "frontdesk_test_billing"
MONDAY = datetime(2025, 11, 17, 9, 30).astimezone()


@pytest.fixture(scope="module")
def database_url():
    admin = create_engine(f"{SERVER}/postgres", isolation_level="AUTOCOMMIT",
                          connect_args={"connect_timeout": 3})
    try:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"))
            conn.execute(text(f"CREATE DATABASE {DB_NAME}"))
    except OperationalError as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at 127.0.0.1:5432 is unreachable: {exc.orig}")
    yield f"{SERVER}/{DB_NAME}"
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)"))
    admin.dispose()


@pytest.fixture
def store(database_url: str):
    """Fresh tables per test, so every test's first case is R10001."""
    store = BillingStore(database_url, clock=lambda: MONDAY)
    Base.metadata.drop_all(store.engine)
    store.create_schema()
    store.seed()
    yield store
    store.dispose()


def case_count(store: BillingStore) -> int:
    with store._session() as session:
        return session.scalar(select(func.count()).select_from(RefundCase))


def refund(user="u123", reason="overcharge", amount=100.0, invoice="INV-20251001"):
    return RefundCaseIn(user_id=user, reason=reason, amount_pln=amount, invoice_id=invoice)


def test_plain_postgresql_urls_get_the_psycopg_driver(database_url: str):
    store = BillingStore(database_url.replace("postgresql+psycopg", "postgresql"))
    assert store.engine.dialect.driver == "psycopg"
    store.dispose()


def test_seed_is_idempotent_and_keeps_exact_amounts(store: BillingStore):
    store.seed()
    with store._session() as session:
        assert session.scalar(select(func.count()).select_from(Invoice)) == 24
    assert store.get_invoice("INV-20251001").amount_pln == Decimal("145.00")
    out = get_subscription(store, "u123")
    assert (out.plan_name, out.price_monthly_pln, out.status) == ("M 100 GB", 45.0, "active")
    assert next(i.invoice_id for i in out.invoices) == "INV-20250801"


def test_case_ids_sequence_and_persistence(store: BillingStore, database_url: str):
    first = open_refund_case(store, refund(), request_key="k1")
    second = open_refund_case(store, refund(user="u654", reason="within_cooling_off", amount=35,
                                            invoice="INV-20251105"), request_key="k2")
    assert (first.case_id, second.case_id) == ("R10001", "R10002")
    assert (first.status, second.status) == ("opened", "pending_review")
    assert first.eta_date == date(2025, 11, 24)  # Monday + 5 business days
    reopened = BillingStore(database_url)
    case = reopened.get_case("R10002")
    assert (case.user_id, case.amount_pln, case.eta_date) == ("u654", Decimal("35.00"),
                                                              date(2025, 11, 24))
    assert case.created_at.tzinfo is not None
    reopened.dispose()


def test_domain_errors_write_nothing(store: BillingStore):
    with pytest.raises(BillingToolError, match="User 'u999' was not found"):
        open_refund_case(store, refund(user="u999"), request_key="k")
    with pytest.raises(BillingToolError, match=r"does not belong to user u123 \(their invoices"):
        open_refund_case(store, refund(invoice="INV-20251002", amount=10), request_key="k")
    with pytest.raises(BillingToolError, match="exceeds invoice INV-20250901's total of 45.00"):
        open_refund_case(store, refund(invoice="INV-20250901", amount=120), request_key="k")
    bad = run_tool(store, "open_refund_case", {"user_id": "u123", "reason": "overcharge",
                                               "amount_pln": 1001, "invoice_id": "INV-20251001"},
                   request_key="k")
    assert not bad.ok and "at most 1000 PLN" in bad.error
    assert case_count(store) == 0


def test_no_duplicates_by_request_key_or_open_invoice(store: BillingStore):
    first = open_refund_case(store, refund(), request_key="turn-1")
    replay = open_refund_case(store, refund(amount=5), request_key="turn-1")
    other_key = open_refund_case(store, refund(amount=7), request_key="turn-2")
    assert {first.case_id, replay.case_id, other_key.case_id} == {"R10001"}
    assert replay.already_existed and other_key.already_existed
    assert case_count(store) == 1
    with store._session() as session:
        session.execute(update(RefundCase).values(status="approved"))
        session.commit()
    assert open_refund_case(store, refund(amount=7), request_key="turn-3").case_id == "R10002"


@pytest.mark.parametrize("same_key", [False, True])
def test_concurrent_requests_write_one_case(store: BillingStore, same_key: bool):
    """Eight writers released together: the database constraints, not the pre-check, decide,
    and every loser gets the winner's case back instead of an error."""
    barrier = threading.Barrier(8)
    results, errors = [], []

    def worker(n: int) -> None:
        try:
            barrier.wait()
            key = "same" if same_key else f"key-{n}"
            results.append(open_refund_case(store, refund(amount=10 + n), request_key=key))
        except Exception as exc:  # noqa: BLE001 - any failure must fail the test below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    assert len(results) == 8
    assert {r.case_id for r in results} == {results[0].case_id}
    assert sum(not r.already_existed for r in results) == 1
    assert case_count(store) == 1


def test_a_correction_and_a_withdrawal_on_postgresql(store: BillingStore):
    first = open_refund_case(store, refund(amount=30), request_key="turn-1")
    second = open_refund_case(store, refund(invoice="INV-20250901", amount=10),
                              request_key="turn-2")
    moved = amend_refund_case(store, user_id="u123", case_id=first.case_id,
                              invoice_id="INV-20250801", amount_pln=Decimal(20))
    assert (moved.invoice_id, moved.amount_pln) == ("INV-20250801", Decimal("20.00"))
    # Onto an invoice with another open case: refused by the partial unique index, unchanged.
    with pytest.raises(BillingToolError, match="already has an open refund case"):
        amend_refund_case(store, user_id="u123", case_id=first.case_id,
                          invoice_id="INV-20250901", amount_pln=None)
    assert store.get_case(first.case_id).invoice_id == "INV-20250801"
    assert store.withdraw_refund_case(second.case_id, user_id="u456") is None  # not theirs
    withdrawn = store.withdraw_refund_case(second.case_id, user_id="u123")
    assert withdrawn.status == "withdrawn"
    assert store.withdraw_refund_case(second.case_id, user_id="u123") is None  # no longer open
    # Withdrawn, its invoice takes a new case.
    again = open_refund_case(store, refund(invoice="INV-20250901", amount=10), request_key="t3")
    assert again.case_id == "R10003" and case_count(store) == 3
