"""Demo data, step 10a: quotes (estimates) and customer support tickets with comments.

Accepted quotes precede the installation work orders they led to (`quote.workOrderId`);
the rest were sent, rejected, expired or are still drafts.
"""

from __future__ import annotations

from datetime import timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF,
    AS_OF_DATE,
    START,
    Demo,
    money,
)

TICKET_SUBJECTS = {
    "Billing question": ("Question about invoice total", "Charged twice?", "Need a W-9"),
    "Scheduling": ("Reschedule appointment", "Technician running late?", "Change arrival window"),
    "Complaint": ("Technician left a mess", "Problem came back", "Missed appointment window"),
    "Service request": ("Request a quote", "Add a site to our contract", "Annual inspection due"),
    "Warranty": ("Is this covered by warranty?", "Warranty claim status"),
    "Portal access": ("Cannot log in to portal", "Add a user to our portal account"),
}


def add_quotes(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    specs = []
    for wo in meta["workOrders"]:
        if wo["request"]["source"] != "contract" and wo["info"]["hours"] >= 4:
            day = max(
                wo["customer"]["since"], wo["created"].date() - timedelta(days=rng.randint(3, 20))
            )
            specs.append((day, wo["customer"], wo["location"], wo, "accepted", wo["typeName"]))
    for _ in range(220):
        info = demo.pick(meta["customers"])
        day = demo.day_between(max(START, info["since"]), AS_OF_DATE)
        age = (AS_OF_DATE - day).days
        status = (
            "draft"
            if age < 4
            else "sent"
            if age < 30
            else demo.weighted({"rejected": 4, "expired": 5})
        )
        specs.append(
            (
                day,
                info,
                demo.pick(info["locations"]),
                None,
                status,
                demo.pick(
                    (
                        "HVAC Installation",
                        "Water Heater Installation",
                        "Panel Upgrade",
                        "HVAC Repair",
                    )
                ),
            )
        )
    specs.sort(key=lambda s: (s[0], s[1]["id"]))
    preparers = [e["id"] for e in meta["sales"]] + [m["id"] for m in meta["managers"].values()]
    for day, info, location, wo, status, kind in specs:
        uses = {
            "HVAC Installation": ("hvac_install", "hvac_repair"),
            "Water Heater Installation": ("water_heater",),
            "Panel Upgrade": ("panel",),
            "HVAC Repair": ("hvac_repair",),
        }[kind]
        lines = [("LAB-REG", None, float(rng.choice((2, 4, 6, 8, 10))))]
        for use in uses:
            for part in rng.sample(meta["partsByUse"][use], rng.randint(1, 2)):
                lines.append((None, part, 1.0))
        if kind != "HVAC Repair":
            lines.append(("DISP", None, 1.0))
        year = min(max(day.year, 2024), 2025)
        priced = []
        for code, part, quantity in lines:
            if code:
                item, taxable, name = meta["serviceItem"][code]
                priced.append((item, None, name, quantity, meta["price"][(year, code)], taxable))
            else:
                info_part = meta["part"][part]
                priced.append((None, part, info_part["name"], quantity, info_part["price"], True))
        subtotal = money(sum(money(q * p) for _i, _p, _n, q, p, _t in priced))
        tax = (
            0.0
            if info["exempt"]
            else money(sum(money(q * p) for _i, _p, _n, q, p, t in priced if t) * 0.0825)
        )
        quote = demo.add(
            "quote",
            quoteNumber="",
            customerId=info["id"],
            customerLocationId=location,
            workOrderId=wo["id"] if wo else None,
            preparedById=demo.pick(preparers),
            quoteDate=day,
            validUntil=day + timedelta(days=30),
            status=status,
            subtotal=subtotal,
            taxAmount=tax,
            total=money(subtotal + tax),
            acceptedAt=wo["created"] - timedelta(hours=rng.randint(1, 40)) if wo else None,
        )
        demo.row("quote", quote)["quoteNumber"] = f"Q-{day.year}-{quote:04d}"
        for item, part, name, quantity, price, _taxable in priced:
            demo.add(
                "quoteLine",
                quoteId=quote,
                serviceItemId=item,
                partId=part,
                description=name,
                quantity=quantity,
                unitPrice=price,
                lineTotal=money(quantity * price),
            )


def add_tickets(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    customers = meta["customers"]
    orders_of: dict[int, list[dict]] = {}
    for wo in meta["workOrders"]:
        orders_of.setdefault(wo["customer"]["id"], []).append(wo)
    openings = sorted(demo.moment(demo.day_between(START, AS_OF_DATE), 7, 20) for _ in range(420))
    for counter, opened in enumerate(openings, start=1):
        info = rng.choices(customers, weights=[c["weight"] for c in customers])[0]
        category = demo.weighted(
            {
                "Billing question": 4,
                "Scheduling": 5,
                "Complaint": 2,
                "Service request": 3,
                "Warranty": 1,
                "Portal access": 1,
            }
        )
        earlier = [w for w in orders_of.get(info["id"], ()) if w["created"] < opened]
        linked = (
            earlier[-1] if earlier and category in ("Scheduling", "Complaint", "Warranty") else None
        )
        owner = (
            demo.pick([a["userId"] for a in meta["accountants"]])
            if category == "Billing question"
            else meta["systemUser"]["it.admin"]
            if category == "Portal access"
            else meta["dispatcherUser"][info["branchId"]]
        )
        age = AS_OF - opened
        if age < timedelta(days=3):
            status = "open"
        elif age < timedelta(days=14):
            status = demo.weighted({"open": 2, "pending": 3, "resolved": 5})
        else:
            status = demo.weighted({"closed": 18, "resolved": 1, "pending": 0.5})
        resolved = (
            opened + timedelta(hours=rng.randint(1, 120))
            if status in ("resolved", "closed")
            else None
        )
        ticket = demo.add(
            "ticket",
            ticketNumber=f"T-{counter:05d}",
            customerId=info["id"],
            customerContactId=demo.pick(info["contacts"]),
            ticketCategoryId=meta["ticketCategory"][category],
            priorityId=meta["priority"][demo.weighted({"low": 3, "normal": 6, "high": 1})],
            workOrderId=linked["id"] if linked else None,
            subject=demo.pick(TICKET_SUBJECTS[category]),
            status=status,
            channel=demo.weighted({"phone": 4, "email": 4, "portal": 2, "sms": 1}),
            assignedToId=owner,
            openedAt=opened,
            resolvedAt=min(resolved, AS_OF) if resolved else None,
            closedAt=min(resolved + timedelta(days=2), AS_OF) if status == "closed" else None,
        )
        when = opened
        for number in range(rng.randint(1, 4)):
            when = when + timedelta(minutes=rng.randint(10, 600))
            if when > AS_OF:
                break
            staff = number % 2 == 1 or number == 0 and demo.chance(0.3)
            demo.add(
                "ticketComment",
                ticketId=ticket,
                userId=owner if staff else None,
                body=demo.pick(
                    (
                        "Thanks, looking into it.",
                        "Any update on this?",
                        "We rescheduled the visit.",
                        "Credit applied.",
                        "Please call me back.",
                        "Resolved, closing.",
                    )
                ),
                isInternal=staff and demo.chance(0.3),
                createdAt=when,
            )
