"""Demo data, step 1: the company, branches, departments, roles, HR lookups and holidays.

Customer, work and finance lookups are in `lookups`.

Lookup ids are recorded in `demo.meta` by name (e.g. `meta["priority"]["emergency"]`) so the
later generators never hard-code ids.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    Demo,
)
from frontdesk.assistants.analyst.demo.data.lookups import (
    add_customer_lookups,
    add_finance_lookups,
    add_work_lookups,
)

BRANCHES = (
    ("Austin", date(2009, 4, 1)),
    ("Dallas", date(2013, 9, 16)),
    ("Houston", date(2016, 2, 1)),
    ("San Antonio", date(2019, 6, 3)),
)
SERVICE_AREAS = {
    "Austin": ("Central Austin", "North Austin & Round Rock", "West Lake & Cedar Park"),
    "Dallas": ("Downtown Dallas", "Plano & Richardson", "Irving & Garland"),
    "Houston": ("Inner Loop", "West Houston & Katy", "North Houston & The Woodlands"),
    "San Antonio": ("Downtown San Antonio", "North San Antonio", "New Braunfels & Schertz"),
}


def _thanksgiving(year: int) -> date:
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def _last_monday(year: int, month: int) -> date:
    day = date(year, month + 1, 1) - timedelta(days=1)
    return day - timedelta(days=day.weekday())


def _first_monday(year: int, month: int) -> date:
    day = date(year, month, 1)
    return day + timedelta(days=(7 - day.weekday()) % 7)


def add_reference(demo: Demo) -> None:
    meta = demo.meta
    company = demo.add(
        "company",
        name="Lone Star Field Services",
        legalName=("Lone Star Field Services LLC"),
        taxNumber="74-2918365",
        phone="(512) 555-0100",
        email="office@lonestarfield.com",
        website="https://lonestarfield.com",
        timezone="America/Chicago",
        currency="USD",
        createdAt=datetime(2009, 4, 1, 9, 0),
    )
    meta["branch"] = {}
    meta["serviceAreas"] = {}
    for name, opened in BRANCHES:
        branch = demo.add(
            "branch",
            companyId=company,
            name=name,
            city=name,
            state="TX",
            phone=demo.phone(name),
            openedDate=opened,
            isActive=True,
        )
        meta["branch"][name] = branch
        meta["serviceAreas"][branch] = [
            demo.add("serviceArea", branchId=branch, name=area, description=f"{name} zone")
            for area in SERVICE_AREAS[name]
        ]
    meta["department"] = {
        name: demo.add("department", branchId=1, name=name, code=code, costCenter=cc)
        for name, code, cc in (
            ("Field Service", "FS", "CC-100"),
            ("Dispatch", "DSP", "CC-110"),
            ("Sales", "SAL", "CC-200"),
            ("Finance", "FIN", "CC-300"),
            ("Management", "MGT", "CC-400"),
            ("Warehouse", "WHS", "CC-120"),
        )
    }
    meta["role"] = {
        name: demo.add("role", name=name, description=text)
        for name, text in (
            ("admin", "Full access"),
            ("manager", "Branch and service management"),
            ("dispatcher", "Schedules and dispatches work orders"),
            ("technician", "Field technician mobile app"),
            ("accountant", "Billing"),
            ("sales", "Quotes, contracts and accounts"),
            ("warehouse", "Parts and stock"),
            ("integration", "System accounts for integrations"),
        )
    }
    areas = ("workorder", "customer", "invoice", "inventory", "report", "user")
    perms = {}
    for area in areas:
        for verb in ("view", "edit"):
            perms[f"{area}.{verb}"] = demo.add(
                "permission", code=f"{area}.{verb}", description=f"Can {verb} {area} records"
            )
    grants = {
        "admin": list(perms),
        "manager": [p for p in perms if not p.startswith("user.e")],
        "dispatcher": [
            "workorder.view",
            "workorder.edit",
            "customer.view",
            "customer.edit",
            "inventory.view",
        ],
        "technician": ["workorder.view", "workorder.edit", "customer.view", "inventory.view"],
        "accountant": [
            "invoice.view",
            "invoice.edit",
            "customer.view",
            "report.view",
            "workorder.view",
        ],
        "sales": ["customer.view", "customer.edit", "invoice.view", "report.view"],
        "warehouse": ["inventory.view", "inventory.edit", "workorder.view"],
        "integration": ["workorder.view", "workorder.edit", "customer.view"],
    }
    for role, codes in grants.items():
        for code in codes:
            demo.add("rolePermission", roleId=meta["role"][role], permissionId=perms[code])
    meta["employmentType"] = {
        name: demo.add("employmentType", name=name, description=text)
        for name, text in (
            ("full_time", "Full-time employee"),
            ("part_time", "Part-time employee"),
            ("contractor", "Independent contractor"),
            ("seasonal", "Summer peak help"),
        )
    }
    meta["level"] = {
        name: demo.add("technicianLevel", name=name, hourlyBillRate=rate, description=text)
        for name, rate, text in (
            ("Apprentice", 65.0, "Works under supervision"),
            ("Technician I", 85.0, "Handles routine maintenance"),
            ("Technician II", 105.0, "Handles most repairs alone"),
            ("Senior Technician", 125.0, "Complex repairs and installations; leads crews"),
            ("Master Technician", 145.0, "Licensed master; trains others"),
        )
    }
    meta["skill"] = {}
    for category, names in (
        (
            "hvac",
            (
                "Refrigerant handling",
                "Heat pump service",
                "Rooftop unit service",
                "Duct design",
                "Controls and thermostats",
            ),
        ),
        ("plumbing", ("Water heater service", "Backflow testing", "Drain cleaning")),
        ("electrical", ("Panel wiring", "Troubleshooting circuits", "Generator service")),
        ("fire_safety", ("Extinguisher servicing", "Sprinkler inspection")),
        ("refrigeration", ("Commercial refrigeration",)),
        ("general", ("Customer communication", "Forklift operation")),
    ):
        for name in names:
            meta["skill"][name] = (demo.add("skill", name=name, category=category), category)
    meta["certType"] = {
        name: demo.add(
            "certificationType",
            name=name,
            issuingBody=body,
            validityMonths=months,
            isMandatory=mandatory,
        )
        for name, body, months, mandatory in (
            ("OSHA 10 Construction", "OSHA", None, True),
            ("EPA 608 Universal", "EPA", None, False),
            ("NATE Core", "NATE", 24, False),
            ("NFPA 70E Electrical Safety", "NFPA", 36, False),
            ("Backflow Prevention Tester", "TCEQ", 36, False),
            ("Journeyman Plumber License", "TSBPE", 12, False),
            ("Journeyman Electrician License", "TDLR", 12, False),
            ("Fire Extinguisher Technician", "Texas State Fire Marshal", 24, False),
            ("First Aid / CPR", "American Red Cross", 24, True),
        )
    }
    meta["training"] = [
        demo.add("training", name=name, category=cat, durationHours=hours, provider=prov)
        for name, cat, hours, prov in (
            ("Heat pump fundamentals", "hvac", 16.0, "Carrier University"),
            ("Variable refrigerant flow systems", "hvac", 24.0, "Daikin Academy"),
            ("Arc flash awareness", "electrical", 8.0, "NFPA"),
            ("Confined space entry", "safety", 4.0, "In-house"),
            ("Defensive driving", "safety", 4.0, "National Safety Council"),
            ("Customer service excellence", "soft_skills", 6.0, "In-house"),
            ("Tankless water heaters", "plumbing", 8.0, "Rheem Pro Academy"),
            ("Mobile app for technicians", "systems", 2.0, "In-house"),
        )
    ]
    meta["timeOffType"] = {
        name: demo.add("timeOffType", name=name, isPaid=paid, annualAllowanceDays=days)
        for name, paid, days in (
            ("Vacation", True, 15),
            ("Sick", True, 8),
            ("Personal", True, 3),
            ("Unpaid", False, None),
        )
    }
    meta["shift"] = {
        name: demo.add("shift", name=name, startTime=start, endTime=end, isNight=night)
        for name, start, end, night in (
            ("Day", time(7, 0), time(15, 30), False),
            ("Late", time(11, 0), time(19, 30), False),
            ("On-call night", time(19, 0), time(7, 0), True),
        )
    }
    holidays = set()
    for year in (2024, 2025):
        for day, name in (
            (date(year, 1, 1), "New Year's Day"),
            (_last_monday(year, 5), "Memorial Day"),
            (date(year, 7, 4), "Independence Day"),
            (_first_monday(year, 9), "Labor Day"),
            (_thanksgiving(year), "Thanksgiving Day"),
            (_thanksgiving(year) + timedelta(days=1), "Day after Thanksgiving"),
            (date(year, 12, 24), "Christmas Eve"),
            (date(year, 12, 25), "Christmas Day"),
        ):
            demo.add("holiday", branchId=None, holidayDate=day, name=name)
            holidays.add(day)
    for day in (date(2024, 4, 26), date(2025, 5, 2)):
        demo.add(
            "holiday",
            branchId=meta["branch"]["San Antonio"],
            holidayDate=day,
            name="Fiesta San Antonio (Battle of Flowers)",
        )
    meta["holidays"] = holidays
    add_customer_lookups(demo)
    add_work_lookups(demo)
    add_finance_lookups(demo)
    for key, value, text in (
        ("defaultPaymentTermDays", "30", "Payment term for new business customers"),
        ("overtimeThresholdHours", "40", "Weekly hours before overtime applies"),
        ("invoicePrefix", "INV-", "Prefix of invoice numbers"),
        ("workOrderPrefix", "WO-", "Prefix of work order numbers"),
        ("reminderDays", "7,21,45", "Days after the due date reminders go out"),
        ("mileageRate", "0.67", "Reimbursed dollars per mile"),
        ("smsRemindersEnabled", "true", "Send appointment reminders by SMS"),
        ("portalEnabled", "true", "Customers may request work in the portal"),
    ):
        demo.add("setting", companyId=company, settingKey=key, settingValue=value, description=text)
