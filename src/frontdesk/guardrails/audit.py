"""`audit_input`: the deterministic prompt-injection check every assistant runs before any
LLM call. Pure and side-effect free (callers log `matched`), so the same function serves the
graph, the server and the evaluation harness."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from frontdesk.guardrails import heuristics
from frontdesk.guardrails.families import (
    INSTRUCTION_OVERRIDE,
    JAILBREAK_PERSONA,
    ROLE_MARKER,
    ROLEPLAY_COERCION,
    InjectionFamily,
)
from frontdesk.guardrails.normalize import deobfuscate, normalize_text
from frontdesk.guardrails.output_families import (
    FICTIONAL_FRAMING,
    FORCED_RESPONSE,
    PROMPT_EXTRACTION,
    SAFETY_BYPASS,
)
from frontdesk.guardrails.payload_families import OBFUSCATED_PAYLOAD, OUTPUT_MANIPULATION
from frontdesk.guardrails.takeover_families import (
    ACCESS_HIJACK,
    FIXED_ANSWER,
    POLISH_OVERRIDE,
    PREPROMPT_EXTRACTION,
    RULE_INJECTION,
    TOOL_IMPERSONATION,
)

# Checked in this order; the first family that matches names the result, so the more
# specific and more certain families come first.
FAMILIES: tuple[InjectionFamily, ...] = (
    ROLE_MARKER,
    INSTRUCTION_OVERRIDE,
    POLISH_OVERRIDE,
    JAILBREAK_PERSONA,
    PROMPT_EXTRACTION,
    PREPROMPT_EXTRACTION,
    ACCESS_HIJACK,
    RULE_INJECTION,
    FIXED_ANSWER,
    TOOL_IMPERSONATION,
    SAFETY_BYPASS,
    FORCED_RESPONSE,
    ROLEPLAY_COERCION,
    FICTIONAL_FRAMING,
    OUTPUT_MANIPULATION,
    OBFUSCATED_PAYLOAD,
)
FAMILY_NAMES: tuple[str, ...] = tuple(family.name for family in FAMILIES)

# Compiled once at import: auditing a message is then a handful of regex scans.
_COMPILED: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (family.name, family.compile()) for family in FAMILIES
)
# Detectors that are not word patterns (they read the raw text: case and symbols matter);
# they report under the obfuscation family.
_HEURISTICS: tuple[tuple[str, Callable[[str], str | None]], ...] = (
    (OBFUSCATED_PAYLOAD.name, heuristics.adversarial_suffix),
    (OBFUSCATED_PAYLOAD.name, heuristics.encoded_blob),
)
# Longest snippet kept in `matched`, so a log line stays a line.
_MAX_SNIPPET = 160


@dataclass(frozen=True)
class AuditResult:
    """Outcome of `audit_input`. `matched` is the snippet that triggered the flag, for logs
    (from the normalised text for patterns, from the visible raw text for the suffix and
    encoded-blob detectors); `normalized` is the whole normalised message."""

    flagged: bool
    family: str | None
    matched: str | None
    normalized: str


def _first_match(text: str) -> tuple[str, str] | None:
    for name, pattern in _COMPILED:
        match = pattern.search(text)
        if match:
            return name, match.group(0).strip()[:_MAX_SNIPPET]
    return None


def audit_input(text: str) -> AuditResult:
    """Flag `text` if it carries a known prompt-injection technique.

    Patterns are matched against the normalised text first; only if nothing matches is the
    aggressive de-obfuscated view (leetspeak undone, spaced letters joined) tried, and then
    the adversarial-suffix and encoded-blob detectors.
    """
    if not isinstance(text, str):
        raise TypeError(f"audit_input expects the user's message as str, got {type(text).__name__}")
    normalized = normalize_text(text)
    hit = _first_match(normalized)
    if hit is None:
        aggressive = deobfuscate(text)
        if aggressive != normalized:
            hit = _first_match(aggressive)
    if hit is None:
        for name, detector in _HEURISTICS:
            snippet = detector(text)
            if snippet:
                hit = name, snippet[:_MAX_SNIPPET]
                break
    if hit is None:
        return AuditResult(flagged=False, family=None, matched=None, normalized=normalized)
    family, matched = hit
    return AuditResult(flagged=True, family=family, matched=matched, normalized=normalized)
