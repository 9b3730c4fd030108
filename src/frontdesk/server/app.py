"""The HTTP API: chat over SSE, health probes, assistant info, the web UI, and each assistant's
own routes (its plug-in's `api_router`).

Build it with `create_app(settings)`; run it with `serve(settings)` or
`uvicorn --factory frontdesk.server.app:create_app`. There is deliberately no module-level
`app`: importing this module must not read the environment or load any model.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import FileResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from sse_starlette import EventSourceResponse
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute

from frontdesk import __version__
from frontdesk.assistants.base import AssistantService, check_scope
from frontdesk.assistants.registry import served_plugins
from frontdesk.config import Settings, get_settings
from frontdesk.errors import FrontdeskError
from frontdesk.memory.threads import ThreadStore
from frontdesk.memory.tickets import TicketStore
from frontdesk.server.admission import install_turn_admission, queue_status
from frontdesk.server.conversations import router as conversations_router
from frontdesk.server.deps import (
    default_assistant,
    resolve_service,
    safe_info,
    services_of,
    settings_of,
)
from frontdesk.server.errors import ApiError, install_error_handlers
from frontdesk.server.identity import Identity, identity_of
from frontdesk.server.middleware import (
    ErrorHandlingMiddleware,
    RateLimitMiddleware,
    RequestLoggingMiddleware,
    SecurityHeadersMiddleware,
    request_id_of,
)
from frontdesk.server.schemas import (
    ChatRequest,
    error_responses,
    json_request_body,
    read_chat_request,
    turn_responses,
)
from frontdesk.server.startup_checks import refuse_insecure_start
from frontdesk.server.streaming import chat_sse_stream, sse_message
from frontdesk.server.tickets import router as tickets_router
from frontdesk.server.turns import RunningTurns, plan_turn
from frontdesk.web import INDEX_HTML, STATIC_DIR

logger = logging.getLogger("frontdesk.server")

ServiceFactory = Callable[[Settings], Awaitable[Mapping[str, AssistantService]]]


async def _load_registered_services(settings: Settings) -> Mapping[str, AssistantService]:
    # Imported here so building the app (and its tests) never pulls in graphs or models.
    from frontdesk.assistants.registry import load_services

    return await load_services(settings)


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
        app.state.threads = ThreadStore(settings.threads_path)
        app.state.tickets = TicketStore(settings.threads_path)
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
            app.state.threads.close()
            app.state.tickets.close()

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
    app.state.plugins = {plugin.name: plugin for plugin in served_plugins(settings)}
    refuse_insecure_start(settings, app.state.plugins.values())
    app.state.identity = Identity(settings)
    app.state.turns = RunningTurns()
    install_error_handlers(app)

    _add_routes(app)
    app.include_router(conversations_router)
    app.include_router(tickets_router)
    routers = [p.api_router() for p in app.state.plugins.values() if p.api_router is not None]
    for router in routers:
        app.include_router(router)

    # add_middleware wraps what is already there, so the last added is the outermost.
    turn_paths = chat_paths([*app.router.routes, *(r for router in routers for r in router.routes)])
    install_turn_admission(app, settings, turn_paths)  # inside the rate limit: floods hit it first
    app.add_middleware(
        RateLimitMiddleware, per_minute=settings.rate_limit_chat_per_minute, paths=turn_paths
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

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


def chat_paths(routes: Iterable[BaseRoute]) -> list[str]:
    """The routes that run a turn (tagged "chat", the core's and the assistants' alike): they
    cost model time, so one rate-limit bucket per client covers them all."""
    return [r.path for r in routes if isinstance(r, APIRoute) and "chat" in (r.tags or [])]


def _add_routes(app: FastAPI) -> None:
    @app.post(
        "/chat",
        tags=["chat"],
        response_class=Response,
        openapi_extra=json_request_body(ChatRequest),
        responses=turn_responses(
            _200={
                "description": "metadata, token*|replace, sources, done (or error)",
                "content": {"text/event-stream": {}},
            }
        ),
        summary="Ask the assistant; the answer streams back as server-sent events.",
    )
    async def chat(request: Request) -> EventSourceResponse:
        body = await read_chat_request(request)
        name = body.assistant or default_assistant(request)
        # A key holder may say which end user it acts for; nobody else may.
        caller = identity_of(request).caller(request, end_user=body.user_id, assistant=name)
        if body.scope is not None:
            try:  # before the turn starts: a scope the assistant lacks is not there (404)
                check_scope(resolve_service(request, name), body.scope)
            except FrontdeskError as error:
                raise ApiError(404, str(error)) from None
        plan = await plan_turn(
            request,
            caller,
            name,
            body.resolved_thread_id(),
            body.message,
            regenerate=body.regenerate,
        )
        encode = plan.with_public_metadata(sse_message)
        stream = chat_sse_stream(
            plan.service,
            body.message,
            plan.thread_key,
            timeout_s=settings_of(request).sse_timeout_s,
            request_id=request_id_of(request.scope),
            user_id=plan.user_id,
            scope=body.scope,
            encode=encode,
        )
        turns = request.app.state.turns.run((name, plan.thread_key), stream, encode=encode)
        return EventSourceResponse(turns)  # sets Cache-Control: no-store itself

    @app.get("/health", summary="Overall status; always 200, the body says degraded.")
    async def health(request: Request) -> dict[str, Any]:
        name = default_assistant(request)
        service = services_of(request).get(name)
        agent_ready = bool(service is not None and service.ready)
        property_loaded = bool(service is not None and safe_info(service).get("document_count"))
        body: dict[str, Any] = {
            "status": "healthy" if agent_ready and property_loaded else "degraded",
            "version": __version__,
            "agent_ready": agent_ready,
            "property_loaded": property_loaded,
            "assistant": name,
        }
        if request.app.state.load_error is not None:
            body["reason"] = "the assistants failed to load; see the server log"
        elif service is None:
            body["reason"] = f"the default assistant '{name}' is not loaded"
        return body

    @app.get("/health/live", summary="Liveness: 200 while the process serves requests.")
    async def live() -> dict[str, str]:
        return {"status": "alive"}

    @app.get(
        "/health/ready",
        summary="Readiness: 200 once the default assistant can answer.",
        responses=error_responses(503),
    )
    async def ready(request: Request) -> dict[str, Any]:
        name = default_assistant(request)
        service = services_of(request).get(name)
        if service is None or not service.ready:
            raise ApiError(503, f"The assistant '{name}' is not ready.", assistant=name)
        return {"status": "ready", "assistant": name, "queue": queue_status(request.app)}

    @app.get(
        "/property",
        summary="What the assistant knows about: name, location, categories.",
        responses=error_responses(404, 422, 503),
    )
    async def property_info(
        request: Request, assistant: str | None = Query(default=None, min_length=1)
    ) -> dict[str, Any]:
        service = resolve_service(request, assistant)
        return {"assistant": service.name, **service.info()}

    @app.get("/assistants", summary="Every loaded assistant: what it is, its info, its UI.")
    async def assistants(request: Request) -> dict[str, Any]:
        plugins = request.app.state.plugins
        services = services_of(request)
        # In the plug-ins' display order; a service a test loads without a plug-in goes last.
        names = [n for n in plugins if n in services] + sorted(set(services) - set(plugins))
        listed = []
        for name in names:
            service = services[name]
            about = plugins[name].public() if name in plugins else {"name": name, "title": name}
            listed.append({**about, "ready": service.ready, "info": safe_info(service)})
        return {"default": default_assistant(request), "assistants": listed}

    @app.get("/ui/assistants/{name}.js", include_in_schema=False)
    async def assistant_ui(request: Request, name: str) -> FileResponse:
        plugin = request.app.state.plugins.get(name)
        if plugin is None or plugin.web_module is None or not plugin.web_module.is_file():
            raise ApiError(404, "No web UI module for that assistant.")
        return FileResponse(
            plugin.web_module, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
        )

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
    uvicorn.run(create_app(settings), **uvicorn_options(settings))


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the app. X-Forwarded-For is believed only from the configured
    proxies (`FRONTDESK_TRUSTED_PROXIES`); by default from nobody."""
    proxies = [p.strip() for p in settings.trusted_proxies if p.strip()]
    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level.lower(),
        "access_log": False,  # RequestLoggingMiddleware logs every request already
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": ",".join(proxies) if proxies else None,
    }


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
