"""The telecom support assistant as a Frontdesk plug-in (entry point `telecom`).

Kept light: the service, its routes and commands import the graph only when used.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, EvalTarget, lazy

HERE = Path(__file__).parent


def no_context_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.telecom.service import gate_target, open_knowledge

    knowledge, _ = open_knowledge(settings, models)
    return EvalTarget(gate_target(knowledge))


def tools_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.telecom.service import tools_target as target

    return EvalTarget(target(settings, models))


def refunds_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.telecom.refund_suite import refunds_target as target

    return target(settings, models)


def api_router():
    from frontdesk.assistants.telecom.api import router

    return router


def cli():
    from frontdesk.assistants.telecom.cli import app

    return app


PLUGIN = AssistantPlugin(
    name="telecom",
    title="Telecom support",
    description="Internet and mobile troubleshooting, plans, invoices and refunds (EN/PL).",
    order=10,
    build_service=lazy("frontdesk.assistants.telecom.service:build_service"),
    open_knowledge=lazy("frontdesk.assistants.telecom.service:open_knowledge"),
    build_router=lazy("frontdesk.assistants.telecom.service:build_router"),
    eval_dir=HERE / "data" / "eval",
    # The first of its own is what `frontdesk eval telecom` runs. `refunds` measures whole
    # refund conversations (refund_suite.py); its default set is the one written apart.
    eval_targets={
        "no_context": no_context_target,
        "tools": tools_target,
        "refunds": refunds_target,
    },
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
    demo_users=lazy("frontdesk.assistants.telecom.service:demo_customers"),
)
