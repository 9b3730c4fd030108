"""The web chat UI: static HTML, CSS and one JS file, served by the API at `/`.

No build step and no CDN: the files in `static/` are what the browser gets.
"""

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
INDEX_HTML = STATIC_DIR / "index.html"
