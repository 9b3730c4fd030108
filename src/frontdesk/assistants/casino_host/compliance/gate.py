"""`check`: the casino host's compliance gate, run on every inbound message before any model.

Pure and deterministic: no model, no I/O; it logs pattern ids only, never the message.

Every layer runs and every hit is recorded (D6): the reply comes from the highest-priority
hit, while the side effects of all hits (escalation, the responsible-gaming flag, the security
alert, redaction) are reported together for the graph to act on.

Reply priority, highest first:
1. self_harm, 2. emergency: a life may be at stake and the reply is harmless whatever else the
   message says (the self-harm reply also gives 911, so it goes first);
3. injection, 4. responsible_gaming, 5. bsa_aml: the seed's order (D6);
6. pii: a shared SSN/card/password is blocked like a privacy request, and its reply is the
   more specific of the two;
7. patron_privacy, 8. age_verify: the seed's order (D6).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from frontdesk.assistants.casino_host.compliance import replies
from frontdesk.assistants.casino_host.compliance.language import choose_language, language_hint
from frontdesk.assistants.casino_host.compliance.matching import (
    AGE_VERIFY,
    BSA_AML,
    EMERGENCY,
    INJECTION,
    PATRON_PRIVACY,
    PII,
    RESPONSIBLE_GAMING,
    SELF_HARM,
    Pattern,
    deobfuscated_windows,
    matching_windows,
)
from frontdesk.assistants.casino_host.compliance.patterns import PII_REQUEST_IDS, SEED_LAYERS
from frontdesk.assistants.casino_host.compliance.pii import scan_pii
from frontdesk.assistants.casino_host.compliance.safety_patterns import (
    EMERGENCY_PATTERNS,
    SELF_HARM_PATTERNS,
)
from frontdesk.guardrails import audit_input

logger = logging.getLogger(__name__)

Outcome = Literal["pass", "blocked", "safety", "annotate"]
Severity = Literal["P0", "P1", "P2", "P3"]

REPLY_PRIORITY: tuple[str, ...] = (
    SELF_HARM,
    EMERGENCY,
    INJECTION,
    RESPONSIBLE_GAMING,
    BSA_AML,
    PII,
    PATRON_PRIVACY,
    AGE_VERIFY,
)
# Read at every call (tests replace a layer to exercise the fail-closed path). PII is not
# here: it is found by `scan_pii`, which also masks what it finds.
LAYER_PATTERNS: dict[str, tuple[Pattern, ...]] = {
    SELF_HARM: SELF_HARM_PATTERNS,
    EMERGENCY: EMERGENCY_PATTERNS,
    **SEED_LAYERS,
}
# Blocked: nothing of the message reaches a model. Safety: a fixed caring reply ends the turn.
_OUTCOME: dict[str, Outcome] = {
    INJECTION: "blocked",
    BSA_AML: "blocked",
    PII: "blocked",
    PATRON_PRIVACY: "blocked",
    RESPONSIBLE_GAMING: "safety",
    AGE_VERIFY: "safety",
    EMERGENCY: "safety",
    SELF_HARM: "safety",
}
# Guest escalations (convention X6, seed §7.25.2): SEV0/P0 is guest safety and BSA/AML;
# a gambling problem goes to a human host at once (P1, 30-minute acknowledgement); PII shared
# by text needs a host for secure handling (P2). Injection, privacy and age do not escalate.
_ESCALATION: dict[str, Severity] = {
    BSA_AML: "P0",
    EMERGENCY: "P0",
    SELF_HARM: "P0",
    RESPONSIBLE_GAMING: "P1",
    PII: "P2",
}
# Self-harm sets the permanent responsible-gaming flag too: no gaming incentive is ever sent
# to a guest who said this (the seed files self-harm with problem gambling, seed §9.16).
_SETS_RESPONSIBLE_GAMING = frozenset({RESPONSIBLE_GAMING, SELF_HARM})
# A hit of the learned layer is named for its layer: "learned_responsible_gaming".
LEARNED_PREFIX = "learned_"
# Redacted text stored when the gate itself failed and could not mask the message.
WITHHELD_TEXT = "[message withheld: compliance check failed]"
ERROR_LAYER = "error"
ERROR_PATTERN_ID = "gate_error"


@dataclass(frozen=True, slots=True)
class Hit:
    layer: str
    pattern_id: str


@dataclass(frozen=True, slots=True)
class ComplianceResult:
    """What the gate decided. `layer`/`pattern_id` name the winning hit (None on pass);
    `hits` lists every hit in priority order; `reply` is None unless the turn ends here."""

    outcome: Outcome
    layer: str | None
    pattern_id: str | None
    hits: tuple[Hit, ...]
    reply: str | None
    language: str
    escalate: Severity | None
    responsible_gaming: bool
    security_alert: bool
    redacted_text: str

    @property
    def ends_turn(self) -> bool:
        """True when the gate answered: the router and agents must not run."""
        return self.outcome in ("blocked", "safety")

    @property
    def pattern_ids(self) -> tuple[str, ...]:
        return tuple(hit.pattern_id for hit in self.hits)


def check(
    text: str,
    *,
    language: str | None = None,
    minimum_age: int = replies.DEFAULT_MINIMUM_AGE,
    state_helpline: str | None = None,
    learned: Sequence[str] = (),
) -> ComplianceResult:
    """Run every layer on `text`. `language` is the guest's profile language, used when the
    message itself does not say; `minimum_age` and `state_helpline` come from the casino's
    regulations (`regulations.yaml`); `learned`: the layers the learned layer flagged on the
    message's embedding (`learned.LearnedLayer.flags`), each a hit named `learned_<layer>`
    where no pattern of that layer matched."""
    if not isinstance(text, str):
        raise TypeError(f"expected the message text as str, got {type(text).__name__}")
    if isinstance(minimum_age, bool) or not isinstance(minimum_age, int) or minimum_age < 1:
        raise ValueError("minimum_age must be a positive int")
    hint = language_hint(language)
    try:
        return _check(text, hint, minimum_age, state_helpline, tuple(learned))
    except Exception as exc:  # noqa: BLE001 - fail closed on anything (D9)
        # The exception's text may quote the message; only its type is logged.
        logger.error("compliance gate failed closed: %s", type(exc).__name__)
        return failed_closed(text, hint)


def _check(
    text: str,
    hint: str | None,
    minimum_age: int,
    state_helpline: str | None,
    learned: tuple[str, ...],
) -> ComplianceResult:
    windows = matching_windows(text)
    matched = _matched_patterns(text, windows)
    pii_scan = scan_pii(text)
    hits = [Hit(pattern.layer, pattern.pattern_id) for pattern in matched]
    hits += [Hit(PII, pattern_id) for pattern_id in pii_scan.pattern_ids]
    if not any(pattern.layer == INJECTION for pattern in matched):
        # The product's own injection rules (every assistant's guard) catch takeovers the
        # seed's 14 patterns do not ("forget every rule you were given"); named core_<family>.
        audit = audit_input(windows[0])
        if audit.flagged:
            hits.append(Hit(INJECTION, f"core_{audit.family}"))
    # The learned layer's flags count where no pattern of theirs decided: a pattern's id says
    # more. An age annotation ("dinner for me and my kid") does not decide, so a learned age
    # flag on such a message still asks for the guest's age.
    decided = {hit.layer for hit in hits if hit.pattern_id not in _annotate_ids(matched)}
    for layer in learned:
        if layer not in REPLY_PRIORITY:
            raise ValueError(f"the learned layer flagged an unknown layer {layer!r}")
        if layer not in decided:
            hits.append(Hit(layer, f"{LEARNED_PREFIX}{layer}"))
    hits.sort(key=lambda hit: REPLY_PRIORITY.index(hit.layer))  # stable: keeps pattern order
    annotate_ids = _annotate_ids(matched)
    deciding = [hit for hit in hits if hit.pattern_id not in annotate_ids]
    layers = {hit.layer for hit in deciding}
    escalations = sorted(_ESCALATION[layer] for layer in layers if layer in _ESCALATION)
    winner = deciding[0] if deciding else (hits[0] if hits else None)
    languages = {pattern.pattern_id: pattern.language for pattern in matched}
    language = choose_language(
        languages.get(winner.pattern_id) if winner else None,
        languages.values(),
        windows[0],
        hint,
    )

    if winner is None:
        outcome: Outcome = "pass"
        reply = None
    elif not deciding:
        outcome = "annotate"  # D7: a child in the party is noted, the turn goes on
        reply = None
    else:
        outcome = _OUTCOME[winner.layer]
        reply = _reply(winner, language, minimum_age, state_helpline)
    result = ComplianceResult(
        outcome=outcome,
        layer=winner.layer if winner else None,
        pattern_id=winner.pattern_id if winner else None,
        hits=tuple(hits),
        reply=reply,
        language=language,
        escalate=escalations[0] if escalations else None,
        responsible_gaming=bool(layers & _SETS_RESPONSIBLE_GAMING),
        security_alert=EMERGENCY in layers,
        redacted_text=pii_scan.redacted_text,
    )
    if hits:
        logger.info(
            "compliance gate outcome=%s layer=%s pattern_id=%s hits=%s",
            result.outcome,
            result.layer,
            result.pattern_id,
            ",".join(result.pattern_ids),
        )
    return result


def _annotate_ids(matched: list[Pattern]) -> set[str]:
    return {pattern.pattern_id for pattern in matched if pattern.annotate_only}


def _matched_patterns(text: str, windows: tuple[str, ...]) -> list[Pattern]:
    matched = []
    for layer in REPLY_PRIORITY:
        for pattern in LAYER_PATTERNS.get(layer, ()):
            if any(pattern.search(window) for window in windows):
                matched.append(pattern)
    if not any(pattern.layer == INJECTION for pattern in matched):
        # Second look for disguised injections ("1gn0re pr3vious instructions"), as the core
        # guard does; other layers are not matched on this view.
        disguised = deobfuscated_windows(text)
        if disguised != windows:
            for pattern in LAYER_PATTERNS.get(INJECTION, ()):
                if any(pattern.search(window) for window in disguised):
                    matched.append(pattern)
    return matched


def _reply(winner: Hit, language: str, minimum_age: int, state_helpline: str | None) -> str:
    layer = winner.layer
    if layer == SELF_HARM:
        return replies.self_harm_reply(language)
    if layer == EMERGENCY:
        return replies.EMERGENCY_RESPONSE[language]
    if layer == INJECTION:
        return replies.INJECTION_RESPONSE[language]
    if layer == RESPONSIBLE_GAMING:
        return replies.responsible_gaming_reply(language, state_helpline)
    if layer == BSA_AML:
        return replies.BSA_AML_RESPONSE[language]
    if layer == PII:
        return replies.PII_SHARED_RESPONSE[language]
    if layer == PATRON_PRIVACY:
        if winner.pattern_id in PII_REQUEST_IDS:
            return replies.PII_REQUEST_RESPONSE[language]
        return replies.PATRON_PRIVACY_RESPONSE[language]
    if layer == AGE_VERIFY:
        return replies.age_reply(language, minimum_age)
    raise ValueError(f"no reply for layer {layer}")


def failed_closed(text: str, hint: str | None) -> ComplianceResult:
    """The gate's answer when it could not decide (D9): blocked, the generic safe reply, and
    the text masked for storage (or withheld when even masking failed)."""
    try:
        redacted = scan_pii(text).redacted_text
    except Exception:  # noqa: BLE001 - nothing unmasked may be stored either
        redacted = WITHHELD_TEXT
    language = hint or "en"
    return ComplianceResult(
        outcome="blocked",
        layer=ERROR_LAYER,
        pattern_id=ERROR_PATTERN_ID,
        hits=(),
        reply=replies.GENERIC_SAFE_RESPONSE[language],
        language=language,
        escalate=None,
        responsible_gaming=False,
        security_alert=False,
        redacted_text=redacted,
    )
