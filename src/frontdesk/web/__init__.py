"""The web chat UI: static HTML, CSS and JS modules, served by the API at `/`; and the
interactive API docs at `/docs`.

No build step and no CDN: the files in `static/` are what the browser gets. Swagger UI's own
files come from a PyPI package (`fastapi-offline`, only its static folder is used), so the docs
work on a server with no internet.
"""

from importlib.resources import files
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
INDEX_HTML = STATIC_DIR / "index.html"
DOCS_HTML = STATIC_DIR / "docs.html"
SWAGGER_UI_DIR = Path(str(files("fastapi_offline") / "static"))
