"""A client that goes away while it sends its request body is not a server error: against a
real uvicorn, a raw socket announces a Content-Length, sends part of the body and closes."""

from __future__ import annotations

import asyncio
import json
import logging
import socket

import pytest
import uvicorn

from frontdesk.server.app import create_app


@pytest.mark.parametrize("path", ["/chat", "/session/sign-in"])
async def test_a_body_cut_off_by_the_client_is_logged_as_a_disconnect_not_a_500(
    settings, service, factory_for, caplog, monkeypatch, path
):
    # uvicorn's own loggers stop at "uvicorn" by default; let them reach caplog too, so an
    # "Exception in ASGI application" would be seen.
    monkeypatch.setattr(logging.getLogger("uvicorn"), "propagate", True)
    caplog.set_level(logging.DEBUG)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(settings, service_factory=factory_for(service))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False)
    )
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.05)
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: 2000\r\n\r\n".encode()
            + b'{"message": "Is the pool '
        )
        await writer.drain()
        await asyncio.sleep(0.2)  # the app is reading the body now
        writer.close()
        await writer.wait_closed()

        def access_lines():
            return [
                json.loads(r.getMessage()) for r in caplog.records if r.name == "frontdesk.access"
            ]

        for _ in range(100):
            if access_lines():
                break
            await asyncio.sleep(0.05)
    finally:
        server.should_exit = True
        await task

    [access] = access_lines()
    assert access["path"] == path
    assert access["status"] == 499 and access["outcome"] == "client_disconnected"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not [r for r in caplog.records if r.exc_info]
    assert any(
        r.levelno == logging.INFO and "client disconnected before its request was read" in
        r.getMessage() for r in caplog.records
    )
    assert service.calls == []
