"""Demo data, step 3: 150 customers, their ~300 sites, contacts, equipment and contracts.

Customers are households (one home, sometimes a rental), businesses with one to six sites,
industrial plants and public bodies. Around a third of the businesses hold yearly service
contracts that renew (`contracts`).
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from frontdesk.assistants.analyst.demo.data.common import (
    AS_OF_DATE,
    Demo,
    add_years,
    ascii_slug,
)
from frontdesk.assistants.analyst.demo.data.contracts import add_contracts
from frontdesk.assistants.analyst.demo.data.names import (
    ACCESS_INSTRUCTIONS,
    BRANCH_CITIES,
    BRANCH_COORDS,
    BUSINESS_KINDS,
    BUSINESS_WORDS,
    STREETS,
)

TYPE_COUNTS = {"residential": 62, "commercial": 64, "industrial": 14, "government": 10}
BRANCH_WEIGHTS = {"Austin": 32, "Dallas": 28, "Houston": 25, "San Antonio": 15}
COMMERCIAL = (
    "healthcare",
    "retail",
    "hospitality",
    "education",
    "property management",
    "restaurants",
    "technology",
)
INDUSTRIAL = ("manufacturing", "logistics", "technology")
LOCATION_TYPE = {
    "healthcare": ("Clinic",),
    "retail": ("Retail store",),
    "hospitality": ("Hotel", "Restaurant"),
    "education": ("School",),
    "property management": ("Apartment building", "Office"),
    "restaurants": ("Restaurant",),
    "technology": ("Office", "Data center"),
    "manufacturing": ("Factory", "Warehouse"),
    "logistics": ("Warehouse",),
    "government": ("Public building",),
}
CONTACT_TITLES = (
    "Facilities Manager",
    "Office Manager",
    "Accounts Payable",
    "Owner",
    "Property Manager",
    "Maintenance Supervisor",
    "Operations Director",
)
NOTES = (
    "Prefers text messages over calls.",
    "Asked for a quote on a new system next year.",
    "Billing contact changed; send invoices to AP mailbox.",
    "Very satisfied with last visit.",
    "Complained about arrival window being missed.",
    "Gate code changes monthly; call ahead.",
    "Interested in a maintenance contract.",
    "Pays by check, usually late.",
)


def _equipment_plan(demo: Demo, location_type: str) -> list[str]:
    c = demo.chance
    if location_type == "House":
        heat = "Heat pump" if c(0.35) else "Furnace"
        plan = [heat] + ([] if heat == "Heat pump" else ["Air conditioner"]) + ["Water heater"]
        return plan + (["Electrical panel"] if c(0.6) else [])
    plan = ["Rooftop unit"] * demo.rng.randint(1, 2) + ["Fire extinguisher"]
    plan += ["Water heater"] if c(0.5) else []
    plan += ["Electrical panel"] if c(0.5) else []
    plan += ["Backflow preventer"] if c(0.7) else []
    if location_type == "Restaurant":
        plan += ["Walk-in cooler", "Ice machine"]
    if location_type in (
        "Factory",
        "Warehouse",
        "Data center",
        "Hotel",
        "School",
        "Public building",
    ):
        plan += ["Sprinkler system"] + (["Boiler"] if c(0.4) else [])
    elif c(0.3):
        plan.append("Sprinkler system")
    return plan


def add_customers(demo: Demo) -> None:
    meta, rng = demo.meta, demo.rng
    kinds = [kind for kind, n in TYPE_COUNTS.items() for _ in range(n)]
    rng.shuffle(kinds)
    used: set[str] = set()
    meta["customers"], meta["locations"], meta["equipment"] = [], {}, {}
    for kind in kinds:
        branch = demo.weighted(BRANCH_WEIGHTS)
        branch_id = meta["branch"][branch]
        city, zip_prefix = demo.pick(BRANCH_CITIES[branch])
        first, last = demo.person()
        industry = None
        if kind == "residential":
            name = f"{first} {last}"
        else:
            industry = (
                demo.pick(COMMERCIAL if kind == "commercial" else INDUSTRIAL)
                if kind != "government"
                else "government"
            )
            name = (
                f"City of {city} {demo.pick(BUSINESS_KINDS[industry])}"
                if kind == "government"
                else f"{demo.pick(BUSINESS_WORDS)} {demo.pick(BUSINESS_KINDS[industry])}"
            )
        while name in used:
            name = f"{name} {demo.pick(('II', 'West', 'North', 'Group'))}"
        used.add(name)
        since = (
            demo.day_between(date(2015, 1, 1), date(2023, 12, 31))
            if demo.chance(0.7)
            else demo.day_between(date(2024, 1, 1), date(2025, 10, 31))
        )
        inactive_from = (
            demo.day_between(date(2024, 9, 1), date(2025, 6, 30))
            if demo.chance(0.08) and since < date(2024, 6, 1)
            else None
        )
        if kind == "residential":
            email = demo.personal_email(first, last)
            term = "Due on receipt"
        else:
            email = (
                f"{demo.pick(('billing', 'accounts', 'ap', 'facilities'))}@"
                f"{ascii_slug(name)[:24]}.com"
            )
            term = (
                "Net 45"
                if kind == "government"
                else demo.weighted({"Net 30": 6, "Net 15": 2, "Net 45": 1, "Due on receipt": 1})
            )
        exempt = kind == "government" or industry == "education"
        manager = None
        if kind != "residential" and demo.chance(0.8):
            manager = demo.pick(meta["sales"])["id"]
        customer = demo.add(
            "customer",
            customerNumber=f"C-{10000 + len(meta['customers']) + 1}",
            name=name,
            customerTypeId=meta["customerType"][kind],
            industryId=meta["industry"][industry] if industry else None,
            email=email,
            phone=demo.phone(branch),
            billingAddress=f"{rng.randint(100, 9899)} {demo.pick(STREETS)}"
            + (
                f", Suite {rng.randint(1, 9)}00"
                if kind != "residential" and demo.chance(0.4)
                else ""
            ),
            billingCity=city,
            billingState="TX",
            billingZip=f"{zip_prefix}{rng.randint(1, 99):02d}",
            paymentTermId=meta["paymentTerm"][term][0],
            creditLimit=None if kind == "residential" else float(rng.randrange(5000, 50001, 2500)),
            taxExempt=exempt,
            isActive=inactive_from is None,
            accountManagerId=manager,
            primaryContactId=None,
            referralSourceId=demo.pick(meta["referral"]) if demo.chance(0.7) else None,
            customerSince=since,
            createdAt=datetime.combine(since, time(10, 0)),
        )
        info = {
            "id": customer,
            "kind": kind,
            "branch": branch,
            "branchId": branch_id,
            "since": since,
            "until": inactive_from,
            "industry": industry,
            "name": name,
            "termDays": meta["paymentTerm"][term][1],
            "termId": meta["paymentTerm"][term][0],
            "exempt": exempt,
            "locations": [],
            "contacts": [],
            "first": first,
            "last": last,
            "latePayer": demo.chance(0.12 if kind != "government" else 0.3),
            "weight": {"residential": 1.0, "commercial": 2.6, "industrial": 3.0, "government": 2.0}[
                kind
            ],
        }
        meta["customers"].append(info)
        _locations(demo, info, city, zip_prefix)
        _contacts(demo, info)
    for info in rng.sample([c for c in meta["customers"] if c["kind"] != "residential"], 8):
        info["weight"] *= 3.0
        info["vip"] = True
    _notes_and_tags(demo)
    add_contracts(demo)


def _locations(demo: Demo, info: dict, city: str, zip_prefix: str) -> None:
    meta, rng = demo.meta, demo.rng
    kind = info["kind"]
    if kind == "residential":
        count = 2 if demo.chance(0.1) else 1
    elif kind == "commercial":
        count = demo.weighted({1: 36, 2: 24, 3: 16, 4: 10, 5: 8, 6: 6})
    else:
        count = demo.weighted({1: 2, 2: 4, 3: 3, 4: 1})
    lat0, lon0 = BRANCH_COORDS[info["branch"]]
    for index in range(count):
        if index:
            city, zip_prefix = demo.pick(BRANCH_CITIES[info["branch"]])
        if kind == "residential":
            loc_type, name = "House", "Home" if index == 0 else "Rental property"
            contact = (f"{info['first']} {info['last']}", None)
        else:
            loc_type = demo.pick(LOCATION_TYPE[info["industry"]])
            name = (
                "Headquarters"
                if index == 0 and loc_type == "Office"
                else f"{city} {loc_type.lower()}" + (f" #{index + 1}" if index else "")
            )
            contact = (" ".join(demo.person()), None)
        area = demo.pick(meta["serviceAreas"][info["branchId"]])
        created = max(info["since"], date(2015, 1, 1)) + timedelta(days=index * 90)
        location = demo.add(
            "customerLocation",
            customerId=info["id"],
            locationTypeId=meta["locationType"][loc_type],
            serviceAreaId=area,
            name=name,
            address=f"{rng.randint(100, 19899)} {demo.pick(STREETS)}",
            city=city,
            state="TX",
            zip=f"{zip_prefix}{rng.randint(1, 99):02d}",
            latitude=round(lat0 + rng.uniform(-0.25, 0.25), 6),
            longitude=round(lon0 + rng.uniform(-0.25, 0.25), 6),
            siteContactName=contact[0],
            siteContactPhone=demo.phone(info["branch"]),
            accessInstructions=demo.pick(ACCESS_INSTRUCTIONS),
            isPrimary=index == 0,
            isActive=info["until"] is None or index == 0,
            createdAt=datetime.combine(min(created, AS_OF_DATE), time(10, 30)),
        )
        info["locations"].append(location)
        meta["locations"][location] = {
            "id": location,
            "customerId": info["id"],
            "branchId": info["branchId"],
            "type": loc_type,
            "equipment": [],
            "contact": contact[0],
            "created": created,
        }
        for category in _equipment_plan(demo, loc_type):
            model = demo.pick(meta["equipmentModels"][category])
            installed = demo.day_between(date(2008, 1, 1), date(2023, 12, 31))
            status = demo.weighted({"active": 90, "needs_repair": 6, "retired": 4})
            equipment = demo.add(
                "equipment",
                customerLocationId=location,
                equipmentModelId=model,
                serialNumber=f"{category[:2].upper()}{rng.randint(10**7, 10**8 - 1)}",
                assetTag=None,
                installDate=installed,
                status=status,
                lastServiceDate=None,
            )
            demo.row("equipment", equipment)["assetTag"] = f"A-{equipment:05d}"
            meta["equipment"][equipment] = {
                "location": location,
                "category": category,
                "status": status,
            }
            if status != "retired":
                meta["locations"][location]["equipment"].append(equipment)
            if installed >= date(2016, 1, 1):
                years = demo.pick((5, 7, 10))
                demo.add(
                    "warranty",
                    equipmentId=equipment,
                    provider=demo.row(
                        "manufacturer", demo.row("equipmentModel", model)["manufacturerId"]
                    )["name"],
                    startDate=installed,
                    endDate=add_years(installed, years) - timedelta(days=1),
                    coverage="parts",
                )


def _contacts(demo: Demo, info: dict) -> None:
    meta = demo.meta
    people = [(info["first"], info["last"], "Homeowner")] if info["kind"] == "residential" else []
    extra = (
        demo.weighted({0: 7, 1: 3})
        if info["kind"] == "residential"
        else demo.weighted({1: 4, 2: 4, 3: 2, 4: 1})
    )
    for _ in range(extra):
        first, last = demo.person()
        title = "Homeowner" if info["kind"] == "residential" else demo.pick(CONTACT_TITLES)
        people.append((first, last, title))
    for index, (first, last, title) in enumerate(people):
        location = None
        if info["kind"] != "residential" and index and demo.chance(0.5):
            location = demo.pick(info["locations"])
        contact = demo.add(
            "customerContact",
            customerId=info["id"],
            customerLocationId=location,
            firstName=first,
            lastName=last,
            email=demo.personal_email(first, last)
            if info["kind"] == "residential"
            else f"{ascii_slug(first)}.{ascii_slug(last)}@{ascii_slug(info['name'])[:24]}.com",
            phone=demo.phone(info["branch"]),
            title=title,
            isPrimary=index == 0,
            receivesInvoices=index == 0 or title == "Accounts Payable",
            preferredContactMethod=demo.weighted({"email": 5, "phone": 3, "sms": 3}),
            createdAt=datetime.combine(info["since"], time(11, 0)) + timedelta(days=index * 30),
        )
        info["contacts"].append(contact)
    demo.row("customer", info["id"])["primaryContactId"] = info["contacts"][0]
    if demo.chance(0.05):
        # Stale data happens: a few customers point at no primary contact at all.
        demo.row("customer", info["id"])["primaryContactId"] = None
    meta.setdefault("contactOwner", {}).update({c: info["id"] for c in info["contacts"]})


def _notes_and_tags(demo: Demo) -> None:
    meta = demo.meta
    authors = [e["userId"] for e in meta["dispatchers"] + meta["sales"]]
    for info in meta["customers"]:
        for _ in range(demo.weighted({0: 3, 1: 4, 2: 2})):
            when = demo.moment(demo.day_between(max(info["since"], date(2024, 1, 1)), AS_OF_DATE))
            demo.add(
                "customerNote",
                customerId=info["id"],
                createdBy=demo.pick(authors),
                note=demo.pick(NOTES),
                createdAt=when,
            )
        tags = []
        if info.get("vip"):
            tags += ["VIP", "Key account"]
        if info["latePayer"]:
            tags.append("Late payer")
        if info["kind"] == "residential" and demo.chance(0.15):
            tags.append("Pets on site")
        if demo.chance(0.1):
            tags.append("Prefers mornings")
        if info["since"] >= date(2025, 6, 1):
            tags.append("New customer")
        for tag in tags:
            demo.add("customerTag", customerId=info["id"], tagId=meta["tag"][tag])
