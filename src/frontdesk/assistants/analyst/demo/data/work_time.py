"""Demo data, step 5b: the field work behind one work order.

Given a work order's crew and status, this writes its crew and crew members, schedule slots,
dispatches, logged work time (regular, travel, overtime and after-hours on-call entries),
checklist tasks, parts used, equipment serviced, mileage and status history. Time entries are
whole quarter hours on a 5-minute clock, so `hours` always equals `endTime - startTime`.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF,
    AS_OF_DATE,
    Demo,
    add_years,
    business_day,
    quarter_hours,
)

PART_USES = {
    "HVAC Repair": (("hvac_repair", 1, 3, 0.85),),
    "HVAC Preventive Maintenance": (("hvac_filter", 1, 2, 0.9), ("hvac_repair", 1, 1, 0.15)),
    "HVAC Installation": (("hvac_install", 2, 4, 1.0),),
    "Plumbing Repair": (("plumbing_repair", 1, 3, 0.85),),
    "Water Heater Installation": (("water_heater", 2, 3, 1.0),),
    "Backflow Test": (("backflow", 1, 1, 0.3),),
    "Electrical Repair": (("electrical_repair", 1, 3, 0.85),),
    "Panel Upgrade": (("panel", 2, 3, 1.0), ("electrical_repair", 2, 4, 1.0)),
    "Fire Extinguisher Inspection": (("fire_ext", 1, 3, 0.9),),
    "Sprinkler System Inspection": (("sprinkler", 1, 2, 0.35),),
    "Refrigeration Repair": (("refrigeration", 1, 2, 0.9),),
    "Walk-in Cooler Maintenance": (("refrigeration", 1, 1, 0.3),),
    "Warranty Callback": (("hvac_repair", 1, 1, 0.3),),
}
EQUIPMENT_FOR = {
    "HVAC": ("Furnace", "Air conditioner", "Heat pump", "Rooftop unit", "Boiler"),
    "Plumbing": ("Water heater", "Backflow preventer"),
    "Electrical": ("Electrical panel",),
    "Fire Safety": ("Fire extinguisher", "Sprinkler system"),
    "Refrigeration": ("Walk-in cooler", "Ice machine"),
}
INSTALLS = {
    "HVAC Installation": ("Air conditioner", "Rooftop unit", "Heat pump"),
    "Water Heater Installation": ("Water heater",),
    "Panel Upgrade": ("Electrical panel",),
}
OVERTIME_FROM = time(17, 30)


def _clip(value: datetime) -> datetime:
    return min(value, AS_OF)


def _entries(demo: Demo, start: datetime, hours: float, after_hours: bool) -> list[tuple]:
    """(start, end, time type) chunks of one member's day on site, lunch and overtime split."""
    rng = demo.rng
    chunks = []
    if hours > 3.5 and not after_hours:
        first = quarter_hours(hours * rng.uniform(0.45, 0.6))
        chunks.append((start, start + timedelta(hours=first)))
        resume = chunks[-1][1] + timedelta(minutes=30)
        chunks.append((resume, resume + timedelta(hours=hours - first)))
    else:
        chunks.append((start, start + timedelta(hours=hours)))
    out = []
    for begin, end in chunks:
        limit = datetime.combine(begin.date(), OVERTIME_FROM)
        if after_hours:
            out.append((begin, end, "on_call"))
        elif begin < limit < end:
            out += [(begin, limit, "regular"), (limit, end, "overtime")]
        else:
            out.append((begin, end, "overtime" if begin >= limit else "regular"))
    return out


def record_field_work(demo: Demo, wo: dict) -> None:
    meta, rng = demo.meta, demo.rng
    status, crew = wo["status"], wo["crew"]
    dispatcher = meta["dispatcherUser"][wo["customer"]["branchId"]]
    history = [(None, "open", wo["created"], wo["creator"])]
    wo["updated"] = wo["created"]
    planned = wo["created"] + timedelta(hours=rng.randint(1, 30))
    start_day = wo["scheduled"]
    day_start = datetime.combine(start_day, time(0)) + timedelta(minutes=rng.randrange(450, 780, 5))
    planned = min(planned, day_start - timedelta(minutes=45))
    planned = max(planned, wo["created"] + timedelta(minutes=5))
    if day_start < wo["created"] + timedelta(minutes=60):
        # Same-day jobs start an hour or two after the call, whatever the clock says.
        day_start = wo["created"] + timedelta(minutes=rng.randrange(60, 150, 5))
        day_start = day_start.replace(minute=day_start.minute // 5 * 5, second=0)
    after_hours = wo["priority"] == "emergency" and demo.chance(0.4)
    if after_hours:
        day_start = max(
            wo["created"] + timedelta(minutes=rng.randint(60, 150)),
            datetime.combine(start_day, time(18, 0)),
        )
        day_start = day_start.replace(minute=day_start.minute // 5 * 5, second=0)
        planned = wo["created"] + timedelta(minutes=10)
    if crew:
        crew_id = demo.add(
            "crew",
            workOrderId=wo["id"],
            name=f"{crew[0]['last']} crew",
            createdBy=dispatcher,
            createdAt=planned,
        )
        for index, tech in enumerate(crew):
            demo.add(
                "employeeCrew",
                crewId=crew_id,
                employeeId=tech["id"],
                isLead=index == 0,
                createdAt=planned,
            )
        history.append(("open", "scheduled", planned, dispatcher))
    total = quarter_hours(wo["info"]["hours"] * rng.uniform(0.6, 1.5))
    days = 1 if after_hours else max(1, -(-total // 7.5))
    per_day = quarter_hours(total / days)
    work_days = [start_day]
    while len(work_days) < days:
        work_days.append(business_day(work_days[-1] + timedelta(days=1), meta["holidays"]))
    if status in ("in_progress", "completed", "on_hold") and day_start >= AS_OF:
        status = "scheduled"
    elif status == "completed" and (
        work_days[-1] > AS_OF_DATE or day_start + timedelta(hours=per_day) > AS_OF
    ):
        status = "in_progress"
    wo["status"] = status
    wo["start"] = day_start
    started = status in ("in_progress", "completed", "on_hold")
    shift = meta["shift"][
        "On-call night" if after_hours else "Day" if day_start.hour < 11 else "Late"
    ]
    for tech in crew:
        for number, day in enumerate(work_days):
            begin = day_start if number == 0 else datetime.combine(day, time(7, 30))
            slot = (
                "done"
                if started and begin < AS_OF
                else "cancelled"
                if status == "cancelled"
                else "confirmed"
                if begin.date() - AS_OF_DATE < timedelta(days=3)
                else "planned"
            )
            demo.add(
                "schedule",
                employeeId=tech["id"],
                workOrderId=wo["id"],
                shiftId=shift,
                scheduledStart=begin,
                scheduledEnd=begin + timedelta(hours=per_day),
                status=slot,
                createdBy=dispatcher,
            )
    if status == "cancelled":
        when = min(planned + timedelta(hours=rng.randint(2, 40)), day_start)
        history.append((history[-1][1], "cancelled", when, dispatcher))
    _tasks(demo, wo, started)
    if started:
        _work(demo, wo, work_days, day_start, per_day, after_hours, dispatcher, history)
    for old, new, when, user in history:
        demo.add(
            "workOrderStatusHistory",
            workOrderId=wo["id"],
            fromStatus=old,
            toStatus=new,
            changedBy=user,
            changedAt=when,
        )
    wo["updated"] = history[-1][2]


def _work(demo, wo, work_days, day_start, per_day, after_hours, dispatcher, history) -> None:
    meta, rng = demo.meta, demo.rng
    crew, status = wo["crew"], wo["status"]
    last_end = None
    for number, day in enumerate(work_days):
        base = (
            day_start
            if number == 0
            else datetime.combine(day, time(7, 30)) + timedelta(minutes=rng.randrange(0, 60, 5))
        )
        if base >= AS_OF:
            break
        for index, tech in enumerate(crew):
            start = base + timedelta(minutes=rng.choice((0, 0, 5, 10, 15)) if index else 0)
            if number == 0:
                sent = start - timedelta(minutes=rng.randrange(30, 95, 5))
                demo.add(
                    "dispatch",
                    workOrderId=wo["id"],
                    employeeId=tech["id"],
                    dispatchedBy=dispatcher,
                    dispatchedAt=sent,
                    acknowledgedAt=sent + timedelta(minutes=rng.randint(1, 15)),
                    arrivedAt=start,
                )
                if index == 0:
                    wo["arrived"] = start
            rows = []
            if demo.chance(0.75):
                drive = timedelta(minutes=rng.choice((15, 30, 30, 45, 60)))
                rows.append((start - drive, start, "travel"))
            rows += _entries(demo, start, per_day, after_hours)
            for begin, end, kind in rows:
                if begin >= AS_OF:
                    continue
                end = _clip(end)
                hours = round((end - begin).total_seconds() / 3600, 2)
                if hours <= 0:
                    continue
                demo.add(
                    "workTime",
                    employeeId=tech["id"],
                    workOrderId=wo["id"],
                    workTimeTypeId=meta["timeType"][kind],
                    startTime=begin,
                    endTime=end,
                    hours=hours,
                    isBillable=kind != "travel",
                    isApproved=end.date() < AS_OF_DATE - timedelta(days=7),
                    notes=demo.pick(
                        (
                            "Waited for site access",
                            "Picked up parts",
                            "Customer requested extra check",
                        )
                    )
                    if demo.chance(0.07)
                    else None,
                    createdAt=_clip(end + timedelta(minutes=rng.randint(0, 90))),
                )
                wo["time"].append((tech, begin, end, hours, kind))
                last_end = max(last_end or end, end)
            if index == 0:
                demo.add(
                    "mileageLog",
                    employeeId=tech["id"],
                    workOrderId=wo["id"],
                    vehicleId=meta["vehicleOf"].get(tech["id"]),
                    travelDate=day,
                    miles=round(rng.uniform(4, 45), 1),
                )
    lead = crew[0]
    first_start = min(t[1] for t in wo["time"] if t[4] != "travel")
    history.append(("scheduled", "in_progress", first_start, lead["userId"]))
    wo["finished"] = last_end
    if status == "completed":
        history.append(("in_progress", "completed", last_end, lead["userId"]))
    elif status == "on_hold":
        history.append(
            ("in_progress", "on_hold", _clip(last_end + timedelta(minutes=20)), dispatcher)
        )
    _parts(demo, wo, last_end)
    _equipment(demo, wo, last_end)


def _tasks(demo: Demo, wo: dict, started: bool) -> None:
    if wo["status"] == "cancelled":
        return
    tasks = wo["info"]["tasks"]
    done = len(tasks) if wo["status"] == "completed" else (len(tasks) // 2 if started else 0)
    wo["taskRows"] = []
    for sequence, (template, text) in enumerate(tasks, start=1):
        finished = sequence <= done
        wo["taskRows"].append(
            demo.add(
                "workOrderTask",
                workOrderId=wo["id"],
                taskTemplateId=template,
                description=text,
                sequence=sequence,
                isCompleted=finished,
                completedBy=demo.pick(wo["crew"])["id"] if finished else None,
                completedAt=None,
            )
        )


def _parts(demo: Demo, wo: dict, used_at: datetime) -> None:
    meta, rng = demo.meta, demo.rng
    lead = wo["crew"][0]
    vehicle = meta["vehicleOf"].get(lead["id"])
    van = meta["vanWarehouse"].get(vehicle)
    for task_row in wo.get("taskRows", ()):
        row = demo.row("workOrderTask", task_row)
        if row["isCompleted"]:
            row["completedAt"] = used_at - timedelta(minutes=rng.randrange(5, 90, 5))
    for use, low, high, p in PART_USES[wo["typeName"]]:
        if not demo.chance(p):
            continue
        for part in rng.sample(meta["partsByUse"][use], rng.randint(low, high)):
            info = meta["part"][part]
            quantity = float(rng.randint(1, 4) if info["cost"] < 40 else 1)
            if "(ft)" in info["name"]:
                quantity = float(rng.randrange(10, 80, 5))
            warehouse = (
                van if van and info["cost"] < 300 else meta["mainWarehouse"][lead["branchId"]]
            )
            demo.add(
                "workOrderPart",
                workOrderId=wo["id"],
                partId=part,
                warehouseId=warehouse,
                employeeId=lead["id"],
                quantity=quantity,
                unitCost=info["cost"],
                unitPrice=info["price"],
                usedAt=used_at,
            )
            wo["parts"].append((part, quantity, info["cost"], info["price"], warehouse))


def _equipment(demo: Demo, wo: dict, when: datetime) -> None:
    meta, rng = demo.meta, demo.rng
    location = meta["locations"][wo["location"]]
    wanted = EQUIPMENT_FOR[wo["info"]["category"]]
    matches = [e for e in location["equipment"] if meta["equipment"][e]["category"] in wanted]
    wo["equipment"] = rng.sample(matches, min(len(matches), rng.randint(1, 2)))
    for equipment in wo["equipment"]:
        demo.add(
            "workOrderEquipment",
            workOrderId=wo["id"],
            equipmentId=equipment,
            workPerformed=wo["typeName"],
        )
        if wo["status"] == "completed":
            demo.row("equipment", equipment)["lastServiceDate"] = when.date()
    category_options = INSTALLS.get(wo["typeName"])
    if wo["status"] != "completed" or not category_options:
        return
    category = (
        category_options[0]
        if location["type"] == "House" and wo["typeName"] == "HVAC Installation"
        else demo.pick(category_options)
    )
    if location["type"] != "House" and wo["typeName"] == "HVAC Installation":
        category = "Rooftop unit"
    for old in [e for e in location["equipment"] if meta["equipment"][e]["category"] == category][
        :1
    ]:
        demo.row("equipment", old)["status"] = "retired"
        location["equipment"].remove(old)
    model = demo.pick(meta["equipmentModels"][category])
    installed = when.date()
    new = demo.add(
        "equipment",
        customerLocationId=wo["location"],
        equipmentModelId=model,
        serialNumber=f"{category[:2].upper()}{rng.randint(10**7, 10**8 - 1)}",
        assetTag=None,
        installDate=installed,
        status="active",
        lastServiceDate=installed,
    )
    demo.row("equipment", new)["assetTag"] = f"A-{new:05d}"
    meta["equipment"][new] = {"location": wo["location"], "category": category, "status": "active"}
    location["equipment"].append(new)
    demo.add(
        "workOrderEquipment",
        workOrderId=wo["id"],
        equipmentId=new,
        workPerformed="Installed new unit",
    )
    maker = demo.row("manufacturer", demo.row("equipmentModel", model)["manufacturerId"])
    demo.add(
        "warranty",
        equipmentId=new,
        provider=maker["name"],
        startDate=installed,
        endDate=add_years(installed, 10) - timedelta(days=1),
        coverage="parts",
    )
    demo.add(
        "warranty",
        equipmentId=new,
        provider="Lone Star Field Services",
        startDate=installed,
        endDate=add_years(installed, 1) - timedelta(days=1),
        coverage="labor",
    )
