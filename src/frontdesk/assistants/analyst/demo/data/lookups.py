"""Demo data, step 1b: lookup tables for customers, work orders and finance.

Ids are recorded in `demo.meta` by name (e.g. `meta["priority"]["emergency"]`).
"""

from __future__ import annotations

from datetime import date

from frontdesk.assistants.analyst.demo.data.common import (
    Demo,
    add_named,
)
from frontdesk.assistants.analyst.demo.data.names import (
    BUSINESS_KINDS,
)

# (category, name, default hours, requires inspection, billable)


WORK_ORDER_TYPES = (
    ("HVAC", "HVAC Repair", 2.5, False, True),
    ("HVAC", "HVAC Preventive Maintenance", 2.0, True, True),
    ("HVAC", "HVAC Installation", 8.0, False, True),
    ("Plumbing", "Plumbing Repair", 2.0, False, True),
    ("Plumbing", "Water Heater Installation", 4.0, False, True),
    ("Plumbing", "Backflow Test", 1.0, True, True),
    ("Electrical", "Electrical Repair", 2.0, False, True),
    ("Electrical", "Panel Upgrade", 6.0, False, True),
    ("Fire Safety", "Fire Extinguisher Inspection", 1.5, True, True),
    ("Fire Safety", "Sprinkler System Inspection", 3.0, True, True),
    ("Refrigeration", "Refrigeration Repair", 3.0, False, True),
    ("Refrigeration", "Walk-in Cooler Maintenance", 2.0, True, True),
    ("HVAC", "Warranty Callback", 1.5, False, False),
)


TASKS = {
    "HVAC Repair": ("Diagnose system", "Repair or replace failed component", "Test operation"),
    "HVAC Preventive Maintenance": (
        "Replace filters",
        "Clean coils",
        "Check refrigerant",
        "Inspect electrical connections",
    ),
    "HVAC Installation": (
        "Remove old unit",
        "Set new unit",
        "Connect line set and wiring",
        "Commission and test",
        "Haul away old unit",
    ),
    "Plumbing Repair": ("Locate leak or blockage", "Repair", "Pressure test"),
    "Water Heater Installation": (
        "Drain and remove old heater",
        "Install new heater",
        "Test relief valve",
    ),
    "Backflow Test": ("Test check valves", "File test report"),
    "Electrical Repair": ("Troubleshoot circuit", "Repair wiring or device", "Verify circuit"),
    "Panel Upgrade": ("Pull permit", "Replace panel", "Label circuits", "Schedule inspection"),
    "Fire Extinguisher Inspection": ("Inspect extinguishers", "Tag extinguishers"),
    "Sprinkler System Inspection": ("Inspect heads and piping", "Test alarm valve", "Flow test"),
    "Refrigeration Repair": ("Diagnose refrigeration circuit", "Repair", "Verify temperature"),
    "Walk-in Cooler Maintenance": ("Clean condenser", "Check door gaskets", "Check defrost"),
    "Warranty Callback": ("Verify complaint", "Correct workmanship issue"),
}


SERVICE_ITEMS = (  # code, name, type, 2025 price, taxable, gl account code
    ("LAB-REG", "Labor - regular hour", "labor", 125.00, False, "4000"),
    ("LAB-OT", "Labor - overtime hour", "labor", 185.00, False, "4000"),
    ("LAB-EMR", "Labor - emergency hour", "labor", 225.00, False, "4000"),
    ("TRIP", "Trip charge", "trip_charge", 89.00, False, "4300"),
    ("DIAG", "Diagnostic fee", "fee", 129.00, False, "4000"),
    ("PM-RES", "Residential tune-up (flat rate)", "flat_rate", 149.00, True, "4000"),
    ("FE-INSP", "Fire extinguisher inspection (per unit)", "flat_rate", 12.50, True, "4000"),
    ("BF-TEST", "Backflow test (flat rate)", "flat_rate", 175.00, True, "4000"),
    ("DISP", "Disposal fee", "fee", 45.00, True, "4000"),
    ("PERMIT", "Permit fee", "fee", 150.00, False, "4010"),
)


def add_customer_lookups(demo: Demo) -> None:
    meta = demo.meta
    meta["customerType"] = {
        name: demo.add("customerType", name=name, description=text)
        for name, text in (
            ("residential", "Homeowners and tenants"),
            ("commercial", "Businesses"),
            ("industrial", "Factories and plants"),
            ("government", "Public sector"),
        )
    }

    meta["industry"] = add_named(demo, "industry", "name", BUSINESS_KINDS)
    meta["paymentTerm"] = {
        name: (demo.add("paymentTerm", name=name, days=days, description=text), days)
        for name, days, text in (
            ("Due on receipt", 0, "Pay when invoiced"),
            ("Net 15", 15, "Due 15 days after the invoice date"),
            ("Net 30", 30, "Due 30 days after the invoice date"),
            ("Net 45", 45, "Due 45 days after the invoice date"),
        )
    }
    meta["referral"] = list(
        add_named(
            demo,
            "referralSource",
            "name",
            (
                "Web search",
                "Customer referral",
                "Yard sign",
                "Social media",
                "Home show",
                "Google Maps listing",
            ),
        ).values()
    )
    meta["locationType"] = add_named(
        demo,
        "locationType",
        "name",
        (
            "House",
            "Apartment building",
            "Office",
            "Restaurant",
            "Retail store",
            "Warehouse",
            "School",
            "Clinic",
            "Factory",
            "Public building",
            "Hotel",
            "Data center",
        ),
    )
    meta["tag"] = {
        name: demo.add("tag", name=name, color=color)
        for name, color in (
            ("VIP", "gold"),
            ("Key account", "blue"),
            ("Late payer", "red"),
            ("Pets on site", "orange"),
            ("Prefers mornings", "green"),
            ("Contract customer", "purple"),
            ("New customer", "teal"),
            ("Do not upsell", "grey"),
        )
    }
    meta["contractType"] = {
        name: demo.add("contractType", name=name, description=text, includesParts=parts)
        for name, text, parts in (
            ("Preventive Maintenance", "Scheduled maintenance visits; parts billed", False),
            ("Full Coverage", "Maintenance visits and repairs including parts", True),
            ("Fire & Life Safety", "Extinguisher and sprinkler inspections", False),
            ("Refrigeration Care", "Walk-in cooler and ice machine maintenance", False),
        )
    }
    meta["ticketCategory"] = add_named(
        demo,
        "ticketCategory",
        "name",
        (
            "Billing question",
            "Scheduling",
            "Complaint",
            "Service request",
            "Warranty",
            "Portal access",
        ),
    )


def add_work_lookups(demo: Demo) -> None:
    meta = demo.meta
    meta["priority"] = {
        name: demo.add("priority", name=name, level=level, responseHours=hours)
        for name, level, hours in (
            ("low", 1, 72),
            ("normal", 2, 24),
            ("high", 3, 8),
            ("emergency", 4, 4),
        )
    }
    meta["sla"] = {}
    for name, prio, response, resolution, penalty in (
        ("Basic", "low", 72, 168, 0.0),
        ("Standard", "normal", 24, 72, 2.0),
        ("Priority", "high", 8, 24, 5.0),
        ("Emergency", "emergency", 4, 12, 10.0),
    ):
        meta["sla"][name] = (
            demo.add(
                "slaPolicy",
                name=name,
                priorityId=meta["priority"][prio],
                responseHours=response,
                resolutionHours=resolution,
                penaltyPercent=penalty,
            ),
            response,
            resolution,
        )
    categories = add_named(
        demo,
        "serviceCategory",
        "name",
        ("HVAC", "Plumbing", "Electrical", "Fire Safety", "Refrigeration"),
    )
    meta["woType"] = {}
    meta["typeInfo"] = {}
    for category, name, hours, inspect, billable in WORK_ORDER_TYPES:
        type_id = demo.add(
            "workOrderType",
            serviceCategoryId=categories[category],
            name=name,
            defaultDurationHours=hours,
            requiresInspection=inspect,
            isBillable=billable,
        )
        meta["woType"][name] = type_id
        meta["typeInfo"][type_id] = {
            "name": name,
            "category": category,
            "hours": hours,
            "inspect": inspect,
            "billable": billable,
        }
        meta["typeInfo"][type_id]["tasks"] = [
            (
                demo.add(
                    "taskTemplate",
                    workOrderTypeId=type_id,
                    description=task,
                    sequence=seq,
                    estimatedMinutes=demo.rng.choice((15, 30, 45, 60, 90)),
                ),
                task,
            )
            for seq, task in enumerate(TASKS[name], start=1)
        ]
    meta["cancelReason"] = list(
        add_named(
            demo,
            "cancellationReason",
            "name",
            (
                "Customer cancelled",
                "Duplicate request",
                "Customer not available",
                "Resolved by customer",
                "Weather",
            ),
        ).values()
    )
    meta["timeType"] = {
        name: demo.add("workTimeType", name=name, payMultiplier=mult, isBillable=billable)
        for name, mult, billable in (
            ("regular", 1.0, True),
            ("overtime", 1.5, True),
            ("travel", 1.0, False),
            ("on_call", 1.25, True),
        )
    }


def add_finance_lookups(demo: Demo) -> None:
    meta = demo.meta
    meta["gl"] = {
        code: demo.add("glAccount", code=code, name=name, accountType=kind)
        for code, name, kind in (
            ("1200", "Accounts Receivable", "asset"),
            ("4000", "Service Revenue", "revenue"),
            ("4010", "Installation Revenue", "revenue"),
            ("4100", "Parts Revenue", "revenue"),
            ("4200", "Contract Revenue", "revenue"),
            ("4300", "Trip Charges", "revenue"),
            ("5000", "Cost of Parts", "expense"),
            ("6100", "Vehicle Expense", "expense"),
        )
    }
    meta["taxRate"] = {
        name: (demo.add("taxRate", name=name, state="TX", rate=rate, isActive=True), rate)
        for name, rate in (
            ("Texas combined 8.25%", 0.0825),
            ("Texas state only 6.25%", 0.0625),
            ("Tax exempt", 0.0),
        )
    }
    meta["serviceItem"] = {}
    meta["price"] = {}
    lists = {
        2024: demo.add(
            "priceList",
            name="2024 Standard",
            effectiveFrom=date(2024, 1, 1),
            effectiveTo=date(2024, 12, 31),
            isDefault=False,
        ),
        2025: demo.add(
            "priceList",
            name="2025 Standard",
            effectiveFrom=date(2025, 1, 1),
            effectiveTo=None,
            isDefault=True,
        ),
    }
    for code, name, kind, price, taxable, gl in SERVICE_ITEMS:
        item = demo.add(
            "serviceItem",
            code=code,
            name=name,
            itemType=kind,
            unitPrice=price,
            isTaxable=taxable,
            glAccountId=meta["gl"][gl],
            isActive=True,
        )
        meta["serviceItem"][code] = (item, taxable, name)
        for year, list_id in lists.items():
            year_price = price if year == 2025 else round(price / 1.04, 0)
            demo.add("priceListItem", priceListId=list_id, serviceItemId=item, price=year_price)
            meta["price"][(year, code)] = year_price
    meta["paymentMethod"] = add_named(
        demo, "paymentMethod", "name", ("Credit card", "Check", "ACH transfer", "Cash", "Financing")
    )
    meta["expenseCategory"] = {
        name: demo.add("expenseCategory", name=name, isReimbursable=reimb)
        for name, reimb in (
            ("Meals", True),
            ("Parking & tolls", True),
            ("Supplies", True),
            ("Mileage reimbursement", True),
            ("Lodging", True),
            ("Personal", False),
        )
    }
