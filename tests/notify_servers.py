"""Fixtures: a real local SMTP server (aiosmtpd) and a real local HTTP server taking webhook
posts (tests/conftest.py offers them to every test)."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller


@dataclass
class Inbox:
    mails: list[tuple[list[str], Message]] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope):
        self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@dataclass
class Hook:
    """What a webhook receiver got; `status` and `delay_s` set how it answers."""

    posts: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    status: int = 200
    delay_s: float = 0.0
    url: str = ""

    def bodies(self) -> list[dict]:
        return [json.loads(body) for _headers, body in self.posts]


@pytest.fixture
def hook() -> Iterator[Hook]:
    state = Hook()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            state.posts.append((dict(self.headers.items()), body))
            time.sleep(state.delay_s)
            self.send_response(state.status)
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}/services/T0/B0/secretpath"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
