"""Screenshot of the real concierge (embedded models) in Debian's Chromium: docs/screenshot.png.

    .venv/bin/python scripts/screenshot.py [--out docs/screenshot.png]

Starts `frontdesk serve` on a free 127.0.0.1 port with the installed models and the existing
index, asks two questions in the web UI, waits for each streamed answer, and saves the page.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ["What time does Seasons Buffet open?", "Is there a comedy club?"]
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(url: str, seconds: float = 300) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/health/ready", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(1)
    raise SystemExit("the server did not become ready")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshot.png")
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "FRONTDESK_CHECKPOINTER": "memory", "FRONTDESK_LOG_LEVEL": "WARNING"}
    server = subprocess.Popen(
        [sys.executable, "-m", "frontdesk.cli", "serve", "--port", str(port)], cwd=ROOT, env=env
    )
    try:
        wait_ready(url)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 800}, device_scale_factor=2)
            page.goto(url + "/")
            for question in QUESTIONS:
                box = page.get_by_label("Your message")
                box.fill(question)
                box.press("Enter")
                last = page.locator('#messages li[data-role="assistant"]').last
                expect(last).to_have_attribute("data-status", "done", timeout=180_000)
            page.screenshot(path=str(args.out))
            browser.close()
        print(f"saved {args.out}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
