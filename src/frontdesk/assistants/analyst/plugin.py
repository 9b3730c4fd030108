"""The data analyst as a Frontdesk plug-in (entry point `analyst`).

Kept light: the service, its routes and the SQL evaluation import the graph only when used.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, EvalTarget, lazy

HERE = Path(__file__).parent


def sql_target(settings, models) -> EvalTarget:
    from frontdesk.assistants.analyst.evaluation import sql_target as target

    built = target(settings, models)
    return EvalTarget(built, close=built.close)


def cli():
    from frontdesk.assistants.analyst.cli import app

    return app


def api_router():
    from frontdesk.assistants.analyst.api import router

    return router


PLUGIN = AssistantPlugin(
    name="analyst",
    title="Data analyst",
    description="Questions about your business data, answered with SQL you can inspect.",
    order=20,
    build_service=lazy("frontdesk.assistants.analyst.service:build_service"),
    open_knowledge=lazy("frontdesk.assistants.analyst.service:open_knowledge"),
    build_router=lazy("frontdesk.assistants.analyst.service:build_router"),
    eval_dir=HERE / "data" / "eval",
    eval_targets={"sql": sql_target},
    api_router=api_router,
    cli=cli,
    web_module=HERE / "web" / "analyst.js",
    topics={
        "sql": "Your data",
        "rag": "How to use the app",
        "general": "General questions",
    },
)
