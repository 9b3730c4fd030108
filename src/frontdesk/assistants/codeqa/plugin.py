"""Code QA as a Frontdesk plug-in (entry point `frontdesk.assistants:codeqa`).

Kept light: the index, the service and the graph are imported only when they are built.
"""

from __future__ import annotations

from pathlib import Path

from frontdesk.assistants.plugin import AssistantPlugin, lazy

HERE = Path(__file__).parent


def cli():
    from frontdesk.assistants.codeqa.cli import app

    return app


PLUGIN = AssistantPlugin(
    name="codeqa",
    title="Code questions",
    description="Questions about a code repository, answered from its code with citations.",
    order=40,
    build_service=lazy("frontdesk.assistants.codeqa.service:build_service"),
    open_knowledge=lazy("frontdesk.assistants.codeqa.service:open_knowledge"),
    cli=cli,
    eval_dir=HERE / "data" / "eval",
    web_module=HERE / "web" / "codeqa.js",
    eval_targets={
        "retrieval": lazy("frontdesk.assistants.codeqa.suites:retrieval_target"),
        "answers": lazy("frontdesk.assistants.codeqa.suites:answers_target"),
    },
    topics={
        "locate": "Where it is defined",
        "usages": "What uses it",
        "explain": "How it works",
        "history_request": "This conversation",
        "follow_up": "More on the last answer",
        "blocked": "Outside what I answer",
    },
)
