"""Demo data, step 2b: technician details and HR records.

Skills, certificates (renewed on schedule, a few allowed to lapse), service areas,
availability, trainings, yearly reviews, time off, pay rate history and login history.
"""

from __future__ import annotations

from datetime import date, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF,
    AS_OF_DATE,
    START,
    Demo,
    employed,
    money,
)

TRADE_CERTS = {
    "hvac": ("EPA 608 Universal", "NATE Core"),
    "plumbing": ("Journeyman Plumber License", "Backflow Prevention Tester"),
    "electrical": ("Journeyman Electrician License", "NFPA 70E Electrical Safety"),
    "fire_safety": ("Fire Extinguisher Technician", "Backflow Prevention Tester"),
    "refrigeration": ("EPA 608 Universal", "NATE Core"),
}


def add_technician_details(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    for tech in meta["techs"]:
        active = tech["term"] is None
        tech["weekends"] = demo.chance(0.4)
        demo.add(
            "technician",
            employeeId=tech["id"],
            technicianLevelId=meta["level"][tech["level"]],
            homeBranchId=tech["branchId"],
            licenseNumber=(
                f"TX-{tech['trade'][:2].upper()}-{rng.randint(10000, 99999)}"
                if tech["trade"] in ("plumbing", "electrical", "fire_safety")
                else None
            ),
            maxDailyHours=10.0,
            canWorkWeekends=tech["weekends"],
            isOnCall=active and demo.chance(0.35),
            fieldStartDate=tech["hire"],
        )
        skills = [
            (sid, name)
            for name, (sid, cat) in meta["skill"].items()
            if cat == tech["trade"] or (cat == "hvac" and tech["trade"] == "refrigeration")
        ]
        chosen = rng.sample(skills, min(len(skills), rng.randint(2, 4)))
        if demo.chance(0.5):
            chosen.append(meta["skill"]["Customer communication"][0])
        base = {
            "Apprentice": 1,
            "Technician I": 2,
            "Technician II": 3,
            "Senior Technician": 4,
            "Master Technician": 5,
        }[tech["level"]]
        for skill in chosen:
            skill_id = skill[0] if isinstance(skill, tuple) else skill
            demo.add(
                "employeeSkill",
                employeeId=tech["id"],
                skillId=skill_id,
                proficiency=max(1, min(5, base + rng.choice((-1, 0, 0, 1)))),
                acquiredDate=tech["hire"] + timedelta(days=rng.randint(30, 700)),
            )
        for cert in ("OSHA 10 Construction", "First Aid / CPR", *TRADE_CERTS[tech["trade"]]):
            _cert_chain(demo, tech, cert)
        for area in rng.sample(meta["serviceAreas"][tech["branchId"]], rng.randint(1, 3)):
            demo.add("employeeServiceArea", employeeId=tech["id"], serviceAreaId=area)
        start = time(7, 0) if demo.chance(0.6) else time(8, 0)
        end = time(16, 0) if start == time(7, 0) else time(17, 0)
        for weekday in range(1, 6):
            demo.add(
                "employeeAvailability",
                employeeId=tech["id"],
                dayOfWeek=weekday,
                startTime=start,
                endTime=end,
            )
        if tech["weekends"]:
            demo.add(
                "employeeAvailability",
                employeeId=tech["id"],
                dayOfWeek=6,
                startTime=time(8, 0),
                endTime=time(14, 0),
            )


def _cert_chain(demo: Demo, tech: dict, cert: str) -> None:
    type_id = demo.meta["certType"][cert]
    months = demo.row("certificationType", type_id)["validityMonths"]
    issued = max(tech["hire"], date(2018, 1, 1)) + timedelta(days=demo.rng.randint(10, 200))
    lapses = demo.chance(0.12)  # some technicians let a certificate lapse
    while True:
        expiry = None if months is None else issued + timedelta(days=round(months * 30.44))
        if expiry is None or expiry >= date(2023, 6, 1):
            demo.add(
                "employeeCertification",
                employeeId=tech["id"],
                certificationTypeId=type_id,
                certificateNumber=f"{cert[:3].upper()}-{demo.rng.randint(100000, 999999)}",
                issuedDate=issued,
                expiryDate=expiry,
                status="expired" if expiry and expiry < AS_OF_DATE else "valid",
            )
        if expiry is None or expiry >= AS_OF_DATE or lapses and expiry >= date(2024, 3, 1):
            return
        if tech["term"] and expiry > tech["term"]:
            return
        issued = expiry - timedelta(days=demo.rng.randint(0, 20))


def _workdays(first: date, last: date) -> float:
    days = sum(
        1 for i in range((last - first).days + 1) if (first + timedelta(days=i)).weekday() < 5
    )
    return float(max(days, 1))


def add_hr_records(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    for emp in meta["employees"]:
        first_day = max(emp["hire"], START)
        last_day = min(emp["term"] or AS_OF_DATE, AS_OF_DATE)
        for training in rng.sample(meta["training"], rng.randint(1, 4)):
            score = rng.randint(58, 100)
            demo.add(
                "employeeTraining",
                employeeId=emp["id"],
                trainingId=training,
                completedDate=demo.day_between(first_day, last_day),
                score=score,
                passed=score >= 70,
            )
        for year, first, last, share in (
            (2024, date(2024, 12, 2), date(2024, 12, 20), 1.0),
            (2025, date(2025, 12, 1), date(2025, 12, 12), 0.7),
        ):
            day = demo.day_between(first, last)
            if (
                emp["managerId"]
                and emp["hire"] < date(year, 10, 1)
                and employed(emp, day)
                and demo.chance(share)
            ):
                demo.add(
                    "performanceReview",
                    employeeId=emp["id"],
                    reviewerId=emp["managerId"],
                    reviewDate=day,
                    rating=demo.weighted({2: 1, 3: 5, 4: 6, 5: 2}),
                    comments=demo.pick(
                        (
                            "Reliable and thorough.",
                            "Great feedback from customers.",
                            "Needs to improve paperwork timeliness.",
                            "Ready for more complex jobs.",
                            "Strong technical skills; mentor for juniors.",
                        )
                    ),
                )
        for year in (2024, 2025, 2026):
            for _ in range(rng.randint(2, 5) if year < 2026 else rng.randint(0, 1)):
                start = demo.day_between(date(year, 1, 5), date(year, 12, 18))
                if not (employed(emp, start) and start.weekday() < 5):
                    continue
                length = demo.weighted({0: 3, 1: 2, 4: 2, 9: 1})
                end = start + timedelta(days=length)
                kind = demo.weighted({"Vacation": 5, "Sick": 3, "Personal": 1, "Unpaid": 0.3})
                if start > AS_OF_DATE:
                    status = demo.weighted({"pending": 2, "approved": 3})
                else:
                    status = demo.weighted({"approved": 17, "rejected": 2, "cancelled": 1})
                demo.add(
                    "timeOffRequest",
                    employeeId=emp["id"],
                    timeOffTypeId=meta["timeOffType"][kind],
                    startDate=start,
                    endDate=end,
                    days=_workdays(start, end),
                    status=status,
                    approvedBy=None if status == "pending" else emp["managerUserId"],
                    createdAt=demo.moment(start - timedelta(days=rng.randint(3, 60))),
                )
        rate_now = emp["rate"]
        if emp["hire"] < date(2025, 1, 1):
            ends = (
                date(2024, 12, 31)
                if not emp["term"] or emp["term"] > date(2024, 12, 31)
                else emp["term"]
            )
            demo.add(
                "payRate",
                employeeId=emp["id"],
                hourlyRate=money(rate_now / 1.035),
                effectiveFrom=emp["hire"],
                effectiveTo=ends,
            )
        if not emp["term"] or emp["term"] >= date(2025, 1, 1):
            demo.add(
                "payRate",
                employeeId=emp["id"],
                hourlyRate=rate_now,
                effectiveFrom=max(emp["hire"], date(2025, 1, 1)),
                effectiveTo=emp["term"],
            )


def add_logins(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    for emp in meta["employees"]:
        first_day = max(emp["hire"], START)
        last_day = min(emp["term"] or AS_OF_DATE, AS_OF_DATE)
        count = 40 if emp["kind"] == "technician" else 70
        tech = emp["kind"] == "technician"
        last_ok = None
        for _ in range(count):
            when = demo.moment(demo.day_between(first_day, last_day), 6, 19)
            if when > AS_OF:
                continue
            ok = demo.chance(0.95)
            demo.add(
                "loginHistory",
                userId=emp["userId"],
                loginAt=when,
                ipAddress=f"10.{rng.randint(0, 3)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
                success=ok,
                userAgent="FrontdeskMobile/3.4 (Android 14)"
                if tech
                else "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0",
            )
            if ok and (last_ok is None or when > last_ok):
                last_ok = when
        demo.row("user", emp["userId"])["lastLoginAt"] = last_ok
