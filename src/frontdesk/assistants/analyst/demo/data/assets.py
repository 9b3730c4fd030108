"""Demo data, step 4: the fleet, tools, warehouses and opening stock.

Runs after the employees: every technician drives one van (handed on to a new hire when its
driver leaves), each van is also a stock location, and vehicles get fuel, pre-trip and service
records. Each branch has a main warehouse stocking every active part.
"""

from __future__ import annotations

from datetime import date, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF_DATE,
    START,
    Demo,
    employed,
    money,
)

TOOLS = (
    ("Digital multimeter", "meter", 180.0),
    ("Manifold gauge set", "hvac", 420.0),
    ("Vacuum pump", "hvac", 390.0),
    ("Refrigerant recovery machine", "hvac", 1150.0),
    ("Combustion analyzer", "meter", 1450.0),
    ("PEX crimp tool", "plumbing", 160.0),
    ("Drain camera", "plumbing", 2800.0),
    ("Thermal imaging camera", "meter", 890.0),
    ("Extension ladder 28 ft", "access", 420.0),
    ("Torque wrench", "hand", 145.0),
    ("Backflow test kit", "plumbing", 1050.0),
    ("Cordless drill kit", "power", 260.0),
)
VEHICLES = (
    ("Ford", "Transit 250"),
    ("Ram", "ProMaster 2500"),
    ("Chevrolet", "Express 2500"),
    ("Ford", "F-250"),
)


def add_fleet(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    meta["vehicleInfo"] = {}
    branch_techs: dict[int, list[dict]] = {}
    for tech in sorted(meta["techs"], key=lambda t: t["hire"]):
        branch_techs.setdefault(tech["branchId"], []).append(tech)
    unit = 100
    meta["vehicleOf"] = {}
    for branch, techs in branch_techs.items():
        free: list[int] = []
        busy: list[tuple[dict, int]] = []
        for tech in techs:
            for holder, vehicle in list(busy):
                if holder["term"] and holder["term"] < tech["hire"]:
                    busy.remove((holder, vehicle))
                    free.append(vehicle)
            if not free:
                unit += 1
                make, model = demo.pick(VEHICLES)
                bought = date(rng.randint(2017, 2023), rng.randint(1, 12), 1)
                vehicle = demo.add(
                    "vehicle",
                    branchId=branch,
                    unitNumber=f"V-{unit}",
                    plateNumber=f"{rng.choice('BCDFGHJKLMNP')}{rng.choice('KLMNPRST')}"
                    f"{rng.choice('TVWXYZ')}-{rng.randint(1000, 9999)}",
                    make=make,
                    model=model,
                    year=bought.year,
                    vin="".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17)),
                    fuelType="gasoline",
                    status="active",
                    odometer=0,
                    purchaseDate=bought,
                )
                meta["vehicleInfo"][vehicle] = {
                    "branch": branch,
                    "odometer": rng.randint(15000, 90000),
                    "drivers": [],
                }
                free.append(vehicle)
            vehicle = free.pop(0)
            busy.append((tech, vehicle))
            start = max(tech["hire"], date(2022, 1, 1))
            demo.add(
                "vehicleAssignment",
                vehicleId=vehicle,
                employeeId=tech["id"],
                startDate=start,
                endDate=tech["term"],
            )
            meta["vehicleOf"][tech["id"]] = vehicle
            meta["vehicleInfo"][vehicle]["drivers"].append(tech)
    spare_branch = meta["branch"]["Austin"]
    for status in ("in_shop", "retired"):
        unit += 1
        vehicle = demo.add(
            "vehicle",
            branchId=spare_branch,
            unitNumber=f"V-{unit}",
            plateNumber=f"SPR-{rng.randint(1000, 9999)}",
            make="Ford",
            model="Transit 250",
            year=2016,
            vin=f"1FTBW2CM6GKA{rng.randint(10000, 99999)}",
            fuelType="gasoline",
            status=status,
            odometer=rng.randint(140000, 210000),
            purchaseDate=date(2016, 3, 1),
        )
        meta["vehicleInfo"][vehicle] = {"branch": spare_branch, "odometer": 0, "drivers": []}
    _fleet_logs(demo)
    _tools(demo)
    _warehouses(demo)


def _fleet_logs(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    garages = [v for v, kind, _ in meta["vendors"].values() if kind == "garage"]
    for vehicle, info in meta["vehicleInfo"].items():
        if not info["drivers"]:
            continue
        odometer = info["odometer"]
        day = START
        next_service = START + timedelta(days=rng.randint(20, 110))
        while day <= AS_OF_DATE:
            driver = next((t for t in info["drivers"] if employed(t, day)), None)
            if driver and day.weekday() < 5:
                odometer += rng.randint(180, 420)
                if demo.chance(0.22):
                    demo.add(
                        "fuelLog",
                        vehicleId=vehicle,
                        employeeId=driver["id"],
                        fuelDate=day,
                        gallons=round(rng.uniform(12, 26), 2),
                        cost=money(rng.uniform(12, 26) * rng.uniform(2.75, 3.35)),
                        odometer=odometer,
                    )
                if demo.chance(0.12):
                    issue = demo.chance(0.06)
                    demo.add(
                        "vehicleInspection",
                        vehicleId=vehicle,
                        employeeId=driver["id"],
                        inspectedAt=demo.moment(day, 6, 8),
                        passed=not issue,
                        issues=demo.pick(
                            (
                                "Tire pressure low",
                                "Check engine light",
                                "Brake noise",
                                "Cracked mirror",
                            )
                        )
                        if issue
                        else None,
                    )
            if day >= next_service:
                kind = demo.weighted(
                    {"oil_change": 6, "tires": 1, "brakes": 1, "inspection": 1, "repair": 1}
                )
                cost = {
                    "oil_change": (80, 140),
                    "tires": (600, 1100),
                    "brakes": (350, 800),
                    "inspection": (25, 40),
                    "repair": (250, 2400),
                }[kind]
                demo.add(
                    "vehicleMaintenance",
                    vehicleId=vehicle,
                    vendorId=demo.pick(garages),
                    serviceDate=day,
                    serviceType=kind,
                    description=kind.replace("_", " ").capitalize(),
                    cost=money(rng.uniform(*cost)),
                    odometer=odometer,
                )
                next_service = day + timedelta(days=rng.randint(80, 140))
            day += timedelta(days=1)
        demo.row("vehicle", vehicle)["odometer"] = odometer
        if not any(t["term"] is None for t in info["drivers"]):
            demo.row("vehicle", vehicle)["status"] = "retired"


def _tools(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    for tech in meta["techs"]:
        for name, category, cost in rng.sample(TOOLS, rng.randint(2, 4)):
            bought = max(tech["hire"], date(2019, 1, 1)) + timedelta(days=rng.randint(0, 90))
            lost = demo.chance(0.04)
            status = "lost" if lost else ("available" if tech["term"] else "assigned")
            tool = demo.add(
                "tool",
                name=name,
                category=category,
                serialNumber=f"T{rng.randint(100000, 999999)}",
                purchaseDate=bought,
                cost=cost,
                status=status,
            )
            demo.add(
                "toolAssignment",
                toolId=tool,
                employeeId=tech["id"],
                assignedAt=bought,
                returnedAt=tech["term"],
            )
    for name, category, cost in TOOLS:
        demo.add(
            "tool",
            name=name,
            category=category,
            serialNumber=f"T{rng.randint(100000, 999999)}",
            purchaseDate=date(2023, 2, 1),
            cost=cost,
            status=demo.pick(("available", "available", "repair")),
        )


def _warehouses(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    meta["mainWarehouse"], meta["vanWarehouse"] = {}, {}
    for name, branch in meta["branch"].items():
        meta["mainWarehouse"][branch] = demo.add(
            "warehouse",
            branchId=branch,
            vehicleId=None,
            name=f"{name} warehouse",
            warehouseType="main",
            isActive=True,
        )
    for vehicle, info in meta["vehicleInfo"].items():
        if info["drivers"]:
            meta["vanWarehouse"][vehicle] = demo.add(
                "warehouse",
                branchId=info["branch"],
                vehicleId=vehicle,
                name=f"Van {demo.row('vehicle', vehicle)['unitNumber']} stock",
                warehouseType="van",
                isActive=demo.row("vehicle", vehicle)["status"] != "retired",
            )
    active = [p for p in meta["part"] if demo.row("part", p)["isActive"]]
    meta["inventoryRow"] = {}
    for warehouse in meta["mainWarehouse"].values():
        for part in active:
            level = demo.row("part", part)["reorderLevel"]
            quantity = float(rng.randint(0, level * 4)) if demo.chance(0.9) else 0.0
            meta["inventoryRow"][(part, warehouse)] = demo.add(
                "inventory",
                partId=part,
                warehouseId=warehouse,
                quantityOnHand=quantity,
                quantityReserved=float(rng.randint(0, 2)) if quantity > 2 else 0.0,
                binLocation=f"{rng.choice('ABCDEF')}-{rng.randint(1, 12):02d}-{rng.randint(1, 5)}",
                lastCountedAt=None,
            )
    for vehicle, warehouse in meta["vanWarehouse"].items():
        for part in rng.sample(active, rng.randint(15, 25)):
            meta["inventoryRow"][(part, warehouse)] = demo.add(
                "inventory",
                partId=part,
                warehouseId=warehouse,
                quantityOnHand=float(rng.randint(0, 12)),
                quantityReserved=0.0,
                binLocation=f"SHELF-{rng.randint(1, 4)}",
                lastCountedAt=None,
            )
