"""Demo data, step 2: users, employees (25 technicians among 40 staff) and their HR records.

Three system users (customer portal, maintenance scheduler, IT admin) come first, so an
employee's user id is never equal to the employee id: a query joining the wrong key returns
wrong rows instead of accidentally right ones. Employee ids follow hire dates.
"""

from __future__ import annotations

from datetime import date, datetime, time

from frontdesk.assistants.analyst.demo.data.common import (
    Demo,
    ascii_slug,
    money,
)
from frontdesk.assistants.analyst.demo.data.hr import (
    add_hr_records,
    add_logins,
    add_technician_details,
)
from frontdesk.assistants.analyst.demo.data.names import (
    BRANCH_CITIES,
    STREETS,
)

# (kind, job title, branch, department, role, base hourly pay)
OFFICE = (
    ("manager", "General Manager", "Austin", "Management", "admin", 62.0),
    ("manager", "Service Manager", "Austin", "Management", "manager", 48.0),
    ("manager", "Service Manager", "Dallas", "Management", "manager", 47.0),
    ("manager", "Service Manager", "Houston", "Management", "manager", 47.0),
    ("manager", "Service Manager", "San Antonio", "Management", "manager", 45.0),
    ("dispatcher", "Dispatcher", "Austin", "Dispatch", "dispatcher", 26.0),
    ("dispatcher", "Dispatcher", "Dallas", "Dispatch", "dispatcher", 25.5),
    ("dispatcher", "Dispatcher", "Houston", "Dispatch", "dispatcher", 25.5),
    ("dispatcher", "Dispatcher", "San Antonio", "Dispatch", "dispatcher", 24.0),
    ("accountant", "Accountant", "Austin", "Finance", "accountant", 34.0),
    ("accountant", "Billing Specialist", "Austin", "Finance", "accountant", 27.0),
    ("sales", "Account Manager", "Austin", "Sales", "sales", 30.0),
    ("sales", "Account Manager", "Dallas", "Sales", "sales", 30.0),
    ("sales", "Account Manager", "Houston", "Sales", "sales", 29.0),
    ("warehouse", "Warehouse Coordinator", "Austin", "Warehouse", "warehouse", 23.0),
)
TECH_BRANCHES = ("Austin",) * 8 + ("Dallas",) * 7 + ("Houston",) * 6 + ("San Antonio",) * 4
TECH_TRADES = (
    ("hvac",) * 12
    + ("plumbing",) * 5
    + ("electrical",) * 4
    + ("fire_safety",) * 2
    + ("refrigeration",) * 2
)
TRADE_LABEL = {
    "hvac": "HVAC",
    "plumbing": "Plumbing",
    "electrical": "Electrical",
    "fire_safety": "Fire Safety",
    "refrigeration": "Refrigeration",
}
LEVEL_PAY = {
    "Apprentice": 22.0,
    "Technician I": 27.0,
    "Technician II": 32.0,
    "Senior Technician": 38.0,
    "Master Technician": 45.0,
}
TERMINATIONS = (date(2024, 5, 31), date(2024, 10, 15), date(2025, 3, 14), date(2025, 8, 29))
NEW_HIRES = (date(2024, 6, 3), date(2024, 11, 4), date(2025, 4, 7), date(2025, 9, 15))


def _roster(demo: Demo) -> list[dict]:
    rng = demo.rng
    staff = []
    for kind, title, branch, dept, role, pay in OFFICE:
        hire = date(rng.randint(2010, 2021), rng.randint(1, 12), rng.randint(1, 28))
        staff.append(
            {
                "kind": kind,
                "title": title,
                "branch": branch,
                "dept": dept,
                "role": role,
                "pay": pay,
                "hire": hire,
                "term": None,
                "trade": None,
            }
        )
    # One account manager left in 2025; his accounts were not reassigned in the system.
    staff[13]["term"] = date(2025, 2, 28)
    trades = list(TECH_TRADES)
    rng.shuffle(trades)
    for index, branch in enumerate(TECH_BRANCHES):
        trade = trades[index]
        hire = date(rng.randint(2012, 2023), rng.randint(1, 12), rng.randint(1, 28))
        level = demo.weighted(
            {"Technician I": 3, "Technician II": 4, "Senior Technician": 3, "Master Technician": 1}
        )
        staff.append(
            {
                "kind": "technician",
                "branch": branch,
                "dept": "Field Service",
                "role": "technician",
                "trade": trade,
                "hire": hire,
                "term": None,
                "level": level,
            }
        )
    techs = [s for s in staff if s["kind"] == "technician"]
    for tech, term in zip(rng.sample(techs[:-4], 4), TERMINATIONS, strict=True):
        tech["term"] = term
    for tech, hire in zip(techs[-4:], NEW_HIRES, strict=True):
        tech["hire"] = hire
        tech["level"] = demo.pick(("Apprentice", "Technician I"))
    for tech in techs:
        tech["pay"] = LEVEL_PAY[tech["level"]]
        tech["title"] = f"{tech['level']} ({TRADE_LABEL[tech['trade']]})"
    staff.sort(key=lambda s: (s["hire"], s["kind"]))
    return staff


def add_people(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    roles = meta["role"]
    system = {}
    for name, full, role in (
        ("portal", "Customer Portal", "integration"),
        ("scheduler.bot", "Maintenance Scheduler", "integration"),
        ("it.admin", "IT Administrator", "admin"),
    ):
        system[name] = demo.add(
            "user",
            username=name,
            fullName=full,
            email=f"{name}@lonestarfield.com",
            phone=None,
            roleId=roles[role],
            isActive=True,
            lastLoginAt=None,
            createdAt=datetime(2019, 1, 7, 9, 0),
        )
    meta["systemUser"] = system
    staff = _roster(demo)
    used_names: set[tuple[str, str]] = set()
    employees = []
    for person in staff:
        first, last = demo.person()
        while (first, last) in used_names:
            first, last = demo.person()
        used_names.add((first, last))
        branch = meta["branch"][person["branch"]]
        city, zip_prefix = demo.pick(BRANCH_CITIES[person["branch"]])
        email = f"{ascii_slug(first)}.{ascii_slug(last)}@lonestarfield.com"
        phone = demo.phone(person["branch"])
        active = person["term"] is None
        user = demo.add(
            "user",
            username=f"{ascii_slug(first)}.{ascii_slug(last)}",
            fullName=f"{first} {last}",
            email=email,
            phone=phone,
            roleId=roles[person["role"]],
            isActive=active,
            lastLoginAt=None,
            createdAt=datetime.combine(person["hire"], time(8, 0)),
        )
        employee = demo.add(
            "employee",
            userId=user,
            employeeNumber="",
            firstName=first,
            lastName=last,
            email=email,
            phone=phone,
            homeAddress=f"{rng.randint(100, 9899)} {demo.pick(STREETS)}, {city}, TX "
            f"{zip_prefix}{rng.randint(1, 99):02d}",
            jobTitle=person["title"],
            departmentId=meta["department"][person["dept"]],
            branchId=branch,
            managerId=None,
            employmentTypeId=meta["employmentType"]["full_time"],
            hireDate=person["hire"],
            terminationDate=person["term"],
            isActive=active,
            isTechnician=person["kind"] == "technician",
            hourlyRate=money(person["pay"] + rng.randint(0, 12) * 0.25),
            createdAt=datetime.combine(person["hire"], time(8, 30)),
        )
        row = demo.row("employee", employee)
        row["employeeNumber"] = f"E{1000 + employee}"
        employees.append(
            {
                **person,
                "id": employee,
                "userId": user,
                "branchId": branch,
                "first": first,
                "last": last,
                "rate": row["hourlyRate"],
            }
        )
    # Two part-timers make the employment types non-trivial.
    for emp in (e for e in employees if e["kind"] in ("warehouse", "accountant")):
        if emp["title"] == "Billing Specialist" or emp["kind"] == "warehouse":
            demo.row("employee", emp["id"])["employmentTypeId"] = meta["employmentType"][
                "part_time"
            ]
    meta["employees"] = employees
    meta["techs"] = [e for e in employees if e["kind"] == "technician"]
    by_kind: dict[str, list[dict]] = {}
    for emp in employees:
        by_kind.setdefault(emp["kind"], []).append(emp)
    general = next(e for e in employees if e["title"] == "General Manager")
    managers = {e["branchId"]: e for e in by_kind["manager"] if e["title"] == "Service Manager"}
    for emp in employees:
        boss = (
            None
            if emp is general
            else (
                general
                if emp["kind"] in ("manager", "accountant", "sales", "warehouse")
                else managers[emp["branchId"]]
            )
        )
        emp["managerId"] = boss["id"] if boss else None
        emp["managerUserId"] = boss["userId"] if boss else general["userId"]
        demo.row("employee", emp["id"])["managerId"] = emp["managerId"]
    meta["dispatcherUser"] = {e["branchId"]: e["userId"] for e in by_kind["dispatcher"]}
    meta["dispatchers"] = by_kind["dispatcher"]
    meta["accountants"] = by_kind["accountant"]
    meta["sales"] = by_kind["sales"]
    meta["managers"] = managers
    meta["generalManager"] = general
    meta["warehouseStaff"] = by_kind["warehouse"]
    add_technician_details(demo)
    add_hr_records(demo)
    add_logins(demo)
