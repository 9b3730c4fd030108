"""The validate -> retry -> fallback loop shared by assistants that check their own answers.

At most one retry: a first failure returns RETRY (and feedback for the second attempt), a second
failure returns FAIL, which the graph routes to its fallback. When the validator itself breaks,
the first attempt passes (a flaky validator must not block every answer) but a retry fails
closed (an answer that already failed once is not waved through).
"""

from __future__ import annotations

from typing import Any, Literal

PASS: Literal["PASS"] = "PASS"
RETRY: Literal["RETRY"] = "RETRY"
FAIL: Literal["FAIL"] = "FAIL"
MAX_RETRIES = 1


def validation_outcome(passed: bool, retry_count: int, reason: str = "") -> dict[str, Any]:
    """State updates for a validator verdict."""
    if passed:
        return {"validation_result": PASS, "retry_feedback": None}
    if retry_count < MAX_RETRIES:
        return {"validation_result": RETRY, "retry_count": retry_count + 1, "retry_feedback": reason}
    return {"validation_result": FAIL, "retry_feedback": reason}


def validator_error_outcome(retry_count: int, error: str) -> dict[str, Any]:
    """State updates when the validator could not give a verdict."""
    if retry_count == 0:
        return {"validation_result": PASS, "retry_feedback": None}
    return {"validation_result": FAIL, "retry_feedback": f"validator unavailable on retry: {error}"}
