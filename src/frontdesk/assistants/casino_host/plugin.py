"""The casino host as a Frontdesk plug-in (entry point `casino_host`): an SMS host for two
casinos, with a compliance gate before any model, four agents, a guest profile and offers.

Kept light: the service, its router and its suites import the graph only when used.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, EvalTarget, lazy


def conversations_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.casino_host.evaluation.suites import conversations_target as target

    return target(settings, models)


def guardrails_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.casino_host.evaluation.suites import guardrails_target as target

    return target(settings, models)


HERE = Path(__file__).parent


def cli():
    from frontdesk.assistants.casino_host.cli import app

    return app


def api_router():
    from fastapi import APIRouter

    from frontdesk.assistants.casino_host.channel.routes import router as sms
    from frontdesk.assistants.casino_host.staff.routes import router as staff

    router = APIRouter()
    router.include_router(sms)
    router.include_router(staff)
    return router


def sms_cli():
    from frontdesk.assistants.casino_host.channel.cli import app

    return app


PLUGIN = AssistantPlugin(
    name="casino_host",
    title="Casino host (SMS)",
    description="An AI casino host that texts with guests: dining, shows, the spa, offers "
    "within the rules, and a compliance gate before any model (EN/ES).",
    order=40,
    build_service=lazy("frontdesk.assistants.casino_host.build:build_service"),
    open_knowledge=lazy("frontdesk.assistants.casino_host.build:open_knowledge"),
    build_router=lazy("frontdesk.assistants.casino_host.build:build_router"),
    eval_dir=HERE / "data" / "eval",
    web_module=HERE / "web" / "casino_host.js",
    # The first of its own is what `frontdesk eval casino_host` runs.
    eval_targets={"conversations": conversations_target, "guardrails": guardrails_target},
    topics={
        "dining": "Dining",
        "entertainment": "Shows and spa",
        "comp": "Offers",
        "host": "Your visit",
        "greeting": "Hello",
        "identity_check": "Who is this",
        "off_topic": "Something else",
    },
    api_router=api_router,
    cli=cli,
    commands={"sms": sms_cli},
    demo_users=lazy("frontdesk.assistants.casino_host.build:demo_guests"),
    insecure_settings=lazy("frontdesk.assistants.casino_host.build:insecure_settings"),
)
