"""Writes a tiny assistant package, `echo_assistant`, as an installed distribution would be:
the package itself plus a `.dist-info` folder whose entry_points.txt declares it in the
`frontdesk.assistants` group. Put the folder on sys.path and the registry finds it."""

from __future__ import annotations

from pathlib import Path

PLUGIN_SOURCE = '''
from pathlib import Path

import typer
from fastapi import APIRouter

from frontdesk.assistants.base import Answer, ChatEvent
from frontdesk.assistants.plugin import AssistantPlugin


class EchoService:
    name = "echo"
    ready = True

    def info(self):
        return {"name": "Echo desk", "document_count": 0}

    async def stream(self, message, thread_id, *, user_id=None):
        yield ChatEvent("metadata", {"thread_id": thread_id})
        yield ChatEvent("token", {"content": "echo: " + message})
        yield ChatEvent("sources", {"sources": []})
        yield ChatEvent("done", {})

    async def ask(self, message, thread_id, *, user_id=None):
        return Answer("echo: " + message, "echo", 1.0, [], None, thread_id)

    async def aclose(self):
        return None


async def build_service(settings, models):
    return EchoService()


router = APIRouter()


@router.get("/echo/ping")
async def ping():
    return {"pong": True}


cli_app = typer.Typer()


@cli_app.command()
def shout(word: str):
    print(word.upper())


@cli_app.command()
def quiet():
    print("shh")


PLUGIN = AssistantPlugin(
    name="echo",
    title="Echo desk",
    build_service=build_service,
    order=-1,
    api_router=lambda: router,
    cli=lambda: cli_app,
    web_module=Path(__file__).parent / "echo.js",
    topics={"echo": "Repeating you"},
)
'''


def write_echo_package(root: Path) -> Path:
    """The package and its metadata under `root`; returns `root` (the sys.path entry)."""
    package = root / "echo_assistant"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "plugin.py").write_text(PLUGIN_SOURCE)
    (package / "echo.js").write_text("export function renderExtras() {}\n")
    info = root / "echo_assistant-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-assistant\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[frontdesk.assistants]\necho = echo_assistant.plugin:PLUGIN\n"
    )
    return root
