"""Demo data, step 3b: yearly service contracts of about a third of the businesses.

Contracts renew (or not) year after year; each covers one to three of the customer's sites
and an SLA policy. Their preventive visits become work orders in `requests`.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF_DATE,
    Demo,
)


def add_contracts(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    meta["contracts"] = []
    candidates = [c for c in meta["customers"] if c["kind"] != "residential"]
    for info in rng.sample(candidates, 44):
        if info["industry"] == "restaurants" and demo.chance(0.5):
            ctype = "Refrigeration Care"
        elif info["industry"] in ("government", "education", "healthcare") and demo.chance(0.4):
            ctype = "Fire & Life Safety"
        else:
            ctype = demo.weighted({"Preventive Maintenance": 6, "Full Coverage": 4})
        visits = {
            "Preventive Maintenance": demo.pick((2, 4)),
            "Full Coverage": 4,
            "Fire & Life Safety": demo.pick((1, 2)),
            "Refrigeration Care": 4,
        }[ctype]
        sla = (
            "Priority"
            if ctype == "Full Coverage"
            else ("Emergency" if info["industry"] in ("healthcare", "technology") else "Standard")
        )
        locations = rng.sample(info["locations"], min(len(info["locations"]), rng.randint(1, 3)))
        base = {
            "Preventive Maintenance": (1200, 4800),
            "Full Coverage": (3000, 12000),
            "Fire & Life Safety": (800, 3000),
            "Refrigeration Care": (1500, 4000),
        }[ctype]
        annual = float(round(rng.uniform(*base) * len(locations), -1))
        rep = (
            info
            and demo.row("customer", info["id"])["accountManagerId"]
            or demo.pick(meta["sales"])["id"]
        )
        rep_user = demo.row("employee", rep)["userId"]
        billing = demo.weighted({"monthly": 4, "quarterly": 4, "annual": 2})
        start = demo.day_between(max(info["since"], date(2023, 1, 15)), date(2025, 10, 1))
        start = start.replace(day=1)
        auto = demo.chance(0.75)
        while start <= AS_OF_DATE + timedelta(days=30):
            end = start.replace(year=start.year + 1) - timedelta(days=1)
            renews = auto and (info["until"] is None or end < info["until"])
            if start > AS_OF_DATE:
                status = "pending"
            elif end >= AS_OF_DATE:
                status = "active" if info["until"] is None else "cancelled"
            else:
                status = "expired" if renews or demo.chance(0.7) else "cancelled"
            contract = demo.add(
                "serviceContract",
                contractNumber="",
                customerId=info["id"],
                contractTypeId=meta["contractType"][ctype],
                slaPolicyId=meta["sla"][sla][0],
                startDate=start,
                endDate=end,
                annualValue=annual,
                billingFrequency=billing,
                visitsPerYear=visits,
                status=status,
                autoRenew=auto,
                salesRepId=rep,
                createdBy=rep_user,
                createdAt=datetime.combine(
                    start - timedelta(days=rng.randint(10, 40)), time(14, 0)
                ),
            )
            demo.row("serviceContract", contract)["contractNumber"] = f"SC-{2000 + contract}"
            for location in locations:
                demo.add(
                    "contractLocation", serviceContractId=contract, customerLocationId=location
                )
            meta["contracts"].append(
                {
                    "id": contract,
                    "customer": info,
                    "type": ctype,
                    "start": start,
                    "end": end,
                    "visits": visits,
                    "sla": sla,
                    "locations": locations,
                    "billing": billing,
                    "annual": annual,
                    "status": status,
                    "rep": rep,
                }
            )
            if not renews or status == "cancelled":
                break
            start = end + timedelta(days=1)
    for info in meta["customers"]:
        if any(c["customer"] is info for c in meta["contracts"]):
            demo.add("customerTag", customerId=info["id"], tagId=meta["tag"]["Contract customer"])
