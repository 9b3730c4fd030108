"""Demo data, step 0: the equipment models, parts catalog and vendors.

Runs before the customers, whose equipment needs models. Parts are grouped by use (e.g.
`hvac_filter`, `water_heater`) so the work generator can pick plausible parts per job; a few
parts are superseded by a "rev B" part (`replacedByPartId`).
"""

from __future__ import annotations

from frontdesk.assistants.analyst.demo.data.common import (
    Demo,
    money,
)

MODELS = {  # category -> (manufacturer, model number, name, expected life years)
    "Furnace": (
        ("Carrier", "59SC5", "Infinity 96 Gas Furnace", 20),
        ("Trane", "S9V2", "XC95m Gas Furnace", 20),
        ("Lennox", "SL280V", "SL280V", 20),
    ),
    "Air conditioner": (
        ("Carrier", "24ACC6", "Comfort 16 AC", 15),
        ("Goodman", "GSXC18", "GSXC18 Inverter AC", 15),
        ("Lennox", "XC21", "Dave Lennox Signature XC21", 15),
    ),
    "Heat pump": (("Trane", "XR15", "XR15 Heat Pump", 15), ("Daikin", "DZ20VC", "DZ20VC", 15)),
    "Rooftop unit": (
        ("Carrier", "48FC", "WeatherMaker 48FC", 20),
        ("Trane", "YSC", "Voyager YSC", 20),
        ("Lennox", "LGH", "Energence LGH", 20),
    ),
    "Boiler": (("Lochinvar", "KBN", "KNIGHT Boiler", 25), ("Weil-McLain", "ULTRA", "Ultra", 25)),
    "Water heater": (
        ("Rheem", "PROG50", "Performance 50 gal Gas", 12),
        ("A.O. Smith", "GCR-50", "ProLine 50 gal", 12),
        ("Rheem", "RTEX-18", "Tankless Electric 18 kW", 20),
    ),
    "Backflow preventer": (
        ("Watts", "909", "Series 909 RPZ", 15),
        ("Watts", "LF007", "Series LF007 DCVA", 15),
    ),
    "Electrical panel": (
        ("Square D", "QO", "QO Load Center 200A", 40),
        ("Eaton", "BR", "BR Load Center 200A", 40),
    ),
    "Fire extinguisher": (
        ("Amerex", "B500", "5 lb ABC Extinguisher", 12),
        ("Amerex", "B402", "10 lb ABC Extinguisher", 12),
    ),
    "Sprinkler system": (
        ("Viking", "VK100", "Wet pipe sprinkler system", 50),
        ("Tyco", "TY-B", "Dry pipe sprinkler system", 50),
    ),
    "Walk-in cooler": (
        ("Kolpak", "KF7", "Walk-in Cooler 8x10", 20),
        ("Norlake", "KLB", "Kold Locker", 20),
    ),
    "Ice machine": (
        ("Hoshizaki", "KM-515MAJ", "Crescent cuber", 10),
        ("Manitowoc", "IYT0500A", "Indigo NXT", 10),
    ),
}


# use key -> (category, unit, [(name, cost)])


PARTS = {
    "hvac_filter": (
        "Filters",
        "EA",
        [
            (f"Pleated air filter {size} MERV {merv}", cost)
            for size, cost in (
                ("16x25x1", 6.5),
                ("20x25x1", 7.2),
                ("20x20x4", 18.0),
                ("16x25x4", 17.5),
                ("24x24x2", 11.0),
            )
            for merv in (8, 11)
        ],
    ),
    "hvac_repair": (
        "Motors & Electrical (HVAC)",
        "EA",
        [
            ("Run capacitor 35/5 MFD", 14.0),
            ("Run capacitor 45/5 MFD", 16.0),
            ("Run capacitor 40/5 MFD", 15.0),
            ("Run capacitor 10 MFD", 9.0),
            ("Contactor 1-pole 30A", 18.0),
            ("Contactor 2-pole 40A", 24.0),
            ("Condenser fan motor 1/4 HP", 95.0),
            ("Condenser fan motor 1/3 HP", 120.0),
            ("Blower motor 1/2 HP", 210.0),
            ("Blower motor 3/4 HP", 260.0),
            ("Hot surface igniter", 32.0),
            ("Flame sensor", 12.0),
            ("Pressure switch", 38.0),
            ("Furnace control board", 185.0),
            ("Condensate pump", 58.0),
            ("Thermostatic expansion valve", 145.0),
            ("Drive belt A42", 11.0),
            ("Refrigerant R-410A (lb)", 19.0),
            ("Refrigerant R-454B (lb)", 27.0),
        ],
    ),
    "hvac_install": (
        "HVAC Equipment",
        "EA",
        [
            ("Line set 3/8 x 3/4 25 ft", 165.0),
            ("Smart thermostat (Ecobee Premium)", 210.0),
            ("Programmable thermostat (Honeywell T6 Pro)", 95.0),
            ("Condenser pad 36x36", 48.0),
            ("Disconnect box 60A", 22.0),
            ("Whip 3/4 x 6 ft", 18.0),
        ],
    ),
    "plumbing_repair": (
        "Plumbing Parts",
        "EA",
        [
            ("Ball valve 1/2 in", 9.0),
            ("Ball valve 3/4 in", 12.0),
            ("Ball valve 1 in", 21.0),
            ("PEX pipe 3/4 in (ft)", 0.9),
            ("Copper pipe type L 3/4 in (ft)", 6.5),
            ("P-trap 1-1/2 in", 8.0),
            ("Wax ring", 4.0),
            ("Toilet fill valve", 14.0),
            ("Toilet flapper", 6.0),
            ("Garbage disposal 1/2 HP", 110.0),
            ("Sump pump 1/3 HP", 145.0),
            ("Shut-off valve 1/4 turn", 11.0),
        ],
    ),
    "water_heater": (
        "Water Heaters",
        "EA",
        [
            ("Water heater 50 gal gas (Rheem)", 780.0),
            ("Water heater 40 gal electric", 560.0),
            ("Tankless water heater 199k BTU", 1450.0),
            ("T&P relief valve 3/4 in", 19.0),
            ("Anode rod magnesium", 28.0),
            ("Heating element 4500 W", 22.0),
            ("Gas flex connector 24 in", 16.0),
            ("Expansion tank 2 gal", 42.0),
        ],
    ),
    "backflow": (
        "Backflow Parts",
        "EA",
        [
            ("Watts 909 repair kit", 135.0),
            ("Watts LF007 repair kit", 68.0),
            ("Test cock 1/4 in", 12.0),
        ],
    ),
    "electrical_repair": (
        "Electrical Parts",
        "EA",
        [
            ("Breaker 15A single pole", 9.0),
            ("Breaker 20A single pole", 9.5),
            ("Breaker 30A 2-pole", 24.0),
            ("Breaker 50A 2-pole", 32.0),
            ("GFCI breaker 20A", 48.0),
            ("AFCI breaker 15A", 45.0),
            ("GFCI outlet 20A", 19.0),
            ("Romex 12/2 (ft)", 0.85),
            ("Romex 14/2 (ft)", 0.6),
            ("Whole-home surge protector", 95.0),
            ("LED wafer light 6 in", 14.0),
            ("Light switch decorator", 4.5),
        ],
    ),
    "panel": (
        "Electrical Equipment",
        "EA",
        [
            ("Load center 200A main breaker", 320.0),
            ("Meter base 200A", 140.0),
            ("Grounding rod 8 ft", 16.0),
        ],
    ),
    "fire_ext": (
        "Fire Safety Parts",
        "EA",
        [
            ("Fire extinguisher 5 lb ABC", 42.0),
            ("Fire extinguisher 10 lb ABC", 68.0),
            ("ABC recharge agent (lb)", 4.5),
            ("Inspection tag", 0.35),
            ("Tamper seal", 0.1),
            ("Extinguisher gauge", 9.0),
        ],
    ),
    "sprinkler": (
        "Fire Safety Parts",
        "EA",
        [
            ("Sprinkler head pendent 155F", 8.5),
            ("Sprinkler head upright 155F", 8.5),
            ("Sprinkler escutcheon", 2.0),
            ("Pressure gauge 300 psi", 22.0),
        ],
    ),
    "refrigeration": (
        "Refrigeration Parts",
        "EA",
        [
            ("Evaporator fan motor 9 W", 75.0),
            ("Walk-in door gasket", 95.0),
            ("Defrost timer", 64.0),
            ("Ice machine water filter", 48.0),
            ("Walk-in compressor 1.5 HP", 980.0),
            ("Refrigerant R-404A (lb)", 22.0),
            ("Door heater wire", 35.0),
        ],
    ),
}


VENDORS = (  # name, kind, uses
    ("Johnstone Supply", "parts", ("hvac_filter", "hvac_repair", "hvac_install")),
    ("Carrier Enterprise", "parts", ("hvac_repair", "hvac_install")),
    ("Ferguson", "parts", ("plumbing_repair", "water_heater", "backflow")),
    ("Hajoca", "parts", ("plumbing_repair", "water_heater")),
    ("Graybar", "parts", ("electrical_repair", "panel")),
    ("Winsupply", "parts", ("hvac_filter", "electrical_repair", "plumbing_repair")),
    ("Koorsen Fire & Security", "parts", ("fire_ext", "sprinkler")),
    ("Parts Town", "parts", ("refrigeration",)),
    ("Fleet Pro Auto Service", "garage", ()),
    ("Commercial Tire of Texas", "garage", ()),
    ("Precision Calibration Labs", "service", ()),
    ("Uline", "supplies", ()),
)


def add_catalog(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    makers = sorted({m[0] for models in MODELS.values() for m in models})
    manufacturer = {
        name: demo.add(
            "manufacturer",
            name=name,
            website="https://www." + "".join(ch for ch in name.lower() if ch.isalnum()) + ".com",
            supportPhone=f"(800) 555-0{i:03d}",
        )
        for i, name in enumerate(makers, start=101)
    }
    meta["manufacturer"] = manufacturer
    meta["equipmentModels"] = {}
    for category, models in MODELS.items():
        cat = demo.add("equipmentCategory", name=category)
        meta["equipmentModels"][category] = [
            demo.add(
                "equipmentModel",
                manufacturerId=manufacturer[maker],
                equipmentCategoryId=cat,
                modelNumber=number,
                name=name,
                expectedLifeYears=life,
            )
            for maker, number, name, life in models
        ]
    units = {
        code: demo.add("unitOfMeasure", code=code, name=name)
        for code, name in (
            ("EA", "each"),
            ("FT", "foot"),
            ("LB", "pound"),
            ("GAL", "gallon"),
            ("BOX", "box"),
        )
    }
    parents = {
        name: demo.add("partCategory", name=name, parentCategoryId=None)
        for name in ("HVAC", "Plumbing", "Electrical", "Fire Safety", "Refrigeration")
    }
    parent_of = {
        "hvac": "HVAC",
        "plumbing": "Plumbing",
        "water": "Plumbing",
        "backflow": "Plumbing",
        "electrical": "Electrical",
        "panel": "Electrical",
        "fire": "Fire Safety",
        "sprinkler": "Fire Safety",
        "refrigeration": "Refrigeration",
    }
    categories: dict[str, int] = {}
    meta["partsByUse"], meta["part"] = {}, {}
    number = 1000
    for use, (category, _unit, items) in PARTS.items():
        if category not in categories:
            categories[category] = demo.add(
                "partCategory",
                name=category,
                parentCategoryId=(parents[parent_of[use.split("_")[0]]]),
            )
        for name, cost in items:
            number += 1
            unit = "FT" if "(ft)" in name else "LB" if "(lb)" in name else "EA"
            price = money(cost * rng.uniform(1.6, 2.2))
            part = demo.add(
                "part",
                partNumber=f"P-{number}",
                name=name,
                partCategoryId=categories[category],
                unitOfMeasureId=units[unit],
                manufacturerId=None if demo.chance(0.4) else demo.pick(list(manufacturer.values())),
                unitCost=cost,
                unitPrice=price,
                reorderLevel=rng.choice((5, 10, 20, 50)) if cost < 50 else 2,
                isSerialized=cost >= 500,
                isActive=True,
                replacedByPartId=None,
            )
            meta["partsByUse"].setdefault(use, []).append(part)
            meta["part"][part] = {"cost": cost, "price": price, "use": use, "name": name}
    for old in rng.sample(sorted(meta["part"]), 6):
        info = meta["part"][old]
        number += 1
        row = dict(demo.row("part", old))
        row.pop("id")
        row.update(
            partNumber=f"P-{number}",
            name=f"{info['name']} (rev B)",
            unitCost=money(info["cost"] * 1.05),
            unitPrice=money(info["price"] * 1.05),
        )
        new = demo.add("part", **row)
        demo.row("part", old).update(isActive=False, replacedByPartId=new)
        meta["partsByUse"][info["use"]].remove(old)
        meta["partsByUse"][info["use"]].append(new)
        meta["part"][new] = {
            "cost": row["unitCost"],
            "price": row["unitPrice"],
            "use": info["use"],
            "name": row["name"],
        }
    net30 = meta["paymentTerm"]["Net 30"][0]
    meta["vendors"] = {}
    for name, kind, uses in VENDORS:
        slug = name.lower().replace(" ", "").replace("&", "")
        vendor = demo.add(
            "vendor",
            name=name,
            email=f"orders@{slug}.com",
            phone=f"(800) {rng.randint(200, 989)}-{rng.randint(1000, 9999)}",
            website=f"https://www.{slug}.com",
            paymentTermId=net30,
            accountNumber=f"LSF-{rng.randint(10000, 99999)}",
            isActive=True,
        )
        meta["vendors"][name] = (vendor, kind, uses)
    for part, info in meta["part"].items():
        suppliers = [v for v, kind, uses in meta["vendors"].values() if info["use"] in uses]
        for index, vendor in enumerate(rng.sample(suppliers, min(2, len(suppliers)))):
            demo.add(
                "vendorPart",
                vendorId=vendor,
                partId=part,
                vendorPartNumber=f"{rng.randint(100000, 999999)}",
                unitCost=money(info["cost"] * rng.uniform(0.95, 1.08)),
                leadTimeDays=rng.choice((1, 2, 3, 5, 10)),
                isPreferred=index == 0,
            )
        info["vendors"] = suppliers
