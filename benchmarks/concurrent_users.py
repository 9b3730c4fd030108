"""Ten people asking the concierge at once, with the real embedded model, over real HTTP.

    PYTHONPATH=src .venv/bin/python -m benchmarks.concurrent_users [--users 10] [--rounds 1]
    .venv/bin/python -m benchmarks.run --only users

Starts `frontdesk serve` on 127.0.0.1 (concierge only, conversations in memory, a fresh data
dir, the installed models), waits until it is ready, warms it with one turn, then lets `--users`
clients each ask `--rounds` questions one after another, all clients at once. Per turn it
records the time to the first token (or the first `replace`, for an answer that is not
streamed) and to `done`, and whether the stream ended in `error` (the target is none), in an
answer out of time (`sources.out_of_time`), or was turned away with 503. Also the deepest
queue place any turn was told. The machine is shared: figures vary from run to run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import quantiles

# Questions guests ask, each about something in the shipped guide (one per user, in turn).
QUESTIONS = [
    "What time does Seasons Buffet open?",
    "Is there a steakhouse at Mohegan Sun?",
    "How much does parking cost?",
    "Where can I get a massage?",
    "What shows are at the arena this month?",
    "Do you have a pool at the hotel?",
    "When is check-out?",
    "Where can I eat sushi?",
    "Is there a shuttle from the airport?",
    "What time does the casino close?",
]
READY_TIMEOUT_S = 600  # ingestion with MiniLM on two busy cores can take minutes


def _pct(values: list[float], q: int) -> float | None:
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return quantiles(values, n=100, method="inclusive")[q - 1]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _events(text: str) -> list[tuple[str, dict]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = None, []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if name is not None:
            events.append((name, json.loads("\n".join(data) or "{}")))
    return events


async def _turn(client, question: str, user: int) -> dict:
    started = time.perf_counter()
    first: float | None = None
    buffer, names, deepest = "", [], 0
    out_of_time = False
    headers = {"X-Request-ID": f"bench-user-{user}-{time.monotonic_ns()}"}
    async with client.stream("POST", "/chat", json={"message": question}, headers=headers) as r:
        if r.status_code != 200:
            return {"status": r.status_code, "events": [], "ttft_s": None, "done_s": None}
        async for chunk in r.aiter_text():
            # sse-starlette ends lines with CRLF; a CR and its LF may arrive in two chunks.
            buffer = (buffer + chunk).replace("\r\n", "\n")
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                for name, data in _events(block + "\n\n"):
                    names.append(name)
                    if name in ("token", "replace") and first is None and data.get("content"):
                        first = time.perf_counter() - started
                    if name == "progress" and data.get("stage") == "queue":
                        deepest = max(deepest, int(data.get("position") or 0))
                    if name == "sources" and data.get("out_of_time"):
                        out_of_time = True
    return {
        "status": 200,
        "events": names,
        "ttft_s": first,
        "done_s": time.perf_counter() - started if names and names[-1] == "done" else None,
        "out_of_time": out_of_time,
        "deepest_place": deepest,
    }


def _server_env(data_dir: Path, models_dir: Path | None, provider: str) -> dict[str, str]:
    env = {
        **os.environ,
        "FRONTDESK_LLM_PROVIDER": provider,
        "FRONTDESK_ASSISTANT": "concierge",
        "FRONTDESK_ASSISTANTS": '["concierge"]',
        "FRONTDESK_CHECKPOINTER": "memory",
        "FRONTDESK_ROUTER_LLM": "never",
        "FRONTDESK_DATA_DIR": str(data_dir),
        "FRONTDESK_RATE_LIMIT_CHAT_PER_MINUTE": "1000000",
        "FRONTDESK_LOG_LEVEL": "WARNING",
    }
    if models_dir is not None:
        env["FRONTDESK_MODELS_DIR"] = str(models_dir)
    return env


async def run_users(users: int = 10, rounds: int = 1, provider: str = "embedded") -> dict:
    """`provider="scripted"` checks the harness in seconds; the figures need `embedded`."""
    import httpx

    from frontdesk.config import Settings

    models_dir = Settings(_env_file=None).models_dir
    with tempfile.TemporaryDirectory(prefix="frontdesk-users-") as tmp_name:
        data = Path(tmp_name)
        port = _free_port()
        server = subprocess.Popen(  # noqa: ASYNC220 - started once, before any timing
            [sys.executable, "-m", "frontdesk.cli", "serve", "--port", str(port)],
            env=_server_env(data, models_dir, provider),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            timeout = httpx.Timeout(None, connect=10)
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=timeout) as c:
                await _wait_ready(c, server)
                await _turn(c, "Hello, what restaurants are there?", -1)  # load the model

                async def user(n: int) -> list[dict]:
                    asked = [QUESTIONS[(n + r * users) % len(QUESTIONS)] for r in range(rounds)]
                    return [await _turn(c, question, n) for question in asked]

                started = time.perf_counter()
                per_user = await asyncio.gather(*(user(n) for n in range(users)))
                elapsed = time.perf_counter() - started
                await asyncio.sleep(1.0)  # a finished call's worker thread lets go just after
                ready = (await c.get("/health/ready")).json()
        finally:
            server.terminate()
            server.wait(timeout=60)
    turns = [t for turns in per_user for t in turns]
    ttft = [t["ttft_s"] for t in turns if t["ttft_s"] is not None]
    done = [t["done_s"] for t in turns if t["done_s"] is not None]
    rounded = lambda v: None if v is None else round(v, 2)
    return {
        "users": users,
        "rounds": rounds,
        "turns": len(turns),
        "errors": sum(1 for t in turns if "error" in t["events"]),
        "turned_away_503": sum(1 for t in turns if t["status"] == 503),
        "not_done": sum(1 for t in turns if t["done_s"] is None),
        "out_of_time_answers": sum(1 for t in turns if t.get("out_of_time")),
        "deepest_queue_place": max((t.get("deepest_place", 0) for t in turns), default=0),
        "ttft_p50_s": rounded(_pct(ttft, 50)),
        "ttft_p95_s": rounded(_pct(ttft, 95)),
        "done_p50_s": rounded(_pct(done, 50)),
        "done_p95_s": rounded(_pct(done, 95)),
        "wall_s": round(elapsed, 1),
        "queue_after": ready.get("queue"),
    }


async def _wait_ready(client, server: subprocess.Popen) -> None:
    import httpx

    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with {server.returncode} before it was ready")
        try:
            if (await client.get("/health/ready")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(1.0)
    raise RuntimeError(f"the server was not ready within {READY_TIMEOUT_S} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=1, help="questions per user, in sequence")
    parser.add_argument("--provider", default="embedded", help="scripted: check the harness")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run_users(args.users, args.rounds, args.provider)), indent=2))


if __name__ == "__main__":
    main()
