"""The HTTP API: chat over SSE, health probes, assistant info, the web UI, and each assistant's
own routes (its plug-in's `api_router`).

Build it with `create_app(settings)`; run it with `serve(settings)` or
`uvicorn --factory frontdesk.server.app:create_app`. There is deliberately no module-level
`app`: importing this module must not read the environment or load any model.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.routing import BaseRoute

from frontdesk import __version__
from frontdesk.assistants.base import AssistantService
from frontdesk.assistants.registry import served_plugins
from frontdesk.config import Settings, get_settings
from frontdesk.memory.threads import ThreadStore
from frontdesk.memory.tickets import TicketStore
from frontdesk.server.admission import turn_admission
from frontdesk.server.errors import install_error_handlers
from frontdesk.server.identity import Identity
from frontdesk.server.middleware import (
    ErrorHandlingMiddleware,
    RateLimitMiddleware,
    RequestLoggingMiddleware,
    SecurityHeadersMiddleware,
)
from frontdesk.server.routes import assistants, chat, conversations, health, tickets
from frontdesk.server.startup_checks import refuse_insecure_start
from frontdesk.server.turns import RunningTurns
from frontdesk.web import STATIC_DIR, SWAGGER_UI_DIR

logger = logging.getLogger("frontdesk.server")

ServiceFactory = Callable[[Settings], Awaitable[Mapping[str, AssistantService]]]


def _registry_loader(app: FastAPI) -> ServiceFactory:
    """The registry's assistants, each served as soon as it is built (the rest still starting)."""

    async def load(settings: Settings) -> Mapping[str, AssistantService]:
        # Imported here so building the app (and its tests) never pulls in graphs or models.
        from frontdesk.assistants.registry import load_services
        from frontdesk.runtime import Models

        # Kept on the app: /health tells whether the chat model is loaded yet.
        app.state.models = Models(settings)
        return await load_services(
            settings, app.state.models, on_loaded=app.state.services.__setitem__
        )

    return load


async def _load_assistants(app: FastAPI, settings: Settings, load: ServiceFactory) -> None:
    """Build the assistants after the server is up: `/health/live` answers at once, and an
    assistant still starting answers 503 with Retry-After (deps.resolve_service)."""
    # One turn of the loop first, so the server takes its first requests before any build.
    await asyncio.sleep(0)
    try:
        app.state.services.update(await load(settings))
        logger.info("assistants loaded: %s", ", ".join(sorted(app.state.services)) or "none")
    except Exception as exc:
        # Keep serving: /health reports degraded and /chat answers 503 instead of the
        # process dying in a restart loop.
        app.state.load_error = f"{type(exc).__name__}: {exc}"
        app.state.services.clear()  # those built before the failure were closed with it
        logger.exception("loading the assistants failed; serving in degraded mode")
    finally:
        app.state.loaded.set()


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[FastAPI]:
    """The app's lifespan, past the point where every assistant has loaded (or failed to):
    for code that runs the app in process and asks it right away (tests, benchmarks)."""
    async with app.router.lifespan_context(app):
        await app.state.loaded.wait()
        yield app


def create_app(
    settings: Settings | None = None, *, service_factory: ServiceFactory | None = None
) -> FastAPI:
    """Build the API. `service_factory` loads the assistants (default: the registry)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = {}
        app.state.load_error = None
        app.state.loaded = asyncio.Event()
        app.state.threads = ThreadStore(settings.threads_path)
        app.state.tickets = TicketStore(settings.threads_path)
        load = service_factory or _registry_loader(app)
        loading = asyncio.create_task(_load_assistants(app, settings, load))
        try:
            yield
        finally:
            if not loading.done():  # stopped while still starting
                loading.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await loading
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
        # FastAPI's own docs pages load Swagger UI from a CDN, which an offline server cannot
        # reach and the Content-Security-Policy forbids: /docs is served from local files
        # (routes/assistants.py).
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.services = {}
    app.state.load_error = None
    app.state.loaded = asyncio.Event()
    app.state.plugins = {plugin.name: plugin for plugin in served_plugins(settings)}
    refuse_insecure_start(settings, app.state.plugins.values())
    app.state.identity = Identity(settings)
    app.state.turns = RunningTurns()
    install_error_handlers(app)

    # The core's areas, then each assistant's own routes.
    routers = [area.router for area in (chat, health, assistants, conversations, tickets)]
    routers += [p.api_router() for p in app.state.plugins.values() if p.api_router is not None]
    for router in routers:
        app.include_router(router)
    turn_paths = chat_paths(route for router in routers for route in router.routes)
    # add_middleware wraps what is already there: added innermost first.
    for middleware in reversed(middleware_in_request_order(app, settings, turn_paths)):
        app.add_middleware(middleware.cls, *middleware.args, **middleware.kwargs)

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.mount("/docs-assets", StaticFiles(directory=SWAGGER_UI_DIR), name="docs-assets")
    return app


def middleware_in_request_order(
    app: FastAPI, settings: Settings, turn_paths: list[str]
) -> list[Middleware]:
    """Every middleware, in the order a request passes through it (a response, the reverse)."""
    cors = Middleware(
        CORSMiddleware,
        allow_origins=settings.allowed_origins,
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type", "X-Request-ID"],
        expose_headers=["X-Request-ID", "X-Response-Time-Ms", "Retry-After"],
    )
    return [
        # The request id and the access-log line: outermost, so they see every response.
        Middleware(RequestLoggingMiddleware),
        # CSP, nosniff, frame options: on every response, errors included.
        Middleware(SecurityHeadersMiddleware),
        *([cors] if settings.allowed_origins else []),
        # An exception below becomes one JSON 500 with the request id, never a traceback.
        Middleware(ErrorHandlingMiddleware),
        # Floods on the turn routes are refused before they take a place in the queue.
        Middleware(
            RateLimitMiddleware, per_minute=settings.rate_limit_chat_per_minute, paths=turn_paths
        ),
        # Turns in progress are bounded (503 with Retry-After beyond); each ends in the journal.
        turn_admission(app, settings, turn_paths),
    ]


def chat_paths(routes: Iterable[BaseRoute]) -> list[str]:
    """The routes that run a turn (tagged "chat", the core's and the assistants' alike): they
    cost model time, so one rate-limit bucket per client covers them all."""
    return [r.path for r in routes if isinstance(r, APIRoute) and "chat" in (r.tags or [])]


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
