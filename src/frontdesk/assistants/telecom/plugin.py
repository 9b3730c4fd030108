"""The telecom support assistant as a Frontdesk plug-in (entry point `telecom`).

Kept light: the service, its routes and commands import the graph only when used.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, EvalTarget

HERE = Path(__file__).parent


async def build_service(settings, models):
    from frontdesk.assistants.telecom.service import build_service as build

    return await build(settings, models)


def open_knowledge(settings, models, **options):
    from frontdesk.assistants.telecom.service import open_knowledge as open_

    return open_(settings, models, **options)


def build_router(settings, models, knowledge, **options):
    from frontdesk.assistants.telecom.service import build_router as build

    return build(settings, models, knowledge, **options)


def no_context_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.telecom.service import gate_target, open_knowledge

    knowledge, _ = open_knowledge(settings, models)
    return EvalTarget(gate_target(knowledge))


def tools_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.telecom.service import tools_target as target

    return EvalTarget(target(settings, models))


def api_router():
    from frontdesk.assistants.telecom.api import router

    return router


def cli():
    from frontdesk.assistants.telecom.cli import app

    return app


def demo_users(settings) -> list[dict[str, str]]:
    from frontdesk.assistants.telecom.service import demo_customers

    return demo_customers(settings)


PLUGIN = AssistantPlugin(
    name="telecom",
    title="Telecom support",
    description="Internet and mobile troubleshooting, plans, invoices and refunds (EN/PL).",
    order=10,
    build_service=build_service,
    open_knowledge=open_knowledge,
    build_router=build_router,
    eval_dir=HERE / "data" / "eval",
    eval_targets={"no_context": no_context_target, "tools": tools_target},
    # Retrieval is evaluated at the depth the agent retrieves (recall@8).
    retrieval_top_k=8,
    api_router=api_router,
    cli=cli,
    web_module=HERE / "web" / "telecom.js",
    topics={
        "technical": "Troubleshooting",
        "billing": "Plans and billing",
        "unknown": "Something else",
    },
    demo_users=demo_users,
)
