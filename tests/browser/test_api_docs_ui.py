"""The interactive API docs at /docs, as a person opens them: Swagger UI from the server's own
files (no CDN, so they work offline), every route listed, and no script or CSP error."""

from __future__ import annotations

import pytest

from .conftest import DESKTOP, expect

pytestmark = pytest.mark.browser


def test_the_docs_list_the_routes_with_no_error(browser, live_server, problems):
    context = browser.new_context(**DESKTOP)
    page = context.new_page()
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: msg.type == "error" and problems.append(f"console: {msg.text}"))
    outside: list[str] = []
    page.on("request", lambda r: r.url.startswith(live_server.url) or outside.append(r.url))
    try:
        page.goto(f"{live_server.url}/docs")
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("Frontdesk")
        paths = page.locator(".opblock-summary-path")
        expect(paths.first).to_be_visible()
        shown = set(paths.all_inner_texts())
        assert {"/chat", "/chat/cancel", "/health/ready", "/tickets"} <= {
            p.replace("\u200b", "") for p in shown
        }
        assert outside == []  # nothing from a CDN
    finally:
        context.close()
