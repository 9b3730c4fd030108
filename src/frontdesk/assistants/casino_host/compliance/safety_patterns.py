"""Families the feature map adds to the seed's five layers: medical emergencies (item 12, seed §9.13 and §9.22) and self-harm (D27: the seed promises a deterministic self-harm check at
seed §9.16 but Layer 2 has none). Same rules as `patterns`: lower case, no accents, linear time.

Figures of speech a host hears every day stay out: "I'm dying to try the steakhouse", "that
show killed it", "the steak was to die for", "me muero de ganas". A self-harm pattern needs the
guest as the object ("kill myself") or an explicit wish not to live.
"""

from __future__ import annotations

from frontdesk.assistants.casino_host.compliance.matching import (
    EMERGENCY,
    SELF_HARM,
    Pattern,
    regex_pattern,
)


def _emergency(pattern_id: str, language: str | None, source: str) -> Pattern:
    return regex_pattern(EMERGENCY, pattern_id, language, source)


EMERGENCY_PATTERNS: tuple[Pattern, ...] = (
    _emergency("emergency_heart_attack", "en", r"\bheart\s+attack\b|\bcardiac\s+arrest\b"),
    _emergency("emergency_ambulance", "en", r"\bambulance\b|\bparamedics?\b"),
    # "911" is language-neutral ("llame al 911"); a room, suite or order number is not a call.
    _emergency(
        "emergency_911",
        None,
        r"(?<![#\d])(?<!room )(?<!suite )(?<!rm )(?<!no )(?<!number )\b9-?1-?1\b(?![\d-])",
    ),
    # "choked" alone is poker talk ("I choked at the final table").
    _emergency("emergency_choking", "en", r"\bchoking\b|\bchoked\s+on\b"),
    _emergency("emergency_seizure", "en", r"\bseizures?\b|\bconvulsing\b"),
    _emergency(
        "emergency_unresponsive",
        "en",
        r"\b(?:not|isn'?t|stopped|can'?t|cannot)\s+breath(?:e|ing)\b|\bunconscious\b"
        r"|\bunresponsive\b|\boverdos(?:e|ed|ing)\b|\bhaving\s+a\s+stroke\b(?!\s+of\b)",
    ),
    _emergency(
        "emergency_es_heart_attack",
        "es",
        r"\bataque\s+(?:al\s+corazon|cardiaco)\b|\binfarto\b",
    ),
    _emergency("emergency_es_ambulance", "es", r"\bambulancia\b|\bparamedicos?\b"),
    _emergency(
        "emergency_es_choking", "es", r"\b(?:ahogando|atragantando|atragantado|atragantada)\b"
    ),
    _emergency(
        "emergency_es_seizure",
        "es",
        r"\bconvulsion(?:es)?\b|\bconvulsionando\b|\bataque\s+epileptico\b",
    ),
    _emergency(
        "emergency_es_unresponsive",
        "es",
        r"\bno\s+respira\b|\binconsciente\b|\bsobredosis\b|\bderrame\s+cerebral\b",
    ),
)


def _self_harm(pattern_id: str, language: str, source: str) -> Pattern:
    return regex_pattern(SELF_HARM, pattern_id, language, source)


SELF_HARM_PATTERNS: tuple[Pattern, ...] = (
    _self_harm("self_harm_kill_myself", "en", r"\bkill(?:ing)?\s+my\s*self\b|\bkms\b"),
    _self_harm("self_harm_suicide", "en", r"\bsuicid(?:e|al)\b(?!\s+squad)"),
    _self_harm(
        "self_harm_end_life",
        "en",
        r"\b(?:end|ending|take|taking)\s+my\s+(?:own\s+)?life\b|\bend\s+it\s+all\b",
    ),
    _self_harm(
        "self_harm_want_to_die",
        "en",
        r"\b(?:i|i'm|im)\s+(?:just\s+|really\s+)?(?:want|wanna|going|gonna)\s+(?:to\s+)?die\b"
        r"|\bwish\s+i\s+(?:was|were)\s+dead\b",
    ),
    _self_harm(
        "self_harm_no_reason_to_live",
        "en",
        r"\bno\s+(?:reason|point)\s+(?:to|in)\s+(?:live|living|going\s+on)\b"
        r"|\bdon'?t\s+want\s+to\s+(?:live|be\s+alive)\b|\bbetter\s+off\s+(?:dead|without\s+me)\b",
    ),
    _self_harm(
        "self_harm_hurt_myself",
        "en",
        r"\b(?:hurt|harm|cut|hurting|harming|cutting)\s+my\s*self\b|\bself[- ]?harm",
    ),
    _self_harm(
        "self_harm_es_kill",
        "es",
        r"\bmatarme\b|\bme\s+(?:quiero|voy\s+a)\s+matar\b",
    ),
    _self_harm("self_harm_es_suicide", "es", r"\bsuicid(?:arme|io|a)\b"),
    _self_harm(
        "self_harm_es_end_life",
        "es",
        r"\b(?:quitarme|acabar\s+con|terminar\s+con)\s+(?:la|mi)\s+(?:propia\s+)?vida\b",
    ),
    _self_harm(
        "self_harm_es_want_to_die",
        "es",
        r"\b(?:quiero|me\s+quiero)\s+morir(?:me)?\b|\bno\s+quiero\s+(?:vivir|seguir\s+viviendo)\b",
    ),
    _self_harm("self_harm_es_hurt", "es", r"\bhacerme\s+dano\b|\blastimarme\b|\bcortarme\b"),
)
