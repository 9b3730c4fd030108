"""What `/health` and `/health/ready` check beyond the assistants: the database the server
keeps conversations in, and the chat model's runtime. Each check is bounded in time
(`CHECK_TIMEOUT_S`), so a probe never hangs on a dead database, and says what it saw in words
an operator can act on, with no address or password in them.

An embedded model is checked in process: its weights installed and verified (a `stat`, not a
hash) and, once an assistant has loaded it, loaded. A model behind `FRONTDESK_LLM_BASE_URL`
(an OpenAI-compatible server: vLLM, llama.cpp's server) must answer `GET /models`. A hosted
provider without a base URL is not called (each call costs money): it counts as configured
when its key is set.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import httpx
from sqlalchemy import text

from frontdesk.config import Settings
from frontdesk.memory.threads import ThreadStore
from frontdesk.model_files import INSTALL_COMMAND, is_verified

CHECK_TIMEOUT_S = 2.0


class CheckFailed(Exception):
    """A check's failure, said in words safe to show."""


@dataclass(frozen=True)
class Check:
    """One dependency as a probe saw it."""

    name: str
    ok: bool
    detail: str

    def public(self) -> dict[str, str | bool]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


async def _timed(name: str, probe: Callable[[], Awaitable[str]]) -> Check:
    started = time.perf_counter()
    try:
        async with asyncio.timeout(CHECK_TIMEOUT_S):
            detail = await probe()
    except TimeoutError:
        return Check(name, False, f"no answer within {CHECK_TIMEOUT_S:g} s")
    except CheckFailed as failed:
        return Check(name, False, str(failed))
    # Any other failure is the check's answer; only its type is shown (its text may hold a
    # host, a path or a password).
    except Exception as exc:  # noqa: BLE001
        return Check(name, False, f"failed ({type(exc).__name__})")
    return Check(name, True, f"{detail} in {(time.perf_counter() - started) * 1000:.0f} ms")


async def database_check(threads: ThreadStore) -> Check:
    def select_one() -> str:
        with threads.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        return f"{threads.engine.dialect.name} answered"

    return await _timed("database", lambda: asyncio.to_thread(select_one))


async def model_check(settings: Settings, loaded: bool) -> Check:
    if settings.llm_base_url:
        url = settings.llm_base_url.rstrip("/") + "/models"

        async def models_listed() -> str:
            async with httpx.AsyncClient(timeout=CHECK_TIMEOUT_S) as client:
                (await client.get(url)).raise_for_status()
            return "the model server answered"

        return await _timed("model", models_listed)
    if settings.llm_provider == "embedded":

        async def weights() -> str:
            from frontdesk.llm.weights import MODELS

            model = MODELS.get(settings.llm_model)
            if model is None:
                raise CheckFailed(f"unknown embedded model {settings.llm_model!r}")
            path = model.path(settings.models_dir)
            if not await asyncio.to_thread(is_verified, path, model.sha256):
                raise CheckFailed(f"embedded model not installed: run `{INSTALL_COMMAND}`")
            return "embedded model loaded" if loaded else "embedded model installed, not loaded yet"

        return await _timed("model", weights)
    if settings.llm_provider == "scripted":
        return Check("model", True, "scripted model (tests and demos)")
    configured = settings.llm_api_key is not None
    detail = f"{settings.llm_provider} configured" if configured else "no API key configured"
    return Check("model", configured, detail)
