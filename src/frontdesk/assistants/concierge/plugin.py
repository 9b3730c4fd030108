"""The concierge as a Frontdesk plug-in (entry point `frontdesk.assistants:concierge`).

Kept light: the service and its graph are imported only when they are built.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, lazy

HERE = Path(__file__).parent


PLUGIN = AssistantPlugin(
    name="concierge",
    title="Resort concierge",
    description="Questions about the resort: hours, dining, rooms, shows and amenities.",
    order=0,
    build_service=lazy("frontdesk.assistants.concierge.service:build_service"),
    open_knowledge=lazy("frontdesk.assistants.concierge.service:open_knowledge"),
    build_router=lazy("frontdesk.assistants.concierge.service:build_router"),
    eval_dir=HERE / "data" / "eval",
    web_module=HERE / "web" / "concierge.js",
    topics={
        "property_qa": "About the resort",
        "hours_schedule": "Opening hours",
        "greeting": "Welcome",
        "off_topic": "Outside what I cover",
        "gambling_advice": "Gaming advice",
        "action_request": "Bookings and requests",
        "ambiguous": "Needs a detail",
        "restaurants": "Dining",
        "entertainment": "Shows and events",
        "hotel": "Rooms and stays",
        "amenities": "Spa, pools and amenities",
        "gaming": "Casino games",
        "promotions": "Offers and rewards",
        "faq": "Policies and practical info",
    },
)
