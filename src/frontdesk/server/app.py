"""The HTTP API: chat over SSE, telecom chat as JSON, health probes, assistant info, web UI.

Build it with `create_app(settings)`; run it with `serve(settings)` or
`uvicorn --factory frontdesk.server.app:create_app`. There is deliberately no module-level
`app`: importing this module must not read the environment or load any model.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from sse_starlette import EventSourceResponse
from starlette.middleware.cors import CORSMiddleware

from frontdesk import __version__
from frontdesk.assistants.base import AssistantService
from frontdesk.config import Settings, get_settings
from frontdesk.server.admission import install_turn_admission, queue_status
from frontdesk.server.analyst import ANALYST, InternalChatRequest, SeedEventEncoder
from frontdesk.server.errors import ApiError, install_error_handlers
from frontdesk.server.middleware import (
    RATE_LIMITED_PATHS,
    ErrorHandlingMiddleware,
    RateLimitMiddleware,
    RequestLoggingMiddleware,
    SecurityHeadersMiddleware,
    request_id_of,
)
from frontdesk.server.schemas import (
    ChatRequest,
    TelecomChatRequest,
    TelecomChatResponse,
    read_chat_request,
    read_json_body,
)
from frontdesk.server.streaming import chat_sse_stream
from frontdesk.server.telecom import TELECOM, telecom_turn
from frontdesk.web import INDEX_HTML, STATIC_DIR

logger = logging.getLogger("frontdesk.server")

ServiceFactory = Callable[[Settings], Awaitable[Mapping[str, AssistantService]]]


async def _load_registered_services(settings: Settings) -> Mapping[str, AssistantService]:
    # Imported here so building the app (and its tests) never pulls in graphs or models.
    from frontdesk.assistants.registry import load_services

    return await load_services(settings)


def _services(request: Request) -> dict[str, AssistantService]:
    return getattr(request.app.state, "services", {})


def _settings(request: Request) -> Settings:
    return request.app.state.settings


def resolve_service(request: Request, name: str | None) -> AssistantService:
    """The named (or default) assistant, ready to answer; else a 404 or 503 ApiError."""
    settings = _settings(request)
    name = name or settings.assistant
    services = _services(request)
    service = services.get(name)
    if service is None:
        if getattr(request.app.state, "load_error", None) is not None:
            raise ApiError(
                503,
                "The assistants failed to load; the server is running in degraded mode. "
                "See the server log for the cause.",
                assistant=name,
            )
        known = sorted(services)
        raise ApiError(
            404,
            f"Unknown assistant '{name}'. Available: {', '.join(known) or 'none'}.",
            available=known,
        )
    if not service.ready and _safe_info(service).get("unavailable"):
        raise ApiError(
            503,
            f"The assistant '{name}' failed to start (for example, its database is not "
            "reachable); the other assistants keep serving. See the server log.",
            assistant=name,
        )
    if not service.ready:
        raise ApiError(
            503,
            f"The assistant '{name}' is not ready yet. Please try again shortly.",
            assistant=name,
            headers={"Retry-After": "5"},
        )
    return service


def _safe_info(service: AssistantService) -> dict[str, Any]:
    try:
        return dict(service.info())
    except Exception:
        logger.exception("info() failed for assistant %s", getattr(service, "name", "?"))
        return {}


def create_app(
    settings: Settings | None = None, *, service_factory: ServiceFactory | None = None
) -> FastAPI:
    """Build the API. `service_factory` loads the assistants (default: the registry)."""
    settings = settings or get_settings()
    load_services = service_factory or _load_registered_services

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = {}
        app.state.load_error = None
        try:
            app.state.services = dict(await load_services(settings))
            logger.info("assistants loaded: %s", ", ".join(sorted(app.state.services)) or "none")
        except Exception as exc:
            # Keep serving: /health reports degraded and /chat answers 503 instead of the
            # process dying in a restart loop.
            app.state.load_error = f"{type(exc).__name__}: {exc}"
            logger.exception("loading the assistants failed; serving in degraded mode")
        try:
            yield
        finally:
            for name, service in app.state.services.items():
                try:
                    await service.aclose()
                except Exception:
                    logger.exception("closing assistant %s failed", name)

    app = FastAPI(
        title="Frontdesk",
        version=__version__,
        description="Grounded, guarded AI assistants: chat over SSE.",
        lifespan=lifespan,
        # The interactive docs load Swagger UI from a CDN, which an offline server cannot
        # reach and the Content-Security-Policy forbids; /openapi.json stays available.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.services = {}
    app.state.load_error = None
    install_error_handlers(app)

    # add_middleware wraps what is already there, so the last added is the outermost.
    install_turn_admission(app, settings)  # inside the rate limit: a flood is limited first
    app.add_middleware(
        RateLimitMiddleware,
        per_minute=settings.rate_limit_chat_per_minute,
        paths=RATE_LIMITED_PATHS,
    )
    app.add_middleware(ErrorHandlingMiddleware)
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type", "X-Request-ID"],
            expose_headers=["X-Request-ID", "X-Response-Time-Ms", "Retry-After"],
        )
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(RequestLoggingMiddleware)

    _add_routes(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


def _add_routes(app: FastAPI) -> None:
    @app.post(
        "/chat",
        response_class=Response,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": ChatRequest.model_json_schema()}},
            }
        },
        responses={
            200: {
                "description": "metadata, token*|replace, sources, done (or error)",
                "content": {"text/event-stream": {}},
            },
            404: {"description": "Unknown assistant"},
            413: {"description": "Request body too large"},
            422: {"description": "Invalid request"},
            429: {"description": "Rate limited; see Retry-After"},
            503: {"description": "Assistant not ready, or too busy; see Retry-After"},
        },
        summary="Ask the assistant; the answer streams back as server-sent events.",
    )
    async def chat(request: Request) -> EventSourceResponse:
        body = await read_chat_request(request)
        service = resolve_service(request, body.assistant)
        thread_id = body.resolved_thread_id()
        stream = chat_sse_stream(
            service,
            body.message,
            thread_id,
            timeout_s=_settings(request).sse_timeout_s,
            request_id=request_id_of(request.scope),
            user_id=body.user_id,
        )
        return EventSourceResponse(stream)  # sets Cache-Control: no-store itself

    @app.post(
        "/telecom/chat",
        response_model=TelecomChatResponse,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": TelecomChatRequest.model_json_schema()}},
            }
        },
        responses={
            404: {"description": "The telecom assistant is not loaded"},
            413: {"description": "Request body too large"},
            422: {"description": "Invalid request"},
            429: {"description": "Rate limited; see Retry-After"},
            500: {"description": "The turn failed; the body says so in one sentence"},
            503: {"description": "Assistant not ready"},
            504: {"description": "The turn took longer than the configured timeout"},
        },
        summary="One telecom support turn (technical, billing or fallback), answered as JSON.",
    )
    async def telecom_chat(request: Request) -> TelecomChatResponse:
        body = await read_json_body(request, TelecomChatRequest)
        service = resolve_service(request, TELECOM)
        return await telecom_turn(
            service,
            body,
            timeout_s=_settings(request).sse_timeout_s,
            request_id=request_id_of(request.scope),
        )

    @app.post(
        "/internal/chat/stream",
        response_class=Response,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": InternalChatRequest.model_json_schema()}
                },
            }
        },
        responses={
            200: {
                "description": "data: route_decision, tool_start, token*, complete (or error)",
                "content": {"text/event-stream": {}},
            },
            404: {"description": "The analyst assistant is not loaded"},
            413: {"description": "Request body too large"},
            422: {"description": "Invalid request"},
            429: {"description": "Rate limited; see Retry-After"},
            503: {"description": "Assistant not ready"},
        },
        summary="Ask the data analyst (seed 002's internal API); events stream back as SSE.",
    )
    async def internal_chat_stream(request: Request) -> EventSourceResponse:
        body = await read_json_body(request, InternalChatRequest)
        service = resolve_service(request, ANALYST)
        stream = chat_sse_stream(
            service,
            body.input.message,
            body.conversation.id,
            timeout_s=_settings(request).sse_timeout_s,
            request_id=request_id_of(request.scope),
            user_id=body.conversation.user_id,
            encode=SeedEventEncoder(),
        )
        return EventSourceResponse(stream)

    @app.get("/health", summary="Overall status; always 200, the body says degraded.")
    async def health(request: Request) -> dict[str, Any]:
        settings = _settings(request)
        service = _services(request).get(settings.assistant)
        agent_ready = bool(service is not None and service.ready)
        property_loaded = bool(service is not None and _safe_info(service).get("document_count"))
        body: dict[str, Any] = {
            "status": "healthy" if agent_ready and property_loaded else "degraded",
            "version": __version__,
            "agent_ready": agent_ready,
            "property_loaded": property_loaded,
            "assistant": settings.assistant,
        }
        if request.app.state.load_error is not None:
            body["reason"] = "the assistants failed to load; see the server log"
        elif service is None:
            body["reason"] = f"the default assistant '{settings.assistant}' is not loaded"
        return body

    @app.get("/health/live", summary="Liveness: 200 while the process serves requests.")
    async def live() -> dict[str, str]:
        return {"status": "alive"}

    @app.get("/health/ready", summary="Readiness: 200 once the default assistant can answer.")
    async def ready(request: Request) -> dict[str, Any]:
        name = _settings(request).assistant
        service = _services(request).get(name)
        if service is None or not service.ready:
            raise ApiError(503, f"The assistant '{name}' is not ready.", assistant=name)
        return {"status": "ready", "assistant": name, "queue": queue_status(request.app)}

    @app.get("/property", summary="What the assistant knows about: name, location, categories.")
    async def property_info(
        request: Request, assistant: str | None = Query(default=None, min_length=1)
    ) -> dict[str, Any]:
        service = resolve_service(request, assistant)
        return {"assistant": service.name, **service.info()}

    @app.get("/assistants", summary="Every loaded assistant with its info.")
    async def assistants(request: Request) -> dict[str, Any]:
        return {
            "default": _settings(request).assistant,
            "assistants": [
                {"name": name, "ready": service.ready, "info": _safe_info(service)}
                for name, service in sorted(_services(request).items())
            ],
        }

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        # no-cache: the page is tiny and must match the API it talks to after an upgrade.
        return FileResponse(
            INDEX_HTML, media_type="text/html", headers={"Cache-Control": "no-cache"}
        )


def serve(settings: Settings | None = None) -> None:
    """Run the API with uvicorn on `settings.host:settings.port` until interrupted."""
    import uvicorn

    settings = settings or get_settings()
    configure_logging(settings)
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level.lower(),
        access_log=False,  # RequestLoggingMiddleware logs every request already
        proxy_headers=True,  # client IPs (rate limit, logs) from a trusted local proxy
    )


def configure_logging(settings: Settings) -> None:
    """Plain lines for the app's own logs; the access log's JSON lines are written bare."""
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    access = logging.getLogger("frontdesk.access")
    if not access.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        access.addHandler(handler)
    # One JSON object per line, not a second copy prefixed by the root format.
    access.propagate = False
