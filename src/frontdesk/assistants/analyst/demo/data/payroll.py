"""Demo data, step 8: weekly timesheets, bi-weekly payroll and employee expenses.

Timesheets total the work time technicians logged per week, so they agree with `workTime`.
Payroll pays everyone 80 regular hours a period (prorated around hire and termination dates)
plus the overtime and on-call hours technicians logged, at the pay rate in effect.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import AS_OF_DATE, START, Demo, employed, money


def _rate(demo: Demo, employee: int, day: date) -> float:
    rates = [r for r in demo.rows["payRate"] if r["employeeId"] == employee]
    for rate in rates:
        if rate["effectiveFrom"] <= day and (
            rate["effectiveTo"] is None or day <= rate["effectiveTo"]
        ):
            return rate["hourlyRate"]
    return rates[-1]["hourlyRate"]


def add_payroll(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    logged: dict[tuple[int, date], list[float]] = {}
    extra: dict[tuple[int, date], float] = {}
    for row in demo.rows["workTime"]:
        day = row["startTime"].date()
        week = day - timedelta(days=day.weekday())
        logged.setdefault((row["employeeId"], week), []).append(row["hours"])
        kind = demo.row("workTimeType", row["workTimeTypeId"])["name"]
        if kind in ("overtime", "on_call"):
            extra[(row["employeeId"], week)] = (
                extra.get((row["employeeId"], week), 0) + row["hours"]
            )
    current_week = AS_OF_DATE - timedelta(days=AS_OF_DATE.weekday())
    for (employee, week), hours in sorted(logged.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        emp = next(e for e in meta["techs"] if e["id"] == employee)
        total = round(sum(hours), 2)
        if week >= current_week:
            status, submitted, approver, approved = "draft", None, None, None
        else:
            submitted = datetime.combine(week + timedelta(days=4), time(16, 0)) + timedelta(
                minutes=rng.randint(0, 300)
            )
            status = (
                "submitted"
                if week >= current_week - timedelta(days=7)
                else ("rejected" if demo.chance(0.02) else "approved")
            )
            approver = emp["managerUserId"] if status != "submitted" else None
            approved = submitted + timedelta(days=3) if approver else None
        demo.add(
            "timesheet",
            employeeId=employee,
            weekStart=week,
            totalHours=total,
            overtimeHours=round(max(0.0, total - 40.0), 2),
            status=status,
            submittedAt=submitted,
            approvedBy=approver,
            approvedAt=approved,
        )
    start = START
    while start <= AS_OF_DATE:
        end = start + timedelta(days=13)
        pay_day = end + timedelta(days=5)
        status = "paid" if pay_day <= AS_OF_DATE else ("processed" if end < AS_OF_DATE else "open")
        period = demo.add(
            "payrollPeriod", startDate=start, endDate=end, payDate=pay_day, status=status
        )
        if status != "open":
            for emp in meta["employees"]:
                days = [start + timedelta(days=i) for i in range(14)]
                worked = [d for d in days if d.weekday() < 5 and employed(emp, d)]
                if not worked:
                    continue
                regular = 8.0 * len(worked)
                overtime = 0.0
                if emp["kind"] == "technician":
                    overtime = round(
                        sum(
                            extra.get((emp["id"], w), 0.0)
                            for w in (start, start + timedelta(days=7))
                        ),
                        2,
                    )
                rate = _rate(demo, emp["id"], start)
                demo.add(
                    "payrollEntry",
                    payrollPeriodId=period,
                    employeeId=emp["id"],
                    regularHours=regular,
                    overtimeHours=overtime,
                    grossPay=money(regular * rate + overtime * rate * 1.5),
                )
        start += timedelta(days=14)
    _expenses(demo)


def _expenses(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    by_tech_month: dict[tuple[int, int, int], list[int]] = {}
    for wo in meta["workOrders"]:
        for tech, begin, _end, _hours, _kind in wo["time"]:
            by_tech_month.setdefault((tech["id"], begin.year, begin.month), []).append(wo["id"])
    categories = meta["expenseCategory"]
    for (tech_id, year, month), work_orders in sorted(by_tech_month.items()):
        tech = next(t for t in meta["techs"] if t["id"] == tech_id)
        for _ in range(demo.weighted({0: 3, 1: 4, 2: 2})):
            category = demo.weighted(
                {
                    "Meals": 4,
                    "Parking & tolls": 3,
                    "Supplies": 3,
                    "Mileage reimbursement": 1,
                    "Lodging": 0.3,
                    "Personal": 0.1,
                }
            )
            low, high = {
                "Meals": (8, 45),
                "Parking & tolls": (3, 30),
                "Supplies": (10, 180),
                "Mileage reimbursement": (15, 120),
                "Lodging": (95, 260),
                "Personal": (10, 60),
            }[category]
            day = date(year, month, rng.randint(1, 28))
            if day > AS_OF_DATE or not employed(tech, day):
                continue
            age = (AS_OF_DATE - day).days
            status = (
                "submitted"
                if age < 10
                else (
                    "rejected"
                    if category == "Personal" or demo.chance(0.04)
                    else "approved"
                    if age < 30
                    else "reimbursed"
                )
            )
            demo.add(
                "expense",
                employeeId=tech_id,
                workOrderId=demo.pick(work_orders) if demo.chance(0.7) else None,
                expenseCategoryId=categories[category],
                expenseDate=day,
                amount=money(rng.uniform(low, high)),
                description=f"{category} on the road",
                status=status,
                approvedBy=None if status == "submitted" else tech["managerUserId"],
            )
