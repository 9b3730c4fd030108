"""The telecom billing database: plans, subscriptions, invoices and refund cases.

The billing tools must answer from records, never from the model's imagination, so they read
and write through this small SQLAlchemy 2.0 layer. The same code runs on SQLite (one file,
tests and the offline demo) and PostgreSQL (`postgresql+psycopg://...`). Callers get frozen
record dataclasses, never live ORM objects, so nothing lazy-loads after a session has closed.

Demo seed (deterministic; other datasets and tests rely on exactly these rows). Plans: S "S 50
GB" 35.00 PLN (50 GB), M "M 100 GB" 45.00 PLN (100 GB), L "L Unlimited" 65.00 PLN (no cap).

    user           plan  start       status     invoices (INV-2025MM + user number)
    u123           M     2025-08-15  active     INV-20250801 .. INV-20251101   (01)
    u456           L     2025-06-01  active     INV-20250802 .. INV-20251102   (02)
    u789           S     2025-09-20  active     INV-20250903 .. INV-20251103   (03)
    u321           M     2024-11-02  suspended  INV-20250804 .. INV-20251104   (04)
    u654           S     2025-11-12  active     INV-20251105 only              (05)
    anna.kowalska  L     2023-03-10  active     INV-20250806 .. INV-20251106   (06)
    piotr.nowak    M     2025-01-05  cancelled  INV-20250807 .. INV-20251107   (07)

One invoice per month from max(start month, 2025-08) to 2025-11, period "2025-MM", issued on
the 1st of the month (or on the start date in the starting month). Amount = the plan's price,
except INV-20251001 = 145.00 (u123: a roaming add-on billed by mistake, the demo overcharge)
and INV-20251102 = 95.00 (u456). Status "paid", except every 2025-11 invoice "unpaid" and
INV-20251004 (u321) "overdue". u654 started recently: the demo's cooling-off customer.

Refund cases get an autoincrement integer id; the public case id is `R{10000 + id}`, so a
fresh database hands out R10001, R10002, ... on both engines. Two constraints keep retries and
races from writing twice: `request_key` is unique, and a partial unique index allows only one
open case (opened / pending_review) per (user, invoice).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy import create_engine, event, or_, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship
from sqlalchemy.pool import StaticPool

from frontdesk.db_url import database_url, make_sqlite_folder

OPEN_CASE_STATUSES = ("opened", "pending_review")
# A case the customer dropped just after it was opened: kept, no longer open.
WITHDRAWN = "withdrawn"
CASE_ID_OFFSET = 10000
LOCAL_TZ = ZoneInfo("Europe/Warsaw")


class Base(DeclarativeBase):
    pass


class Plan(Base):
    __tablename__ = "telecom_plans"

    code: Mapped[str] = mapped_column(sa.String(8), primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(64))
    monthly_price_pln: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    data_gb: Mapped[int | None] = mapped_column(sa.Integer, nullable=True)


class Subscription(Base):
    __tablename__ = "telecom_subscriptions"

    user_id: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    plan_code: Mapped[str] = mapped_column(sa.ForeignKey("telecom_plans.code"))
    start_date: Mapped[date] = mapped_column(sa.Date)
    status: Mapped[str] = mapped_column(sa.String(16))  # active | suspended | cancelled
    plan: Mapped[Plan] = relationship(lazy="joined")


class Invoice(Base):
    __tablename__ = "telecom_invoices"

    invoice_id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    user_id: Mapped[str] = mapped_column(sa.ForeignKey("telecom_subscriptions.user_id"), index=True)
    issued_on: Mapped[date] = mapped_column(sa.Date)
    period: Mapped[str] = mapped_column(sa.String(7))  # "2025-10"
    amount_pln: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    status: Mapped[str] = mapped_column(sa.String(16))  # paid | unpaid | overdue


class RefundCase(Base):
    __tablename__ = "telecom_refund_cases"
    __table_args__ = (
        # One open case per invoice, enforced by the database so that a race cannot slip by.
        sa.Index(
            "ux_telecom_refund_open_invoice",
            "user_id",
            "invoice_id",
            unique=True,
            sqlite_where=text("status IN ('opened', 'pending_review')"),
            postgresql_where=text("status IN ('opened', 'pending_review')"),
        ),
        # Never reuse an id on SQLite, so case ids stay unique for the life of the file.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[str] = mapped_column(sa.ForeignKey("telecom_subscriptions.user_id"))
    invoice_id: Mapped[str] = mapped_column(sa.ForeignKey("telecom_invoices.invoice_id"))
    reason: Mapped[str] = mapped_column(sa.String(32))
    amount_pln: Mapped[Decimal] = mapped_column(sa.Numeric(10, 2))
    description: Mapped[str | None] = mapped_column(sa.Text, nullable=True)
    status: Mapped[str] = mapped_column(sa.String(16))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    eta_date: Mapped[date] = mapped_column(sa.Date)
    request_key: Mapped[str] = mapped_column(sa.String(200), unique=True)

    @property
    def case_id(self) -> str:
        return f"R{CASE_ID_OFFSET + self.id}"


@dataclass(frozen=True)
class SubscriptionRecord:
    user_id: str
    plan_code: str
    plan_name: str
    monthly_price_pln: Decimal
    data_gb: int | None
    start_date: date
    status: str


@dataclass(frozen=True)
class InvoiceRecord:
    invoice_id: str
    user_id: str
    issued_on: date
    period: str
    amount_pln: Decimal
    status: str


@dataclass(frozen=True)
class RefundCaseRecord:
    case_id: str
    user_id: str
    invoice_id: str
    reason: str
    amount_pln: Decimal
    description: str | None
    status: str
    created_at: datetime
    eta_date: date
    request_key: str


def parse_case_id(case_id: str) -> int | None:
    """`R10001` -> 1; None for anything that is not a case id this store hands out."""
    value = case_id.strip().upper()
    ok = value[:1] == "R" and value[1:].isdigit() and int(value[1:]) > CASE_ID_OFFSET
    return int(value[1:]) - CASE_ID_OFFSET if ok else None


def _subscription(row: Subscription) -> SubscriptionRecord:
    plan = row.plan
    return SubscriptionRecord(
        row.user_id,
        row.plan_code,
        plan.name,
        Decimal(plan.monthly_price_pln),
        plan.data_gb,
        row.start_date,
        row.status,
    )


def _invoice(row: Invoice) -> InvoiceRecord:
    return InvoiceRecord(
        row.invoice_id, row.user_id, row.issued_on, row.period, Decimal(row.amount_pln), row.status
    )


def _case(row: RefundCase) -> RefundCaseRecord:
    created = row.created_at  # SQLite hands back naive datetimes; every stored value is UTC
    return RefundCaseRecord(
        row.case_id,
        row.user_id,
        row.invoice_id,
        row.reason,
        Decimal(row.amount_pln),
        row.description,
        row.status,
        created if created.tzinfo else created.replace(tzinfo=UTC),
        row.eta_date,
        row.request_key,
    )


# ---------------------------------------------------------------- demo data

PLANS = (  # code, name, monthly price, data cap in GB (None: unlimited)
    ("S", "S 50 GB", "35.00", 50),
    ("M", "M 100 GB", "45.00", 100),
    ("L", "L Unlimited", "65.00", None),
)
SUBSCRIPTIONS = (  # user, plan, start, status, two-digit invoice suffix
    ("u123", "M", date(2025, 8, 15), "active", "01"),
    ("u456", "L", date(2025, 6, 1), "active", "02"),
    ("u789", "S", date(2025, 9, 20), "active", "03"),
    ("u321", "M", date(2024, 11, 2), "suspended", "04"),
    ("u654", "S", date(2025, 11, 12), "active", "05"),
    ("anna.kowalska", "L", date(2023, 3, 10), "active", "06"),
    ("piotr.nowak", "M", date(2025, 1, 5), "cancelled", "07"),
)
AMOUNT_OVERRIDES = {"INV-20251001": "145.00", "INV-20251102": "95.00"}
STATUS_OVERRIDES = {"INV-20251004": "overdue"}
FIRST_MONTH, LAST_MONTH = (2025, 8), (2025, 11)


def demo_invoices() -> list[Invoice]:
    """The seeded invoices, built from the rules in the module docstring."""
    prices = {code: Decimal(price) for code, _, price, _ in PLANS}
    rows = []
    for user_id, plan, start, _, suffix in SUBSCRIPTIONS:
        year, month = max((start.year, start.month), FIRST_MONTH)
        while (year, month) <= LAST_MONTH:
            invoice_id = f"INV-{year}{month:02d}{suffix}"
            issued = max(date(year, month, 1), start)
            status = "unpaid" if (year, month) == LAST_MONTH else "paid"
            rows.append(
                Invoice(
                    invoice_id=invoice_id,
                    user_id=user_id,
                    issued_on=issued,
                    period=f"{year}-{month:02d}",
                    amount_pln=Decimal(AMOUNT_OVERRIDES.get(invoice_id, prices[plan])),
                    status=STATUS_OVERRIDES.get(invoice_id, status),
                )
            )
            year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return rows


class BillingStore:
    """Engine plus the handful of queries and writes the billing tools need.

    `clock` returns the current aware datetime; tests pass a fixed one so case dates and
    ETAs are reproducible. Every write is one transaction in its own session.
    """

    def __init__(self, url: str, *, clock: Callable[[], datetime] | None = None) -> None:
        parsed = database_url(url)
        kwargs: dict = {}
        if parsed.get_backend_name() == "sqlite":
            kwargs["connect_args"] = {"check_same_thread": False}
            if parsed.database in (None, "", ":memory:"):
                kwargs["poolclass"] = StaticPool  # one connection, or the schema vanishes
            make_sqlite_folder(parsed)
        else:
            kwargs["pool_pre_ping"] = True
        self.url = parsed
        self.engine = create_engine(parsed, **kwargs)
        self.clock = clock or (lambda: datetime.now(LOCAL_TZ))
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    def now(self) -> datetime:
        return self.clock()

    def create_schema(self) -> None:
        Base.metadata.create_all(self.engine)

    def seed(self) -> None:
        """Insert whatever demo rows are absent, in one transaction; existing rows are left
        untouched (a suspended account stays suspended), so it is safe at every start-up."""
        with self._session() as session:
            have_plans = set(session.scalars(select(Plan.code)))
            have_users = set(session.scalars(select(Subscription.user_id)))
            have_invoices = set(session.scalars(select(Invoice.invoice_id)))
            try:  # flush parents first: plain foreign keys do not order the unit of work
                session.add_all(
                    Plan(code=code, name=name, monthly_price_pln=Decimal(price), data_gb=data_gb)
                    for code, name, price, data_gb in PLANS
                    if code not in have_plans
                )
                session.flush()
                session.add_all(
                    Subscription(user_id=user, plan_code=plan, start_date=start, status=status)
                    for user, plan, start, status, _ in SUBSCRIPTIONS
                    if user not in have_users
                )
                session.flush()
                session.add_all(i for i in demo_invoices() if i.invoice_id not in have_invoices)
                session.commit()
            except IntegrityError:  # another process seeded at the same moment: its rows win,
                session.rollback()  # but a failure that left the demo incomplete must surface
                if {i.invoice_id for i in demo_invoices()} - set(
                    session.scalars(select(Invoice.invoice_id))
                ):
                    raise

    def dispose(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------ reads

    def get_subscription(self, user_id: str) -> SubscriptionRecord | None:
        with self._session() as session:
            row = session.get(Subscription, user_id)
            return _subscription(row) if row else None

    def list_invoices(self, user_id: str) -> list[InvoiceRecord]:
        """The user's invoices, oldest first."""
        with self._session() as session:
            rows = session.scalars(
                select(Invoice)
                .where(Invoice.user_id == user_id)
                .order_by(Invoice.issued_on, Invoice.invoice_id)
            )
            return [_invoice(r) for r in rows]

    def get_invoice(self, invoice_id: str) -> InvoiceRecord | None:
        with self._session() as session:
            row = session.get(Invoice, invoice_id)
            return _invoice(row) if row else None

    def get_case(self, case_id: str) -> RefundCaseRecord | None:
        number = parse_case_id(case_id)
        if number is None:
            return None
        with self._session() as session:
            row = session.get(RefundCase, number)
            return _case(row) if row else None

    def list_cases(self, user_id: str) -> list[RefundCaseRecord]:
        with self._session() as session:
            rows = session.scalars(
                select(RefundCase).where(RefundCase.user_id == user_id).order_by(RefundCase.id)
            )
            return [_case(r) for r in rows]

    def find_case_by_request_key(self, request_key: str) -> RefundCaseRecord | None:
        with self._session() as session:
            row = session.scalar(select(RefundCase).where(RefundCase.request_key == request_key))
            return _case(row) if row else None

    def _find_existing(
        self, session: Session, request_key: str, user_id: str, invoice_id: str
    ) -> RefundCase | None:
        """The case this request duplicates: same request key, or an open case on the same
        invoice. The request-key match wins, so a retry always gets its own case back."""
        rows = session.scalars(
            select(RefundCase)
            .where(
                or_(
                    RefundCase.request_key == request_key,
                    (RefundCase.user_id == user_id)
                    & (RefundCase.invoice_id == invoice_id)
                    & RefundCase.status.in_(OPEN_CASE_STATUSES),
                )
            )
            .order_by(RefundCase.id)
        ).all()
        for row in rows:
            if row.request_key == request_key:
                return row
        return rows[0] if rows else None

    # ------------------------------------------------------------ writes

    def open_refund_case(
        self,
        *,
        user_id: str,
        invoice_id: str,
        reason: str,
        amount_pln: Decimal,
        description: str | None,
        status: str,
        eta_date: date,
        request_key: str,
        created_at: datetime | None = None,
    ) -> tuple[RefundCaseRecord, bool]:
        """Insert a case unless it duplicates one; returns (case, already_existed).

        The duplicate check and the insert share one transaction; when a concurrent writer
        wins the race anyway, the unique constraints raise and we return the winner's case.
        """
        created = created_at or self.now()
        with self._session() as session:
            existing = self._find_existing(session, request_key, user_id, invoice_id)
            if existing is not None:
                return _case(existing), True
            row = RefundCase(
                user_id=user_id,
                invoice_id=invoice_id,
                reason=reason,
                amount_pln=amount_pln,
                description=description,
                status=status,
                eta_date=eta_date,
                request_key=request_key,
                created_at=created.astimezone(UTC),
            )
            session.add(row)
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
                existing = self._find_existing(session, request_key, user_id, invoice_id)
                if existing is None:  # a constraint we do not expect (e.g. a foreign key)
                    raise
                return _case(existing), True
            return _case(row), False

    def amend_refund_case(
        self, case_id: str, *, user_id: str, invoice_id: str, amount_pln: Decimal
    ) -> RefundCaseRecord | None:
        """Change the invoice and amount of the customer's own case while it is still open
        (the customer corrects what they said just after it was opened). None when there is
        no such open case of theirs; a move onto an invoice with another open case raises
        IntegrityError (one open case per invoice)."""
        with self._session() as session:
            row = _open_case_of(session, case_id, user_id)
            if row is None:
                return None
            row.invoice_id, row.amount_pln = invoice_id, amount_pln
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
                raise
            return _case(row)

    def withdraw_refund_case(self, case_id: str, *, user_id: str) -> RefundCaseRecord | None:
        """Mark the customer's own open case withdrawn (they dropped the request just after it
        was opened). The row stays, with its history; None when there is no such open case."""
        with self._session() as session:
            row = _open_case_of(session, case_id, user_id)
            if row is None:
                return None
            row.status = WITHDRAWN
            session.commit()
            return _case(row)


def _open_case_of(session: Session, case_id: str, user_id: str) -> RefundCase | None:
    """The customer's own case `case_id` while it is still open, else None."""
    number = parse_case_id(case_id)
    row = session.get(RefundCase, number) if number is not None else None
    if row is None or row.user_id != user_id or row.status not in OPEN_CASE_STATUSES:
        return None
    return row


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """SQLite ignores foreign keys unless asked, and fails at once on a locked file."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
