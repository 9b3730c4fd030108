"""Local fakes of Twilio's and Telnyx's message APIs, strict about what the real ones require
(auth, content type, fields), for the sender adapters' tests. `fail_next` makes the next sends
of that provider answer with its own error shape."""

from __future__ import annotations

import base64
import itertools
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

SID, TOKEN, TELNYX_KEY = "AC" + "0" * 32, "twilio-token", "KEYtelnyx"


@dataclass
class FakeSmsApis:
    received: list[dict[str, Any]] = field(default_factory=list)
    fail_next: dict[str, int] = field(default_factory=lambda: {"twilio": 0, "telnyx": 0})
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    def app(self) -> Starlette:
        return Starlette(routes=[
            Route("/2010-04-01/Accounts/{sid}/Messages.json", self.twilio, methods=["POST"]),
            Route("/v2/messages", self.telnyx, methods=["POST"]),
        ])  # fmt: skip

    def _failing(self, provider: str) -> bool:
        if self.fail_next[provider] > 0:
            self.fail_next[provider] -= 1
            return True
        return False

    async def twilio(self, request: Request) -> JSONResponse:
        expected = "Basic " + base64.b64encode(f"{SID}:{TOKEN}".encode()).decode()
        if request.path_params["sid"] != SID or request.headers.get("authorization") != expected:
            return JSONResponse({"code": 20003, "message": "Authenticate", "status": 401}, 401)
        if not request.headers.get("content-type", "").startswith(
            "application/x-www-form-urlencoded"
        ):
            return JSONResponse({"code": 20001, "message": "form body expected"}, 400)
        form = dict(parse_qsl((await request.body()).decode()))
        if not {"To", "From", "Body"} <= form.keys():
            return JSONResponse({"code": 21604, "message": "A 'To' phone number is required."}, 400)
        if self._failing("twilio"):
            return JSONResponse({"code": 30003, "message": "Unreachable destination handset"}, 400)
        self.received.append({"provider": "twilio", **form})
        return JSONResponse({"sid": f"SM{next(self._ids):032d}", "status": "queued",
                             "num_segments": "1"}, 201)  # fmt: skip

    async def telnyx(self, request: Request) -> JSONResponse:
        if request.headers.get("authorization") != f"Bearer {TELNYX_KEY}":
            return JSONResponse(
                {"errors": [{"code": "10009", "title": "Authentication failed"}]}, 401
            )
        body = await request.json()
        if not {"from", "to", "text"} <= body.keys():
            return JSONResponse({"errors": [{"code": "10005", "detail": "missing field"}]}, 422)
        if self._failing("telnyx"):
            return JSONResponse(
                {"errors": [{"code": "40300", "title": "Blocked", "detail": "spam"}]}, 400
            )
        self.received.append({"provider": "telnyx", **body})
        return JSONResponse({"data": {"id": f"msg-{next(self._ids)}", "parts": 1,
                                      "cost": {"amount": "0.0040", "currency": "USD"}}})  # fmt: skip
