"""What is served: the assistants (`/assistants`, `/property`), each assistant's web UI
module, the web UI's page itself, and the interactive API docs (`/docs`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse

from frontdesk.server.deps import (
    default_assistant,
    resolve_service,
    safe_info,
    services_of,
    starting,
)
from frontdesk.server.errors import ApiError
from frontdesk.server.schemas import error_responses
from frontdesk.web import DOCS_HTML, INDEX_HTML

router = APIRouter()


@router.get(
    "/property",
    summary="What the assistant knows about: name, location, categories.",
    responses=error_responses(404, 422, 503),
)
async def property_info(
    request: Request, assistant: str | None = Query(default=None, min_length=1)
) -> dict[str, Any]:
    service = resolve_service(request, assistant)
    return {"assistant": service.name, **service.info()}


@router.get("/assistants", summary="Every loaded assistant: what it is, its info, its UI.")
async def assistants(request: Request) -> dict[str, Any]:
    plugins = request.app.state.plugins
    services = services_of(request)
    # In the plug-ins' display order, those still starting too (the web UI says so and asks
    # again); a service a test loads without a plug-in goes last.
    names = [n for n in plugins if n in services or starting(request, n)]
    names += sorted(set(services) - set(plugins))
    listed = []
    for name in names:
        about = plugins[name].public() if name in plugins else {"name": name, "title": name}
        service = services.get(name)
        if service is None:
            listed.append({**about, "ready": False, "starting": True, "info": {}})
        else:
            listed.append({**about, "ready": service.ready, "info": safe_info(service)})
    return {"default": default_assistant(request), "assistants": listed}


@router.get("/ui/assistants/{name}.js", include_in_schema=False)
async def assistant_ui(request: Request, name: str) -> FileResponse:
    plugin = request.app.state.plugins.get(name)
    if plugin is None or plugin.web_module is None or not plugin.web_module.is_file():
        raise ApiError(404, "No web UI module for that assistant.")
    return FileResponse(
        plugin.web_module, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    # no-cache: the page is tiny and must match the API it talks to after an upgrade.
    return FileResponse(INDEX_HTML, media_type="text/html", headers={"Cache-Control": "no-cache"})


@router.get("/docs", include_in_schema=False)
async def api_docs() -> FileResponse:
    # Swagger UI over /openapi.json, from files served here (`/docs-assets`), not a CDN.
    return FileResponse(DOCS_HTML, media_type="text/html", headers={"Cache-Control": "no-cache"})
