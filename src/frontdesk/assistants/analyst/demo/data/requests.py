"""Demo data, step 5a: the service requests that become work orders.

On-demand calls (seasonal: summer cooling and winter heating peaks, few on weekends; types
fit the site's equipment), preventive visits under service contracts (also creating the
`maintenancePlan` rows), and follow-up visits pointing at an earlier request. Sorted by the
time they came in, so work order ids follow creation time.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF_DATE,
    END,
    START,
    Demo,
)

ON_DEMAND = 1750


RESIDENTIAL_TYPES = {
    "HVAC Repair": 34,
    "HVAC Preventive Maintenance": 14,
    "HVAC Installation": 5,
    "Plumbing Repair": 20,
    "Water Heater Installation": 7,
    "Electrical Repair": 12,
    "Panel Upgrade": 3,
    "Warranty Callback": 2,
}


BUSINESS_TYPES = {
    "HVAC Repair": 26,
    "HVAC Preventive Maintenance": 6,
    "HVAC Installation": 3,
    "Plumbing Repair": 14,
    "Water Heater Installation": 3,
    "Backflow Test": 8,
    "Electrical Repair": 12,
    "Panel Upgrade": 1,
    "Fire Extinguisher Inspection": 7,
    "Sprinkler System Inspection": 4,
    "Refrigeration Repair": 9,
    "Walk-in Cooler Maintenance": 4,
    "Warranty Callback": 2,
}


NEEDS = {
    "Backflow Test": "Backflow preventer",
    "Fire Extinguisher Inspection": ("Fire extinguisher"),
    "Sprinkler System Inspection": "Sprinkler system",
    "Refrigeration Repair": "Walk-in cooler",
    "Walk-in Cooler Maintenance": "Walk-in cooler",
}


PRIORITIES = {
    "repair": {"emergency": 10, "high": 25, "normal": 50, "low": 15},
    "routine": {"normal": 70, "low": 30},
    "install": {"normal": 60, "low": 20, "high": 20},
}


def _day_weights() -> tuple[list[date], list[float]]:
    days, cumulative, total = [], [], 0.0
    day = START
    while day <= END:
        weight = {6: 1.6, 7: 1.7, 8: 1.6, 12: 1.2, 1: 1.25, 5: 1.2, 9: 1.1}.get(day.month, 1.0)
        weight *= 0.3 if day.weekday() >= 5 else 1.0
        total += weight
        days.append(day)
        cumulative.append(total)
        day += timedelta(days=1)
    return days, cumulative


def _type_kind(name: str) -> str:
    if "Installation" in name or name == "Panel Upgrade":
        return "install"
    return "repair" if "Repair" in name or name == "Warranty Callback" else "routine"


def work_requests(demo: Demo) -> list[dict]:
    meta, rng = demo.meta, demo.rng
    days, cumulative = _day_weights()
    customers = meta["customers"]
    weights = [c["weight"] for c in customers]
    requests = []
    for _ in range(ON_DEMAND):
        info = rng.choices(customers, weights=weights)[0]
        first, last = max(START, info["since"]), min(END, info["until"] or END)
        for _attempt in range(20):
            day = rng.choices(days, cum_weights=cumulative)[0]
            if first <= day <= last:
                break
        else:
            day = demo.day_between(first, last)
        location = rng.choices(
            info["locations"], weights=[3 if i == 0 else 1 for i in range(len(info["locations"]))]
        )[0]
        loc = meta["locations"][location]
        have = {meta["equipment"][e]["category"] for e in loc["equipment"]}
        table = RESIDENTIAL_TYPES if info["kind"] == "residential" else BUSINESS_TYPES
        options = {t: w for t, w in table.items() if t not in NEEDS or NEEDS[t] in have}
        type_name = demo.weighted(options)
        source = demo.weighted(
            {"phone": 5, "portal": 3, "email": 2}
            if info["kind"] == "residential"
            else {"phone": 4, "email": 4, "portal": 2}
        )
        requests.append(
            {
                "day": day,
                "customer": info,
                "location": location,
                "type": meta["woType"][type_name],
                "typeName": type_name,
                "priority": demo.weighted(PRIORITIES[_type_kind(type_name)]),
                "contract": _contract_for(meta, info, location, day),
                "source": source,
                "parent": None,
            }
        )
    for parent in [
        r
        for r in requests
        if _type_kind(r["typeName"]) == "repair"
        and r["day"] < AS_OF_DATE - timedelta(days=40)
        and demo.chance(0.07)
    ]:
        parent["mustComplete"] = True
        callback = demo.chance(0.4)
        type_name = "Warranty Callback" if callback else parent["typeName"]
        day = parent["day"] + timedelta(days=rng.randint(3, 25))
        requests.append(
            {
                **parent,
                "day": day,
                "type": meta["woType"][type_name],
                "typeName": type_name,
                "priority": demo.pick(("high", "normal")),
                "source": "phone",
                "parent": parent,
                "mustComplete": False,
                "contract": _contract_for(meta, parent["customer"], parent["location"], day),
            }
        )
    requests += _contract_requests(demo)
    for request in requests:
        hour_from, hour_to = (0, 24) if request["source"] == "portal" else (7, 18)
        if request["source"] == "contract":
            request["created"] = datetime.combine(request["day"] - timedelta(days=21), time(6, 0))
        else:
            request["created"] = demo.moment(request["day"], hour_from, hour_to)
    requests.sort(key=lambda r: (r["created"], r["location"]))
    return requests


def _contract_for(meta: dict, info: dict, location: int, day: date) -> dict | None:
    for contract in meta["contracts"]:
        if (
            contract["customer"] is info
            and location in contract["locations"]
            and contract["start"] <= day <= contract["end"]
            and contract["status"] != "pending"
        ):
            return contract
    return None


def _contract_requests(demo: Demo) -> list[dict]:
    meta = demo.meta
    plans = {
        "Preventive Maintenance": ("HVAC Preventive Maintenance",),
        "Full Coverage": ("HVAC Preventive Maintenance",),
        "Fire & Life Safety": ("Fire Extinguisher Inspection", "Sprinkler System Inspection"),
        "Refrigeration Care": ("Walk-in Cooler Maintenance",),
    }
    requests = []
    for contract in meta["contracts"]:
        for type_name in plans[contract["type"]]:
            frequency = 365 // contract["visits"]
            if type_name == "Sprinkler System Inspection":
                frequency = 365
            plan = demo.add(
                "maintenancePlan",
                serviceContractId=contract["id"],
                workOrderTypeId=meta["woType"][type_name],
                frequencyDays=frequency,
                nextDueDate=None,
                lastGeneratedDate=None,
                isActive=contract["status"] == "active",
            )
            day = contract["start"] + timedelta(days=14)
            while day <= min(contract["end"], END):
                if day >= START and contract["status"] != "pending":
                    for location in contract["locations"]:
                        requests.append(
                            {
                                "day": day,
                                "customer": contract["customer"],
                                "location": location,
                                "type": meta["woType"][type_name],
                                "typeName": type_name,
                                "priority": "normal",
                                "contract": contract,
                                "source": "contract",
                                "parent": None,
                            }
                        )
                    if day - timedelta(days=21) <= AS_OF_DATE:
                        demo.row("maintenancePlan", plan)["lastGeneratedDate"] = day - timedelta(
                            days=21
                        )
                day += timedelta(days=frequency)
            if contract["status"] == "active":
                demo.row("maintenancePlan", plan)["nextDueDate"] = day
    return requests
