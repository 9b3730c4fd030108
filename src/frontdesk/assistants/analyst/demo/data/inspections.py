"""Demo data, step 6: inspection templates and the inspections done on work orders.

Every started work order of a type that requires inspection gets one inspection, filled in by
the crew lead, with an answer for each question of the template in use at the time (the HVAC
checklist got a second version on 2025-01-01). Some sites fail far more often than others.
Failed answers raise deficiencies, fixed on the spot, by a later work order at the site, or
still open. Note the model: questions belong to templates (`inspectionTemplateId`), not to
inspections; answers link an inspection to a question.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import AS_OF_DATE, Demo, money

YN = "yes_no"
PF = "pass_fail"
NUM = "number"
CH = "choice"
TXT = "text"
# template name -> (work order type, {section: [(question, type, spec)]})
# spec: yes_no/pass_fail -> failing answer; number -> (min, max, mean); choice -> options
TEMPLATES = {
    "HVAC Preventive Maintenance Checklist": (
        "HVAC Preventive Maintenance",
        {
            "Airflow": [
                ("Air filter replaced?", YN, "no"),
                (
                    "Filter condition on arrival",
                    CH,
                    (("Clean", False), ("Dirty", False), ("Clogged", True), ("Missing", True)),
                ),
                ("Evaporator coil clean?", YN, "no"),
                ("Condensate drain clear?", YN, "no"),
                ("Supply/return temperature split (F)", NUM, (14, 22, 18)),
            ],
            "Refrigeration circuit": [
                ("Suction pressure (psi)", NUM, (110, 145, 128)),
                ("Refrigerant leak detected?", YN, "yes"),
                (
                    "Condenser coil condition",
                    CH,
                    (("Good", False), ("Fair", False), ("Poor", True)),
                ),
            ],
            "Electrical and safety": [
                ("Capacitor within rated tolerance", PF, "fail"),
                ("Contactor condition", PF, "fail"),
                ("Thermostat operation", PF, "fail"),
                ("Carbon monoxide detected?", YN, "yes"),
                ("Technician notes", TXT, None),
            ],
        },
    ),
    "Backflow Preventer Test Report": (
        "Backflow Test",
        {
            "Device": [
                ("Device type", CH, (("RPZ", False), ("DCVA", False), ("PVB", False))),
                ("Shut-off valves operational?", YN, "no"),
            ],
            "Test results": [
                ("Check valve 1 closed tight", PF, "fail"),
                ("Check valve 1 differential (psi)", NUM, (5, 12, 7.5)),
                ("Relief valve opening point (psi)", NUM, (2, 6, 3.2)),
                ("Check valve 2 closed tight", PF, "fail"),
                ("Repairs required?", YN, "yes"),
            ],
        },
    ),
    "Fire Extinguisher Annual Inspection": (
        "Fire Extinguisher Inspection",
        {
            "Placement": [
                ("Extinguishers accessible and visible?", YN, "no"),
                ("Mounting height compliant?", YN, "no"),
                ("Number of units inspected", NUM, (1, 200, 12)),
            ],
            "Condition": [
                ("Pressure gauges in the green zone?", YN, "no"),
                ("Tamper seals intact?", YN, "no"),
                ("Hydrostatic test dates current?", YN, "no"),
                ("Units needing recharge", NUM, (0, 0, 0)),
            ],
        },
    ),
    "Sprinkler System Inspection (NFPA 25)": (
        "Sprinkler System Inspection",
        {
            "Valves and gauges": [
                ("Control valves open and sealed?", YN, "no"),
                ("System gauge pressure (psi)", NUM, (40, 175, 80)),
                ("Main drain test", PF, "fail"),
                ("Alarm device test", PF, "fail"),
            ],
            "Heads and piping": [
                ("Heads free of paint and corrosion?", YN, "no"),
                ("Obstructions within 18 in of heads?", YN, "yes"),
                ("Spare head cabinet stocked?", YN, "no"),
                ("Technician notes", TXT, None),
            ],
        },
    ),
    "Walk-in Cooler PM Checklist": (
        "Walk-in Cooler Maintenance",
        {
            "Box": [
                ("Box temperature (F)", NUM, (33, 41, 37)),
                ("Door gasket sealing?", YN, "no"),
                ("Door closer working?", YN, "no"),
            ],
            "Refrigeration system": [
                ("Evaporator coil free of ice?", YN, "no"),
                ("Condenser coil clean?", YN, "no"),
                ("Defrost cycle operating", PF, "fail"),
                (
                    "Overall condition",
                    CH,
                    (("Good", False), ("Fair", False), ("Needs repair", True)),
                ),
            ],
        },
    ),
}
V2_EXTRA = [
    ("Blower motor amperage (A)", NUM, (2, 8, 4.5)),
    ("Flue and vent inspection", PF, "fail"),
]
SEVERITY = {
    "Carbon monoxide detected?": "critical",
    "Refrigerant leak detected?": "high",
    "Check valve 1 closed tight": "high",
    "Check valve 2 closed tight": "high",
    "Main drain test": "high",
    "Box temperature (F)": "high",
}
TEXT_ANSWERS = (
    "Unit in good condition.",
    "Recommend replacement within 2 years.",
    "Customer informed of findings.",
    "No issues found.",
)


def _add_template(
    demo: Demo, name: str, type_id: int, sections: dict, version: int, active: bool, created: date
) -> dict:
    template = demo.add(
        "inspectionTemplate",
        workOrderTypeId=type_id,
        name=name,
        version=version,
        isActive=active,
        createdAt=datetime.combine(created, time(9, 0)),
    )
    questions = []
    sequence = 0
    for section_no, (section, items) in enumerate(sections.items(), start=1):
        section_id = demo.add(
            "inspectionSection", inspectionTemplateId=template, name=section, sequence=section_no
        )
        for text, kind, spec in items:
            sequence += 1
            number = kind == NUM
            question = demo.add(
                "inspectionQuestion",
                inspectionTemplateId=template,
                inspectionSectionId=section_id,
                questionText=text,
                answerType=kind,
                sequence=sequence,
                isRequired=kind != TXT,
                failingAnswer=spec if kind in (YN, PF) else None,
                minValue=float(spec[0]) if number else None,
                maxValue=float(spec[1]) if number else None,
            )
            if kind == CH:
                for option_no, (option, failing) in enumerate(spec, start=1):
                    demo.add(
                        "inspectionQuestionOption",
                        inspectionQuestionId=question,
                        optionText=option,
                        isFailing=failing,
                        sequence=option_no,
                    )
            questions.append((question, text, kind, spec))
    return {"id": template, "questions": questions}


def add_inspections(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    templates: dict[int, list[tuple[date, dict]]] = {}
    for name, (type_name, sections) in TEMPLATES.items():
        type_id = meta["woType"][type_name]
        if type_name == "HVAC Preventive Maintenance":
            old = _add_template(demo, name, type_id, sections, 1, False, date(2022, 3, 1))
            newer = {
                **sections,
                "Electrical and safety": sections["Electrical and safety"][:-1]
                + V2_EXTRA
                + sections["Electrical and safety"][-1:],
            }
            new = _add_template(demo, name, type_id, newer, 2, True, date(2024, 12, 16))
            templates[type_id] = [(date(2025, 1, 1), new), (date(2000, 1, 1), old)]
        else:
            templates[type_id] = [
                (
                    date(2000, 1, 1),
                    _add_template(demo, name, type_id, sections, 1, True, date(2022, 3, 1)),
                )
            ]
    site_risk = {loc: (3.5 if rng.random() < 0.15 else 1.0) for loc in meta["locations"]}
    by_location: dict[int, list[dict]] = {}
    for wo in meta["workOrders"]:
        by_location.setdefault(wo["location"], []).append(wo)
    for wo in meta["workOrders"]:
        if wo["request"]["type"] not in templates or not wo["time"]:
            continue
        work = [t for t in wo["time"] if t[4] != "travel"]
        started = min(t[1] for t in work)
        finished = max(t[2] for t in work)
        day = started.date()
        template = next(t for since, t in templates[wo["request"]["type"]] if day >= since)
        done = wo["status"] == "completed"
        equipment = wo.get("equipment") or [None]
        inspection = demo.add(
            "inspection",
            workOrderId=wo["id"],
            inspectionTemplateId=template["id"],
            employeeId=wo["crew"][0]["id"],
            customerLocationId=wo["location"],
            equipmentId=equipment[0],
            inspectionDate=day,
            startedAt=started,
            completedAt=finished if done else None,
            status="completed" if done else "in_progress",
            result=None,
            score=None,
        )
        questions = (
            template["questions"]
            if done
            else template["questions"][: len(template["questions"]) // 2]
        )
        failed_required, scored, passed = False, 0, 0
        step = (finished - started) / (len(questions) + 1)
        for index, (question, text, kind, spec) in enumerate(questions, start=1):
            p = (0.004 if SEVERITY.get(text) == "critical" else 0.022) * site_risk[wo["location"]]
            fails = kind != TXT and rng.random() < p
            answer = _answer(demo, kind, spec, fails)
            when = started + step * index
            answer_id = demo.add(
                "inspectionAnswer",
                inspectionId=inspection,
                inspectionQuestionId=question,
                answer=answer,
                isFailed=fails,
                comment=demo.pick(
                    ("Replaced on site", "Customer notified", "Needs follow-up visit", None)
                )
                if fails
                else None,
                answeredAt=when,
            )
            if fails and demo.chance(0.7) or demo.chance(0.04):
                demo.add(
                    "inspectionPhoto",
                    inspectionAnswerId=answer_id,
                    fileName=f"IMG_{rng.randint(1000, 9999)}.jpg",
                    takenAt=when,
                )
            if kind != TXT:
                scored += 1
                passed += not fails
            if fails:
                failed_required = True
                _deficiency(demo, wo, inspection, answer_id, text, when, by_location)
        if done:
            demo.row("inspection", inspection).update(
                result="fail" if failed_required else "pass",
                score=round(100.0 * passed / scored, 2) if scored else None,
            )
        if equipment[0]:
            kind, value = {
                "HVAC Preventive Maintenance": ("runtime_hours", rng.uniform(800, 24000)),
                "Walk-in Cooler Maintenance": ("temperature_f", rng.uniform(33, 42)),
                "Sprinkler System Inspection": ("pressure_psi", rng.uniform(45, 160)),
            }.get(wo["typeName"], ("pressure_psi", rng.uniform(20, 90)))
            demo.add(
                "meterReading",
                equipmentId=equipment[0],
                readingDate=started,
                readingType=kind,
                value=round(value, 2),
                recordedBy=wo["crew"][0]["id"],
            )


def _answer(demo: Demo, kind: str, spec, fails: bool) -> str:
    rng = demo.rng
    if kind in (YN, PF):
        good = {"no": "yes", "yes": "no", "fail": "pass"}[spec]
        return spec if fails else good
    if kind == NUM:
        low, high, mean = spec
        if high == low == 0:  # a count that must be zero
            return str(rng.randint(1, 3)) if fails else "0"
        if fails:
            value = (
                high + rng.uniform(0.5, 0.3 * (high - low) + 1)
                if rng.random() < 0.5
                else max(0.0, low - rng.uniform(0.5, 0.3 * (high - low) + 1))
            )
        else:
            value = min(high, max(low, rng.gauss(mean, (high - low) / 6)))
        return str(round(value)) if high >= 100 and not fails else f"{value:.1f}"
    if kind == CH:
        options = [text for text, failing in spec if failing == fails] or [spec[0][0]]
        return demo.pick(options)
    return demo.pick(TEXT_ANSWERS)


def _deficiency(demo, wo, inspection, answer_id, text, when, by_location) -> None:
    rng = demo.rng
    severity = SEVERITY.get(text) or demo.weighted({"low": 4, "medium": 5, "high": 1})
    resolver, resolved_at, status = None, None, "open"
    if demo.chance(0.45) and wo["status"] == "completed":
        resolver, resolved_at, status = wo["id"], wo["finished"], "resolved"
    else:
        for later in by_location.get(wo["location"], ()):
            if later["id"] <= wo["id"] or later["info"]["category"] != wo["info"]["category"]:
                continue
            gap = (later["scheduled"] - when.date()).days
            if 0 < gap <= 120:
                if later["status"] == "completed":
                    resolver, resolved_at, status = later["id"], later["finished"], "resolved"
                elif later["status"] in ("scheduled", "open", "in_progress"):
                    resolver, status = None, "scheduled"
                break
        if status == "open" and when.date() < AS_OF_DATE - timedelta(days=90) and demo.chance(0.5):
            status = "deferred"
    deficiency = demo.add(
        "deficiency",
        inspectionId=inspection,
        inspectionAnswerId=answer_id,
        severity=severity,
        description=f"Failed: {text.rstrip('?')}",
        status=status,
        resolvedWorkOrderId=resolver,
        identifiedAt=when,
        resolvedAt=resolved_at,
    )
    if resolver != wo["id"] and (severity in ("high", "critical") or demo.chance(0.3)):
        demo.add(
            "correctiveAction",
            deficiencyId=deficiency,
            employeeId=wo["crew"][0]["id"],
            action=demo.pick(
                (
                    "Quote repair to customer",
                    "Order replacement part",
                    "Schedule follow-up visit",
                    "Replace component",
                )
            ),
            dueDate=when.date() + timedelta(days=rng.choice((7, 14, 30))),
            completedDate=resolved_at.date() if resolved_at else None,
            cost=money(rng.uniform(80, 1800)),
        )
