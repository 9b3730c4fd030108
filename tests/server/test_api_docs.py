"""/docs is served from the server's own files: an offline server still has its API docs, and
the page keeps to the Content-Security-Policy (no inline script, no other origin)."""

from __future__ import annotations

import re

from frontdesk.web import DOCS_HTML


async def test_docs_page_and_its_files_are_served(client):
    page = await client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    scripts = re.findall(r'<script src="([^"]+)"></script>', page.text)
    styles = re.findall(r'<link rel="stylesheet" href="([^"]+)">', page.text)
    assert scripts == ["/docs-assets/swagger-ui-bundle.js", "/static/js/api-docs.js"]
    for path in [*scripts, *styles]:
        served = await client.get(path)
        assert served.status_code == 200, path
        assert len(served.content) > 100, path
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_the_docs_page_has_no_inline_script():
    html = DOCS_HTML.read_text()
    assert "<script>" not in html and "http" not in html
