"""The casino host's compliance gate (seed §7.4, feature map WP2 items 6-12): deterministic
regex layers run on every inbound SMS before any model.

    >>> from frontdesk.assistants.casino_host.compliance import check
    >>> result = check("Tengo un problema de juego")
    >>> result.outcome, result.pattern_id, result.language
    ('safety', 'rg_es_problem', 'es')

`check` runs all layers (injection, responsible gaming, age, BSA/AML, patron privacy, plus
PII, medical emergency and self-harm), records every hit and answers from the highest-priority
one; see `gate` for the priority and the side-effect flags.
"""

from frontdesk.assistants.casino_host.compliance.evaluation import (
    HELDOUT_EVAL_FILE,
    LABELS,
    SHIPPED_EVAL_FILE,
    evaluate,
    load_rows,
)
from frontdesk.assistants.casino_host.compliance.gate import (
    REPLY_PRIORITY,
    ComplianceResult,
    Hit,
    Outcome,
    Severity,
    check,
    failed_closed,
)
from frontdesk.assistants.casino_host.compliance.matching import (
    AGE_VERIFY,
    BSA_AML,
    CHECKED_CHARS,
    EMERGENCY,
    INJECTION,
    PATRON_PRIVACY,
    PII,
    RESPONSIBLE_GAMING,
    SELF_HARM,
)
from frontdesk.assistants.casino_host.compliance.patterns import SEED_LAYERS, SEED_PATTERN_IDS
from frontdesk.assistants.casino_host.compliance.pii import PII_PATTERN_IDS, scan_pii
from frontdesk.assistants.casino_host.compliance.safety_patterns import (
    EMERGENCY_PATTERNS,
    SELF_HARM_PATTERNS,
)

__all__ = [
    "AGE_VERIFY",
    "BSA_AML",
    "CHECKED_CHARS",
    "EMERGENCY",
    "EMERGENCY_PATTERNS",
    "HELDOUT_EVAL_FILE",
    "INJECTION",
    "LABELS",
    "PATRON_PRIVACY",
    "PII",
    "PII_PATTERN_IDS",
    "REPLY_PRIORITY",
    "RESPONSIBLE_GAMING",
    "SEED_LAYERS",
    "SEED_PATTERN_IDS",
    "SELF_HARM",
    "SELF_HARM_PATTERNS",
    "SHIPPED_EVAL_FILE",
    "ComplianceResult",
    "Hit",
    "Outcome",
    "Severity",
    "check",
    "evaluate",
    "failed_closed",
    "load_rows",
    "scan_pii",
]
