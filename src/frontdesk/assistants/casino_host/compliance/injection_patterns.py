"""The seed's injection layer (seed §7.4, layer 1): a guest's text that tries to change
what the host is or what it may do. Same rules as `patterns`: lower case, no accents, linear
time."""

from __future__ import annotations

from frontdesk.assistants.casino_host.compliance.matching import INJECTION, Pattern, regex_pattern

# "act as a guide" is the guest asking the host to do its job (G2). The seed exempts these
# roles; translator/planner/assistant and a qualifier ("tour guide", "personal concierge")
# are the same request in other words.
_SERVICE_ROLE = (
    r"(?:(?:personal|private|tour|local|casino|vip|virtual)\s+)?"
    r"(?:guide|concierge|host|member|vip|guest|player|high\s+roller|translator|interpreter"
    r"|planner|assistant)\b"
)


def _injection(pattern_id: str, language: str, source: str) -> Pattern:
    return regex_pattern(INJECTION, pattern_id, language, source)


INJECTION_PATTERNS: tuple[Pattern, ...] = (
    # Seed form plus an optional determiner ("ignore your previous instructions", seed §9.18).
    _injection(
        "inj_ignore",
        "en",
        r"\bignore\s+(?:all\s+)?(?:of\s+)?(?:(?:the|your|these)\s+)?"
        r"(?:(?:previous|prior|above|earlier|original|system)\s+)?"
        r"(?:instructions?|prompts?|rules|guidelines|programming)\b",
    ),
    # "you're now" is the same phrase; the service roles are exempt as in inj_act_as.
    _injection(
        "inj_role_assume",
        "en",
        rf"\byou(?:\s+are|'re|re)\s+now\s+(?:a|an|the)\s+(?!{_SERVICE_ROLE})",
    ),
    # Seed: "system\s*:" anywhere, which blocks "our hotel system: wasn't showing my booking".
    # A role marker starts the message or a line, or is bracketed.
    _injection("inj_system", "en", r"(?:^|\n)\s*system\s*:|[\[<]\s*system\s*[\]>]"),
    # Seed: "\bDAN\b.*\bmode\b" (unbounded, and "Dan ... mode of transport"); bounded to three
    # words between, plus the expansion "do anything now".
    _injection(
        "inj_dan",
        "en",
        r"\bdan\s+(?:\w+\s+){0,2}mode\b|\bdan\s+(?:prompt|jailbreak)\b|\bdo\s+anything\s+now\b",
    ),
    _injection(
        "inj_pretend",
        "en",
        r"\bpretend\s+(?:to\s+be\s+|you(?:'re|\s+are)\s+)?(?:a|an|the)\b",
    ),
    # "disregard my previous text, wrong date" is a guest correcting itself, not an attack.
    _injection(
        "inj_disregard",
        "en",
        r"\bdisregard\s+(?:all\s+)?(?:previous|prior|your)\b"
        r"(?!\s+(?:\w+\s+)?(?:messages?|texts?|msgs?|emails?|requests?|bookings?"
        r"|reservations?|orders?|questions?|answers?)\b)",
    ),
    _injection(
        "inj_act_as",
        "en",
        rf"\bact\s+as\s+(?:if\s+)?(?:you(?:'re|\s+are)\s+)?(?:a|an|the)\s+(?!{_SERVICE_ROLE})",
    ),
    _injection(
        "inj_sms_forward",
        "en",
        r"\bforward\s+(?:this|all|my)\s+(?:messages?|texts?|sms|conversation|chat)\s+to\b",
    ),
    _injection(
        "inj_send_message",
        "en",
        r"\b(?:send|text|message)\s+(?:this|the\s+following)\s+to\s+\+?\d",
    ),
    _injection(
        "inj_override_number",
        "en",
        r"\b(?:change|switch|update)\s+(?:the\s+)?(?:phone|number|recipient)\s+to\b",
    ),
    _injection(
        "inj_reveal_prompt",
        "en",
        r"\b(?:show|reveal|print|output|repeat)\s+(?:your\s+)?(?:system|initial|original)\s+"
        r"(?:prompt|instructions?|message)",
    ),
    _injection(
        "inj_es_ignore", "es", r"\bignora\s+(?:las?\s+)?(?:instrucciones|reglas|anteriores)"
    ),
    _injection("inj_es_pretend", "es", r"\bfinge\s+(?:que\s+)?(?:eres|ser)\s+"),
    _injection("inj_es_disregard", "es", r"\b(?:olvida|descarta)\s+(?:todo\s+)?(?:lo\s+)?anterior"),
)
