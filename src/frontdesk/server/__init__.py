"""The HTTP API (FastAPI): `create_app` builds it, `serve` runs it with uvicorn."""

from frontdesk.server.app import create_app, serve

__all__ = ["create_app", "serve"]
