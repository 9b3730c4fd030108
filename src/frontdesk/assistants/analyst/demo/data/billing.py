"""Demo data, step 7: invoices, their lines, payments, reminders, credits and commissions.

Completed billable work orders are invoiced within three days (labor from the billable work
time, parts used, trip charges and fees; flat-rate jobs bill a flat item instead of labor);
service contracts are billed monthly, quarterly or yearly. Invoices get ids in invoice-date
order. Customers flagged as late payers pay weeks late or not at all, which leaves a realistic
set of overdue invoices at `AS_OF`. Line totals add up to the subtotal; tax applies only to
taxable lines.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import AS_OF_DATE, START, Demo, money

FLAT = {"Backflow Test": "BF-TEST", "Fire Extinguisher Inspection": "FE-INSP"}
LABOR_ITEM = {"regular": "LAB-REG", "overtime": "LAB-OT", "on_call": "LAB-EMR"}
PERIODS = {"monthly": 12, "quarterly": 4, "annual": 1}


def _item_line(demo: Demo, year: int, code: str, quantity: float, description=None) -> tuple:
    item, taxable, name = demo.meta["serviceItem"][code]
    price = demo.meta["price"][(min(max(year, 2024), 2025), code)]
    line_type = demo.row("serviceItem", item)["itemType"]
    line_type = "labor" if line_type == "labor" else "trip_charge" if code == "TRIP" else "fee"
    return (line_type, item, None, description or name, quantity, price, taxable)


def _work_order_lines(demo: Demo, wo: dict, year: int) -> list[tuple]:
    rng = demo.rng
    lines = []
    residential = wo["customer"]["kind"] == "residential"
    if wo["typeName"] in FLAT:
        quantity = (
            float(rng.randint(4, 40)) if wo["typeName"] == "Fire Extinguisher Inspection" else 1.0
        )
        lines.append(_item_line(demo, year, FLAT[wo["typeName"]], quantity))
    elif wo["typeName"] == "HVAC Preventive Maintenance" and residential:
        lines.append(_item_line(demo, year, "PM-RES", 1.0))
    else:
        hours: dict[str, float] = {}
        for _tech, _start, _end, spent, kind in wo["time"]:
            if kind != "travel":
                hours[kind] = hours.get(kind, 0.0) + spent
        for kind, total in hours.items():
            lines.append(_item_line(demo, year, LABOR_ITEM[kind], round(total, 2)))
        if not wo["contract"]:
            lines.append(_item_line(demo, year, "TRIP", 1.0))
        if "Repair" in wo["typeName"] and demo.chance(0.3):
            lines.append(_item_line(demo, year, "DIAG", 1.0))
    if "Installation" in wo["typeName"] or wo["typeName"] == "Panel Upgrade":
        lines.append(_item_line(demo, year, "DISP", 1.0))
        if demo.chance(0.6):
            lines.append(_item_line(demo, year, "PERMIT", 1.0))
    for part, quantity, _cost, price, _warehouse in wo["parts"]:
        lines.append(("part", None, part, demo.meta["part"][part]["name"], quantity, price, True))
    return lines


def _specs(demo: Demo) -> list[dict]:
    meta, rng = demo.meta, demo.rng
    specs = []
    for wo in meta["workOrders"]:
        if wo["status"] != "completed" or not wo["billable"]:
            continue
        day = wo["finished"].date() + timedelta(days=rng.randint(0, 3))
        draft = day > AS_OF_DATE
        day = min(day, AS_OF_DATE)
        specs.append(
            {
                "customer": wo["customer"],
                "wo": wo,
                "contract": None,
                "date": day,
                "draft": draft,
                "lines": _work_order_lines(demo, wo, day.year),
            }
        )
    for contract in meta["contracts"]:
        if contract["status"] == "pending":
            continue
        periods = PERIODS[contract["billing"]]
        amount = money(contract["annual"] / periods)
        months = 12 // periods
        day = contract["start"]
        number = 0
        while day <= min(contract["end"], AS_OF_DATE):
            number += 1
            if day >= START:
                label = {
                    12: f"{day:%B %Y}",
                    4: f"{day.year} period {number}",
                    1: f"{day.year}-{day.year + 1}",
                }[periods]
                specs.append(
                    {
                        "customer": contract["customer"],
                        "wo": None,
                        "contract": contract,
                        "date": day,
                        "draft": False,
                        "lines": [
                            (
                                "contract",
                                None,
                                None,
                                f"{contract['type']} contract - {label}",
                                1.0,
                                amount,
                                False,
                            )
                        ],
                    }
                )
            if contract["status"] == "cancelled" and day.year == 2025 and number > 2:
                break
            month = day.month - 1 + months
            day = date(day.year + month // 12, month % 12 + 1, 1)
    specs.sort(key=lambda s: (s["date"], s["customer"]["id"]))
    return specs


def add_invoices(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    meta["invoices"] = []
    tax_for: dict[int, str] = {}
    accountants = [a["userId"] for a in meta["accountants"]]
    counters: dict[int, int] = {}
    for spec in _specs(demo):
        info = spec["customer"]
        if info["id"] not in tax_for:
            tax_for[info["id"]] = (
                "Tax exempt"
                if info["exempt"]
                else demo.weighted({"Texas combined 8.25%": 4, "Texas state only 6.25%": 1})
            )
        tax_id, rate = meta["taxRate"][tax_for[info["id"]]]
        subtotal = money(sum(money(q * p) for _t, _i, _p, _d, q, p, _x in spec["lines"]))
        taxable = sum(money(q * p) for _t, _i, _p, _d, q, p, tx in spec["lines"] if tx)
        tax = money(taxable * rate)
        total = money(subtotal + tax)
        day = spec["date"]
        due = day + timedelta(days=info["termDays"])
        counters[day.year] = counters.get(day.year, 0) + 1
        invoice = demo.add(
            "invoice",
            invoiceNumber=f"INV-{day.year}-{counters[day.year]:05d}",
            customerId=info["id"],
            workOrderId=spec["wo"]["id"] if spec["wo"] else None,
            serviceContractId=spec["contract"]["id"] if spec["contract"] else None,
            taxRateId=tax_id,
            paymentTermId=info["termId"],
            invoiceDate=day,
            dueDate=due,
            status="draft",
            subtotal=subtotal,
            taxAmount=tax,
            total=total,
            amountPaid=0.0,
            sentAt=None,
            paidDate=None,
            createdAt=datetime.combine(day, time(8, 0)) + timedelta(minutes=rng.randint(0, 540)),
        )
        for line_type, item, part, description, quantity, price, _tx in spec["lines"]:
            demo.add(
                "invoiceLine",
                invoiceId=invoice,
                lineType=line_type,
                serviceItemId=item,
                partId=part,
                description=description,
                quantity=quantity,
                unitPrice=price,
                lineTotal=money(quantity * price),
            )
        record = {
            "id": invoice,
            "customer": info,
            "date": day,
            "due": due,
            "total": total,
            "contract": spec["contract"],
            "wo": spec["wo"],
            "paid": None,
        }
        meta["invoices"].append(record)
        if not spec["draft"]:
            _settle(demo, record, accountants)
    _credits_and_commissions(demo)


def _settle(demo: Demo, record: dict, accountants: list[int]) -> None:
    meta, rng = demo.meta, demo.rng
    info, total = record["customer"], record["total"]
    row = demo.row("invoice", record["id"])
    sent = datetime.combine(record["date"], time(9, 0)) + timedelta(minutes=rng.randint(0, 480))
    row["sentAt"] = sent
    contact = next(
        (c for c in info["contacts"] if demo.row("customerContact", c)["receivesInvoices"]),
        info["contacts"][0],
    )
    record["contact"] = contact
    demo.add(
        "emailLog",
        customerContactId=contact,
        invoiceId=record["id"],
        subject=f"Invoice {row['invoiceNumber']} from Lone Star Field Services",
        emailType="invoice",
        sentAt=sent,
        status=demo.weighted({"opened": 7, "sent": 3, "bounced": 0.2}),
    )
    if demo.chance(0.01):
        row["status"] = "void"
        return
    if info["latePayer"]:
        delay = None if demo.chance(0.15) else rng.randint(5, 95)
    else:
        delay = None if demo.chance(0.012) else rng.randint(-12, 12)
    payments: list[tuple[date, float]] = []
    if delay is not None:
        final = max(record["date"], record["due"] + timedelta(days=delay))
        if demo.chance(0.06 if not info["latePayer"] else 0.2) and total > 100:
            first = money(total * rng.uniform(0.3, 0.7))
            payments.append(
                (max(record["date"], final - timedelta(days=rng.randint(5, 30))), first)
            )
            if not (info["latePayer"] and demo.chance(0.5)):  # some never pay the rest
                payments.append((final, money(total - first)))
        else:
            payments.append((final, total))
    method = (
        meta["paymentMethod"]["Credit card"]
        if info["kind"] == "residential" and demo.chance(0.8)
        else demo.pick(
            [
                meta["paymentMethod"][m]
                for m in ("Check", "ACH transfer", "ACH transfer", "Credit card")
            ]
        )
    )
    paid = 0.0
    last = None
    for day, amount in payments:
        if day > AS_OF_DATE:
            continue
        demo.add(
            "payment",
            invoiceId=record["id"],
            customerId=info["id"],
            paymentMethodId=method,
            paymentDate=day,
            amount=amount,
            referenceNumber=f"{'CHK' if method == meta['paymentMethod']['Check'] else 'TX'}"
            f"-{rng.randint(100000, 999999)}",
            receivedBy=demo.pick(accountants),
            createdAt=datetime.combine(day, time(rng.randint(9, 16), rng.randint(0, 59))),
        )
        paid = money(paid + amount)
        last = day
    row["amountPaid"] = paid
    if paid >= total:
        row["status"], row["paidDate"] = "paid", last
        record["paid"] = last
    elif paid > 0:
        row["status"] = "partially_paid"
    else:
        row["status"] = "overdue" if record["due"] < AS_OF_DATE else "sent"
    settled = record["paid"] or AS_OF_DATE
    for level, offset in ((1, 7), (2, 21), (3, 45)):
        day = record["due"] + timedelta(days=offset)
        if day < settled and day <= AS_OF_DATE:
            demo.add(
                "paymentReminder",
                invoiceId=record["id"],
                reminderDate=day,
                reminderLevel=level,
                channel="email",
            )
            demo.add(
                "emailLog",
                customerContactId=contact,
                invoiceId=record["id"],
                subject=f"Reminder {level}: invoice {row['invoiceNumber']} is past due",
                emailType="payment_reminder",
                sentAt=datetime.combine(day, time(7, 30)),
                status="sent",
            )


def _credits_and_commissions(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    penalties = {
        name: demo.row("slaPolicy", policy)["penaltyPercent"]
        for name, (policy, _r, _s) in meta["sla"].items()
    }
    contract_invoices: dict[int, list[dict]] = {}
    for record in meta["invoices"]:
        if record["contract"]:
            contract_invoices.setdefault(record["contract"]["id"], []).append(record)
    credits = []
    for breach in demo.rows["slaBreach"]:
        wo = meta["workOrders"][breach["workOrderId"] - 1]  # created in id order
        for record in contract_invoices.get(wo["contract"]["id"], ()):
            if (
                record["date"] >= breach["dueAt"].date()
                and demo.row("invoice", record["id"])["status"] != "void"
            ):
                percent = penalties[wo["contract"]["sla"]]
                if percent:
                    number = demo.row("workOrder", wo["id"])["workOrderNumber"]
                    reason = f"SLA {breach['breachType']} breach on work order {number}"
                    credits.append((record, money(record["total"] * percent / 100), reason))
                break
    for record in meta["invoices"]:
        if record["paid"] and not record["contract"] and demo.chance(0.02):
            credits.append(
                (
                    record,
                    money(record["total"] * rng.choice((0.1, 0.15, 0.25))),
                    demo.pick(
                        (
                            "Goodwill credit - late arrival",
                            "Billing correction",
                            "Customer complaint",
                        )
                    ),
                )
            )
    credits.sort(key=lambda c: (c[0]["date"], c[0]["id"]))
    for record, amount, reason in credits:
        credit = demo.add(
            "creditNote",
            creditNumber="",
            invoiceId=record["id"],
            customerId=record["customer"]["id"],
            issuedDate=min(AS_OF_DATE, record["date"] + timedelta(days=3)),
            amount=amount,
            reason=reason,
        )
        demo.row("creditNote", credit)["creditNumber"] = f"CN-{credit:05d}"
    employees = {e["id"]: e for e in meta["employees"]}
    for record in meta["invoices"]:
        rep, rate = None, 0.0
        if record["contract"]:
            rep, rate = record["contract"]["rep"], 0.03
        elif record["wo"] and record["wo"]["info"]["hours"] >= 4:
            rep, rate = demo.row("customer", record["customer"]["id"])["accountManagerId"], 0.05
        seller = employees.get(rep)
        if not seller or (seller["term"] and seller["term"] < record["date"]):
            continue
        paid = record["paid"]
        payout = None
        if paid:
            month = paid.month % 12 + 1
            payout = date(paid.year + (paid.month == 12), month, 15)
            payout = payout if payout <= AS_OF_DATE else None
        demo.add(
            "commission",
            employeeId=rep,
            invoiceId=record["id"],
            rate=rate,
            amount=money(record["total"] * rate),
            paidDate=payout,
        )
