"""Demo data, step 5: ~2,000 work orders over 2024-2025 and what happened on each.

Each request (`requests`: on-demand calls, contract visits, follow-ups) is played forward
against `AS_OF`: scheduled by priority, staffed with a crew of technicians employed at the time
(same branch and trade where possible), then worked, completed, cancelled, on hold or still
pending; `work_time` records the field work itself. SLA breaches are derived at the end.
"""

from __future__ import annotations

from datetime import date, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF_DATE,
    Demo,
    business_day,
    employed,
)
from frontdesk.assistants.analyst.demo.data.requests import work_requests
from frontdesk.assistants.analyst.demo.data.work_time import record_field_work

TRADE = {
    "HVAC": "hvac",
    "Plumbing": "plumbing",
    "Electrical": "electrical",
    "Fire Safety": "fire_safety",
    "Refrigeration": "refrigeration",
}
DESCRIPTIONS = {
    "HVAC Repair": (
        "No cooling - unit blowing warm air",
        "Furnace not igniting",
        "Thermostat unresponsive",
        "Water leaking from indoor unit",
        "Loud noise from outdoor unit",
        "Rooftop unit short cycling",
    ),
    "HVAC Preventive Maintenance": (
        "Seasonal HVAC tune-up",
        "Quarterly rooftop unit service",
        "Annual heating system check",
    ),
    "HVAC Installation": (
        "Replace 15-year-old AC and furnace",
        "Install new heat pump system",
        "Replace failed rooftop unit",
    ),
    "Plumbing Repair": (
        "Leak under kitchen sink",
        "Clogged main drain",
        "Running toilet",
        "Low water pressure",
        "Burst pipe in garage",
    ),
    "Water Heater Installation": ("Replace leaking water heater", "Install tankless heater"),
    "Backflow Test": ("Annual backflow preventer test (city requirement)",),
    "Electrical Repair": (
        "Breaker keeps tripping",
        "Outlets dead in one room",
        "Flickering lights",
        "Install dedicated circuit",
    ),
    "Panel Upgrade": ("Upgrade 100A panel to 200A",),
    "Fire Extinguisher Inspection": ("Annual fire extinguisher inspection and tagging",),
    "Sprinkler System Inspection": (
        "Annual sprinkler system inspection",
        "Quarterly sprinkler inspection",
    ),
    "Refrigeration Repair": (
        "Walk-in cooler not holding temperature",
        "Ice machine not making ice",
    ),
    "Walk-in Cooler Maintenance": ("Walk-in cooler preventive maintenance",),
    "Warranty Callback": ("Callback: same problem as last visit", "Callback: noise after repair"),
}
NOTES = (
    "Dog in the backyard; use the side gate.",
    "Customer works nights, not before 10am.",
    "Bring a 28 ft ladder for roof access.",
    "Customer reported a burning smell.",
    "Second visit; parts were ordered last time.",
    "Tenant will let you in.",
    "Ask for {contact} at reception.",
    "Call {contact} at {phone} 30 minutes before arrival.",
    "{contact} prefers text messages.",
)


def _pick_crew(demo: Demo, request: dict, day: date) -> list[dict]:
    meta = demo.meta
    info = meta["typeInfo"][request["type"]]
    trade = TRADE[info["category"]]
    branch = meta["locations"][request["location"]]["branchId"]
    working = [t for t in meta["techs"] if employed(t, day)]
    in_branch = [t for t in working if t["branchId"] == branch]
    related = {
        "hvac": ("hvac", "refrigeration"),
        "refrigeration": ("refrigeration", "hvac"),
        "fire_safety": ("fire_safety", "plumbing"),
    }.get(trade, (trade,))
    for pool in (
        [t for t in in_branch if t["trade"] == trade],
        [t for t in in_branch if t["trade"] in related],
        [t for t in working if t["trade"] == trade],
        in_branch,
        working,
    ):
        if pool:
            lead = demo.pick(pool)
            break
    hours = info["hours"]
    size = (
        demo.rng.randint(2, 3)
        if hours >= 6
        else 2
        if (request["typeName"] == "Sprinkler System Inspection" or demo.chance(0.4))
        else 1
    )
    helpers = [t for t in (in_branch if len(in_branch) > size else working) if t is not lead]
    return [lead, *demo.rng.sample(helpers, min(size - 1, len(helpers)))]


def _status(demo: Demo, request: dict, scheduled: date) -> str:
    if scheduled > AS_OF_DATE:
        return "scheduled" if demo.chance(0.75) else "open"
    if scheduled >= AS_OF_DATE - timedelta(days=5):
        return demo.weighted({"in_progress": 50, "completed": 40, "on_hold": 10})
    if request.get("mustComplete"):
        return "completed"
    status = demo.weighted({"completed": 90, "cancelled": 6, "on_hold": 4})
    if status == "on_hold" and scheduled < AS_OF_DATE - timedelta(days=60):
        return "completed"
    return status


def add_work_orders(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    meta["workOrders"] = []
    counters: dict[int, int] = {}
    by_request: dict[int, int] = {}
    for request in work_requests(demo):
        info = meta["typeInfo"][request["type"]]
        priority = request["priority"]
        contract = request["contract"]
        if request["source"] == "contract":
            lead_days = rng.randint(0, 3)
        elif contract:
            lead_days = 0 if priority in ("emergency", "high") else rng.choice((0, 1, 1, 2))
        else:
            lead_days = {
                "emergency": 0,
                "high": rng.randint(0, 1),
                "normal": rng.randint(1, 7),
                "low": rng.randint(3, 14),
            }[priority]
        scheduled = request["day"] + timedelta(days=lead_days)
        if priority != "emergency":
            scheduled = business_day(scheduled, meta["holidays"])
        due = request["day"] + timedelta(
            days={"emergency": 1, "high": 2, "normal": 7, "low": 14}[priority]
        )
        status = _status(demo, request, scheduled)
        cancelled_early = status == "cancelled" and demo.chance(0.5)
        crew = [] if status == "open" or cancelled_early else _pick_crew(demo, request, scheduled)
        location = demo.row("customerLocation", request["location"])
        year = request["created"].year % 100
        counters[year] = counters.get(year, 0) + 1
        contact, phone = location["siteContactName"], location["siteContactPhone"]
        note = demo.pick(NOTES).format(contact=contact, phone=phone) if demo.chance(0.45) else None
        billable = info["billable"] and not (
            contract and (request["source"] == "contract" or contract["type"] == "Full Coverage")
        )
        creator = (
            meta["systemUser"]["portal"]
            if request["source"] == "portal"
            else (
                meta["systemUser"]["scheduler.bot"]
                if request["source"] == "contract"
                else meta["dispatcherUser"][request["customer"]["branchId"]]
            )
        )
        parent = request["parent"]
        work_order = demo.add(
            "workOrder",
            workOrderNumber=f"WO-{year:02d}-{counters[year]:05d}",
            customerId=request["customer"]["id"],
            customerLocationId=request["location"],
            workOrderTypeId=request["type"],
            priorityId=meta["priority"][priority],
            serviceContractId=contract["id"] if contract else None,
            status=status,
            description=demo.pick(DESCRIPTIONS[request["typeName"]]),
            contactName=contact,
            contactPhone=phone,
            notes=note,
            requestedDate=request["day"],
            scheduledDate=None if status == "open" or cancelled_early else scheduled,
            dueDate=due,
            completedDate=None,
            estimatedHours=info["hours"],
            isBillable=billable,
            assignedToId=crew[0]["id"] if crew else None,
            createdBy=creator,
            parentWorkOrderId=by_request[id(parent)] if parent else None,
            cancellationReasonId=demo.pick(meta["cancelReason"]) if status == "cancelled" else None,
            source=request["source"],
            createdAt=request["created"],
            updatedAt=None,
        )
        by_request[id(request)] = work_order
        wo = {
            "id": work_order,
            "request": request,
            "status": status,
            "crew": crew,
            "scheduled": scheduled,
            "priority": priority,
            "billable": billable,
            "contract": contract,
            "typeName": request["typeName"],
            "info": info,
            "customer": request["customer"],
            "location": request["location"],
            "created": request["created"],
            "creator": creator,
            "due": due,
            "time": [],
            "parts": [],
            "arrived": None,
            "finished": None,
        }
        meta["workOrders"].append(wo)
        record_field_work(demo, wo)
        demo.row("workOrder", work_order).update(
            status=wo["status"],
            completedDate=wo["finished"].date() if wo["status"] == "completed" else None,
            updatedAt=wo["updated"],
        )
    _sla_breaches(demo)


def _sla_breaches(demo: Demo) -> None:
    meta = demo.meta
    for wo in meta["workOrders"]:
        contract = wo["contract"]
        if not contract or wo["request"]["source"] == "contract" or not wo["arrived"]:
            continue
        policy, response, resolution = meta["sla"][contract["sla"]]
        for kind, hours, actual in (
            ("response", response, wo["arrived"]),
            ("resolution", resolution, wo["finished"] if wo["status"] == "completed" else None),
        ):
            deadline = wo["created"] + timedelta(hours=hours)
            if actual and actual > deadline:
                demo.add(
                    "slaBreach",
                    workOrderId=wo["id"],
                    slaPolicyId=policy,
                    breachType=kind,
                    dueAt=deadline,
                    minutesLate=int((actual - deadline).total_seconds() // 60),
                )
