"""The casino host's own HTTP routes: the SMS providers' inbound and delivery-report webhooks
(issue 19).

`POST /sms/inbound/{provider}` (simulator, twilio, telnyx) takes no API key: each provider
proves the request is its own by its signature (channel/signatures.py). The body is read raw,
because the signature covers the exact bytes.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from frontdesk.assistants.casino_host.channel.deps import ThisGateway
from frontdesk.assistants.casino_host.channel.simulator_routes import router as simulator_router
from frontdesk.plugin_api import (
    error_responses,
)

router = APIRouter(tags=["sms"])
router.include_router(simulator_router)


@router.post(
    "/sms/inbound/{provider}",
    summary="An SMS provider's inbound-message webhook (signed); the reply is sent by SMS.",
    responses={
        200: {"description": "processed (with the reply's SMS parts) or duplicate"},
        **error_responses(
            400,
            401,
            404,
            422,
            503,
            _400="A body that is not the provider's, or a missing or stale timestamp",
            _401="A missing or wrong signature (no API key is used: the signature is the proof)",
            _404="An unknown provider, or a number no casino texts from",
            _503="Storage unavailable: nothing was recorded, the provider sends it again",
        ),
    },
)
async def sms_inbound(provider: str, request: Request, gateway: ThisGateway) -> JSONResponse:
    raw = await request.body()
    outcome = await gateway.handle(provider, str(request.url), dict(request.headers), raw)
    return JSONResponse(outcome.body, status_code=outcome.status)


@router.post(
    "/sms/status/{provider}",
    summary="An SMS provider's delivery-report webhook (signed): delivered, or failed and retried.",
    responses={
        200: {"description": "the message's status after the report (or noted, unknown_message)"},
        **error_responses(
            400,
            401,
            404,
            422,
            503,
            _400="A body that is not the provider's delivery report",
            _401="A missing or wrong signature",
            _404="An unknown provider, or a number no casino texts from",
            _503="Storage unavailable: the provider retries",
        ),
    },
)
async def sms_status(provider: str, request: Request, gateway: ThisGateway) -> JSONResponse:
    raw = await request.body()
    outcome = await gateway.handle_receipt(provider, str(request.url), dict(request.headers), raw)
    return JSONResponse(outcome.body, status_code=outcome.status)
