"""A real Frontdesk server in its own process, for tests that need one (killed mid-turn,
fuzzed over HTTP): the registry's assistants with the scripted model and hash embeddings,
the model's words `FRONTDESK_TEST_TOKEN_DELAY_S` apart, so a turn lasts as long as a test needs.

Tests use `scripted_server(data_dir, ...)`; run as a script, this file is that server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

SRC = Path(__file__).resolve().parents[2] / "src"


@contextmanager
def scripted_server(
    data_dir: Path, *, token_delay_s: float = 0.0, **settings: str
) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """(base URL, process, its log file) of a ready server on a free port; `settings` are
    more FRONTDESK_* variables (`assistants='["concierge"]'`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")]),
        "FRONTDESK_DATA_DIR": str(data_dir),
        "FRONTDESK_PORT": str(port),
        "FRONTDESK_LLM_PROVIDER": "scripted",
        "FRONTDESK_EMBEDDINGS_PROVIDER": "hash",
        "FRONTDESK_ROUTER_LLM": "never",
        "FRONTDESK_TEST_TOKEN_DELAY_S": str(token_delay_s),
        **{f"FRONTDESK_{name.upper()}": value for name, value in settings.items()},
    }
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"server-{port}.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, __file__], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None:
                raise AssertionError(f"the server exited: {log.read_text()[-3000:]}")
            try:
                # Ready, and no assistant still starting (they are built in the background).
                listed = httpx.get(f"{url}/assistants", timeout=2).json()["assistants"]
                if httpx.get(f"{url}/health/ready", timeout=2).status_code == 200 and not any(
                    a.get("starting") for a in listed
                ):
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the server was not ready in 180 s: {log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield url, process, log
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _serve() -> None:
    import frontdesk.llm
    from frontdesk.config import get_settings
    from frontdesk.llm.scripted import ScriptedChatModel
    from frontdesk.server.app import serve

    build_chat_model = frontdesk.llm.build_chat_model
    delay_s = float(os.environ.get("FRONTDESK_TEST_TOKEN_DELAY_S", "0"))

    def slowed_chat_model(settings):
        model = build_chat_model(settings)
        if isinstance(model, ScriptedChatModel):
            model.token_delay_s = delay_s
        return model

    frontdesk.llm.build_chat_model = slowed_chat_model
    serve(get_settings())


if __name__ == "__main__":
    _serve()
