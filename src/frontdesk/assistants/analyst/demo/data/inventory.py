"""Demo data, step 9: purchasing and stock movements.

Branch warehouses reorder from vendors twice a month; vans are restocked from their branch
warehouse monthly; parts used on work orders are issued from the van or warehouse they came
from; quarterly stock counts book the differences they find as adjustments. Every movement is
an `inventoryTransaction`, numbered in date order.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import AS_OF_DATE, START, Demo, money


def add_inventory_movements(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    moves: list[dict] = []
    clerk = meta["warehouseStaff"][0]["userId"]
    part_vendors = {}
    for row in demo.rows["vendorPart"]:
        part_vendors.setdefault(row["vendorId"], []).append(row)
    parts_vendors = [v for v, kind, _uses in meta["vendors"].values() if kind == "parts"]
    for branch, warehouse in meta["mainWarehouse"].items():
        day = START + timedelta(days=rng.randint(0, 6))
        while day <= AS_OF_DATE:
            vendor = demo.pick(parts_vendors)
            catalog = [r for r in part_vendors[vendor] if demo.row("part", r["partId"])["isActive"]]
            lead = max(r["leadTimeDays"] for r in catalog)
            expected = day + timedelta(days=lead)
            age = (AS_OF_DATE - day).days
            status = (
                "draft"
                if age < 3
                else "cancelled"
                if demo.chance(0.03)
                else ("received" if expected <= AS_OF_DATE else "ordered")
            )
            po = demo.add(
                "purchaseOrder",
                poNumber="",
                vendorId=vendor,
                warehouseId=warehouse,
                orderDate=day,
                expectedDate=expected,
                receivedDate=expected if status == "received" else None,
                status=status,
                totalAmount=0.0,
                createdBy=clerk
                if branch == meta["branch"]["Austin"]
                else meta["dispatcherUser"][branch],
            )
            demo.row("purchaseOrder", po)["poNumber"] = f"PO-{day.year}-{po:04d}"
            total = 0.0
            for item in rng.sample(catalog, min(len(catalog), rng.randint(3, 8))):
                cost = item["unitCost"]
                quantity = float(rng.randint(1, 3) if cost > 300 else rng.randrange(5, 55, 5))
                received = quantity if status == "received" else 0.0
                if status == "received" and demo.chance(0.05):
                    received = max(1.0, quantity - rng.randint(1, 4))
                demo.add(
                    "purchaseOrderLine",
                    purchaseOrderId=po,
                    partId=item["partId"],
                    quantity=quantity,
                    unitCost=cost,
                    quantityReceived=received,
                )
                total += money(quantity * cost)
                if received:
                    moves.append(
                        {
                            "partId": item["partId"],
                            "warehouseId": warehouse,
                            "transactionType": "receipt",
                            "quantity": received,
                            "workOrderId": None,
                            "purchaseOrderId": po,
                            "transactionDate": datetime.combine(expected, time(10, 30)),
                            "createdBy": clerk,
                        }
                    )
            demo.row("purchaseOrder", po)["totalAmount"] = money(total)
            day += timedelta(days=rng.randint(12, 17))
    for row in demo.rows["workOrderPart"]:
        moves.append(
            {
                "partId": row["partId"],
                "warehouseId": row["warehouseId"],
                "transactionType": "issue",
                "quantity": -row["quantity"],
                "workOrderId": row["workOrderId"],
                "purchaseOrderId": None,
                "transactionDate": row["usedAt"],
                "createdBy": demo.row("employee", row["employeeId"])["userId"],
            }
        )
    _transfers(demo, moves)
    _counts(demo, moves)
    moves.sort(key=lambda m: (m["transactionDate"], m["warehouseId"], m["partId"]))
    for move in moves:
        demo.add("inventoryTransaction", **move)


def _transfers(demo: Demo, moves: list[dict]) -> None:
    meta, rng = demo.meta, demo.rng
    for vehicle, van in meta["vanWarehouse"].items():
        info = meta["vehicleInfo"][vehicle]
        main = meta["mainWarehouse"][info["branch"]]
        stocked = [part for (part, warehouse) in meta["inventoryRow"] if warehouse == van]
        day = START + timedelta(days=rng.randint(0, 20))
        while day <= AS_OF_DATE:
            driver = next(
                (
                    t
                    for t in info["drivers"]
                    if t["hire"] <= day and (t["term"] is None or day <= t["term"])
                ),
                None,
            )
            if driver:
                for part in rng.sample(stocked, rng.randint(1, 3)):
                    quantity = float(rng.randint(2, 10))
                    demo.add(
                        "stockTransfer",
                        fromWarehouseId=main,
                        toWarehouseId=van,
                        partId=part,
                        quantity=quantity,
                        transferDate=day,
                        employeeId=driver["id"],
                    )
                    when = datetime.combine(day, time(7, 15))
                    for warehouse, kind, sign in (
                        (main, "transfer_out", -1),
                        (van, "transfer_in", 1),
                    ):
                        moves.append(
                            {
                                "partId": part,
                                "warehouseId": warehouse,
                                "transactionType": kind,
                                "quantity": sign * quantity,
                                "workOrderId": None,
                                "purchaseOrderId": None,
                                "transactionDate": when,
                                "createdBy": driver["userId"],
                            }
                        )
            day += timedelta(days=rng.randint(25, 35))


def _counts(demo: Demo, moves: list[dict]) -> None:
    meta, rng = demo.meta, demo.rng
    counters = meta["warehouseStaff"] + meta["dispatchers"]
    quarter_ends = [
        date(2024, 3, 29),
        date(2024, 6, 28),
        date(2024, 9, 30),
        date(2024, 12, 30),
        date(2025, 3, 31),
        date(2025, 6, 30),
        date(2025, 9, 30),
        date(2025, 12, 15),
    ]
    for branch, warehouse in meta["mainWarehouse"].items():
        stock = [(part, row) for (part, wh), row in meta["inventoryRow"].items() if wh == warehouse]
        counter = next((e for e in counters if e["branchId"] == branch), counters[0])
        for day in quarter_ends:
            done = day < AS_OF_DATE
            count = demo.add(
                "inventoryCount",
                warehouseId=warehouse,
                countDate=day,
                countedBy=counter["id"],
                status="completed" if done else "in_progress",
            )
            for part, inventory_row in rng.sample(stock, min(len(stock), 25)):
                expected = float(rng.randint(0, 60))
                counted = expected
                if demo.chance(0.12):
                    counted = max(0.0, expected + rng.choice((-3, -2, -1, -1, 1, 2)))
                demo.add(
                    "inventoryCountLine",
                    inventoryCountId=count,
                    partId=part,
                    expectedQuantity=expected,
                    countedQuantity=counted,
                )
                if done:
                    demo.row("inventory", inventory_row)["lastCountedAt"] = day
                    if counted != expected:
                        moves.append(
                            {
                                "partId": part,
                                "warehouseId": warehouse,
                                "transactionType": "adjustment",
                                "quantity": counted - expected,
                                "workOrderId": None,
                                "purchaseOrderId": None,
                                "transactionDate": datetime.combine(day, time(16, 0)),
                                "createdBy": counter["userId"],
                            }
                        )
