"""Demo data, step 10: everything around the work: quotes and tickets (`sales`),
surveys, appointments, messages, sign-offs, attachments, notes, notifications, audit trail,
documents, budgets and warranty claims, all derived from the work orders and invoices.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF,
    AS_OF_DATE,
    START,
    Demo,
    money,
)
from frontdesk.assistants.analyst.demo.data.sales import add_quotes, add_tickets


def add_misc(demo: Demo) -> None:
    add_quotes(demo)
    add_tickets(demo)
    _work_order_extras(demo)
    _audit_and_notes(demo)
    _budgets_and_claims(demo)


def _work_order_extras(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    breached = {row["workOrderId"] for row in demo.rows["slaBreach"]}
    callbacks = {demo.row("workOrder", w["id"])["parentWorkOrderId"] for w in meta["workOrders"]}
    for wo in meta["workOrders"]:
        info = wo["customer"]
        primary = info["contacts"][0]
        contact = demo.row("customerContact", primary)
        done = wo["status"] == "completed"
        if done and demo.chance(0.22):
            unhappy = wo["id"] in breached or wo["id"] in callbacks
            rating = demo.weighted(
                {5: 10, 4: 6, 3: 5, 2: 4, 1: 3} if unhappy else {5: 45, 4: 30, 3: 12, 2: 8, 1: 5}
            )
            submitted = wo["finished"] + timedelta(days=rng.randint(1, 5), hours=rng.randint(0, 8))
            if submitted <= AS_OF:
                demo.add(
                    "customerSurvey",
                    workOrderId=wo["id"],
                    customerId=info["id"],
                    rating=rating,
                    wouldRecommend=rating >= 4,
                    submittedAt=submitted,
                    comment=demo.pick(
                        (
                            "Great job!",
                            "On time and professional.",
                            "Took too long.",
                            "Had to call twice.",
                            None,
                        )
                    ),
                )
        if wo["crew"] and (info["kind"] == "residential" or demo.chance(0.3)):
            start = wo["start"].replace(minute=0) - timedelta(hours=1)
            reminder = datetime.combine(start.date() - timedelta(days=1), time(17, 0))
            demo.add(
                "appointment",
                workOrderId=wo["id"],
                customerContactId=primary,
                windowStart=start,
                windowEnd=start + timedelta(hours=4),
                confirmed=demo.chance(0.85),
                reminderSentAt=reminder if reminder <= AS_OF else None,
            )
            if reminder <= AS_OF and wo["status"] != "cancelled":
                if contact["preferredContactMethod"] == "sms":
                    demo.add(
                        "smsMessage",
                        customerContactId=primary,
                        workOrderId=wo["id"],
                        direction="outbound",
                        body=f"Lone Star Field Services: your technician arrives "
                        f"{start:%b %d} between {start:%I:%M %p} and "
                        f"{start + timedelta(hours=4):%I:%M %p}. Reply C to confirm.",
                        sentAt=reminder,
                        deliveryStatus=demo.weighted({"delivered": 30, "failed": 1}),
                    )
                    if demo.chance(0.45):
                        demo.add(
                            "smsMessage",
                            customerContactId=primary,
                            workOrderId=wo["id"],
                            direction="inbound",
                            body=demo.pick(("C", "Confirmed", "Can we do afternoon?")),
                            sentAt=reminder + timedelta(minutes=rng.randint(2, 240)),
                            deliveryStatus="received",
                        )
                elif contact["preferredContactMethod"] == "email":
                    demo.add(
                        "emailLog",
                        customerContactId=primary,
                        invoiceId=None,
                        subject=f"Appointment confirmed for {start:%B %d, %Y}",
                        emailType="appointment",
                        sentAt=reminder,
                        status="sent",
                    )
        if done and demo.chance(0.85):
            demo.add(
                "signature",
                workOrderId=wo["id"],
                customerContactId=demo.pick(info["contacts"]),
                signedAt=wo["finished"],
                method=demo.weighted({"tablet": 8, "paper": 1, "email": 1}),
            )
        if wo["time"] and demo.chance(0.5):
            for number in range(rng.randint(1, 3)):
                pdf = number == 0 and wo["info"]["inspect"]
                demo.add(
                    "attachment",
                    workOrderId=wo["id"],
                    fileName=f"inspection_report_{wo['id']}.pdf"
                    if pdf
                    else f"photo_{wo['id']}_{number + 1}.jpg",
                    mimeType="application/pdf" if pdf else "image/jpeg",
                    sizeBytes=rng.randint(80_000, 4_500_000),
                    uploadedBy=wo["crew"][0]["userId"],
                    uploadedAt=wo["finished"] or wo["start"],
                )
        for _ in range(demo.weighted({0: 5, 1: 4, 2: 1})):
            author = (
                wo["crew"][0]["userId"]
                if wo["crew"] and demo.chance(0.5)
                else meta["dispatcherUser"][info["branchId"]]
            )
            when = min(wo["created"] + timedelta(hours=rng.randint(1, 72)), AS_OF)
            demo.add(
                "workOrderNote",
                workOrderId=wo["id"],
                userId=author,
                note=demo.pick(
                    (
                        "Customer confirmed access.",
                        "Parts on order.",
                        "Needs second technician.",
                        "Quote sent for replacement.",
                        "Left voicemail.",
                        "Unit is past its expected life.",
                    )
                ),
                isInternal=demo.chance(0.6),
                createdAt=when,
            )


def _audit_and_notes(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    for row in demo.rows["dispatch"]:
        if demo.chance(0.4):
            tech = demo.row("employee", row["employeeId"])
            demo.add(
                "notification",
                userId=tech["userId"],
                channel="push",
                title=f"New job: {demo.row('workOrder', row['workOrderId'])['workOrderNumber']}",
                sentAt=row["dispatchedAt"],
                readAt=row["acknowledgedAt"] if demo.chance(0.9) else None,
            )
    for row in demo.rows["payment"]:
        if demo.chance(0.3):
            demo.add(
                "notification",
                userId=row["receivedBy"],
                channel="email",
                title=f"Payment received: ${row['amount']:,.2f}",
                sentAt=row["createdAt"],
                readAt=row["createdAt"] + timedelta(hours=2) if demo.chance(0.8) else None,
            )
    for row in demo.rows["workOrderStatusHistory"]:
        if row["fromStatus"] and demo.chance(0.3):
            demo.add(
                "auditLog",
                userId=row["changedBy"],
                tableName="workOrder",
                recordId=row["workOrderId"],
                action="update",
                changedAt=row["changedAt"],
            )
    for row in demo.rows["invoice"]:
        if row["paidDate"] and demo.chance(0.3):
            demo.add(
                "auditLog",
                userId=demo.pick(meta["accountants"])["userId"],
                tableName="invoice",
                recordId=row["id"],
                action="update",
                changedAt=datetime.combine(row["paidDate"], time(15, 0)),
            )
    for info in meta["customers"]:
        if info["since"] >= START:
            demo.add(
                "auditLog",
                userId=meta["dispatcherUser"][info["branchId"]],
                tableName="customer",
                recordId=info["id"],
                action="insert",
                changedAt=datetime.combine(info["since"], time(10, 0)),
            )
    staff = [e["userId"] for e in meta["dispatchers"] + meta["sales"] + meta["accountants"]]
    entities = {
        "workOrder": len(demo.rows["workOrder"]),
        "customer": len(meta["customers"]),
        "equipment": len(demo.rows["equipment"]),
        "invoice": len(demo.rows["invoice"]),
        "vehicle": len(demo.rows["vehicle"]),
    }
    for _ in range(260):
        kind = demo.pick(list(entities))
        demo.add(
            "note",
            entityType=kind,
            entityId=rng.randint(1, entities[kind]),
            body=demo.pick(
                (
                    "Follow up next week.",
                    "Discussed with manager.",
                    "Customer prefers morning visits.",
                    "Check warranty status.",
                    "Photo added to file.",
                )
            ),
            createdBy=demo.pick(staff),
            createdAt=demo.moment(demo.day_between(START, AS_OF_DATE)),
        )
    for contract in meta["contracts"]:
        demo.add(
            "document",
            customerId=contract["customer"]["id"],
            serviceContractId=contract["id"],
            fileName=f"contract_{demo.row('serviceContract', contract['id'])['contractNumber']}.pdf",
            documentType="contract",
            sizeBytes=rng.randint(120_000, 900_000),
            uploadedBy=demo.row("employee", contract["rep"])["userId"],
            uploadedAt=demo.row("serviceContract", contract["id"])["createdAt"],
        )
    for wo in meta["workOrders"]:
        if wo["typeName"] == "Panel Upgrade" and wo["time"]:
            demo.add(
                "document",
                customerId=wo["customer"]["id"],
                serviceContractId=None,
                fileName=f"permit_{wo['id']}.pdf",
                documentType="permit",
                sizeBytes=rng.randint(50_000, 300_000),
                uploadedBy=meta["dispatcherUser"][wo["customer"]["branchId"]],
                uploadedAt=wo["created"] + timedelta(hours=3),
            )


def _budgets_and_claims(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    base = {"Austin": 95000, "Dallas": 80000, "Houston": 70000, "San Antonio": 45000}
    season = {
        1: 1.0,
        2: 0.85,
        3: 0.9,
        4: 0.95,
        5: 1.05,
        6: 1.3,
        7: 1.4,
        8: 1.35,
        9: 1.05,
        10: 0.9,
        11: 0.9,
        12: 1.0,
    }
    for name, branch in meta["branch"].items():
        for year in (2024, 2025):
            for month in range(1, 13):
                revenue = round(
                    base[name]
                    * season[month]
                    * (1.06 if year == 2025 else 1.0)
                    * rng.uniform(0.95, 1.05),
                    -2,
                )
                demo.add(
                    "budget",
                    branchId=branch,
                    year=year,
                    month=month,
                    revenueTarget=revenue,
                    laborHoursTarget=round(revenue / 125.0, 1),
                )
    warranties: dict[int, list[dict]] = {}
    for row in demo.rows["warranty"]:
        warranties.setdefault(row["equipmentId"], []).append(row)
    for wo in meta["workOrders"]:
        if wo["status"] != "completed" or not wo["parts"] or "Repair" not in wo["typeName"]:
            continue
        day = wo["finished"].date()
        for equipment in wo.get("equipment", ()):
            covered = [
                w
                for w in warranties.get(equipment, ())
                if w["startDate"] <= day <= w["endDate"] and w["coverage"] == "parts"
            ]
            if covered:
                claim_day = day + timedelta(days=rng.randint(1, 10))
                if claim_day > AS_OF_DATE:
                    break
                age = (AS_OF_DATE - claim_day).days
                demo.add(
                    "warrantyClaim",
                    warrantyId=covered[0]["id"],
                    workOrderId=wo["id"],
                    claimDate=claim_day,
                    amount=money(sum(q * c for _p, q, c, _pr, _w in wo["parts"])),
                    status="submitted"
                    if age < 20
                    else demo.weighted({"paid": 6, "approved": 2, "rejected": 2}),
                )
                break
