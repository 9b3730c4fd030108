"""Time from `frontdesk serve` to `/health/live`, to `/health/ready`, and to every assistant
ready, over several starts, with the longest pause in `/health/live` while they build.

    PYTHONPATH=src .venv/bin/python -m benchmarks.startup [--starts 20] [--data-dir DIR]

Each start runs the real server in a new process on a free port (the embedded models,
`--data-dir` as its data dir: warm indexes there give the usual restart; an empty one, the
first start) and polls `/health/live` every 50 ms from the moment the process is launched.
A probe that takes longer than 2 s counts as a failure, as an orchestrator's would. The
server is stopped as soon as every assistant is ready. Issue 35's bar: `/health/live` p95 < 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from benchmarks.run import pct

PROBE_TIMEOUT_S = 2.0
GIVE_UP_S = 900.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def one_start(data_dir: Path) -> dict[str, float | None]:
    port = free_port()
    env = {**os.environ, "FRONTDESK_DATA_DIR": str(data_dir), "FRONTDESK_PORT": str(port)}
    began = time.perf_counter()
    server = subprocess.Popen(
        [sys.executable, "-m", "frontdesk.cli", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    live = ready = everything = None
    last_answer = None
    longest_pause = 0.0
    failed_probes = 0
    try:
        while time.perf_counter() - began < GIVE_UP_S and server.poll() is None:
            asked = time.perf_counter()
            try:
                answered = httpx.get(f"{url}/health/live", timeout=PROBE_TIMEOUT_S).status_code
            except httpx.TimeoutException:
                failed_probes += 1
                answered = None
            except httpx.HTTPError:
                answered = None  # not listening yet
            now = time.perf_counter()
            if answered == 200:
                if live is None:
                    live = now - began
                if last_answer is not None:
                    longest_pause = max(longest_pause, now - last_answer)
                last_answer = now
                if ready is None and httpx.get(f"{url}/health/ready", timeout=5).status_code == 200:
                    ready = now - began
                listed = httpx.get(f"{url}/assistants", timeout=5).json()["assistants"]
                if listed and all(a["ready"] for a in listed):
                    everything = time.perf_counter() - began
                    break
            time.sleep(max(0.0, 0.05 - (time.perf_counter() - asked)))
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
    return {
        "live_s": live,
        "ready_s": ready,
        "all_ready_s": everything,
        "longest_live_pause_s": round(longest_pause, 2),
        "live_probes_over_2s": failed_probes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--data-dir", type=Path, default=Path(".frontdesk"))
    args = parser.parse_args()
    runs = []
    for number in range(1, args.starts + 1):
        runs.append(one_start(args.data_dir))
        print(f"start {number}: {json.dumps(runs[-1])}", flush=True)
    def percentile(key: str, q: int) -> float | None:
        values = [r[key] for r in runs if r[key] is not None]
        return round(pct(values, q), 2) if values else None

    summary = {
        "starts": len(runs),
        "live_p50_s": percentile("live_s", 50),
        "live_p95_s": percentile("live_s", 95),
        "ready_p50_s": percentile("ready_s", 50),
        "all_ready_p50_s": percentile("all_ready_s", 50),
        "longest_live_pause_s": max(r["longest_live_pause_s"] for r in runs),
        "live_probes_over_2s": sum(r["live_probes_over_2s"] for r in runs),
    }
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
