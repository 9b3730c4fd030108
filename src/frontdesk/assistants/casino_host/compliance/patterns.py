"""The seed's five deterministic layers (seed §7.4): 73 pattern ids, kept
exactly, 16 of them Spanish (D8).

Patterns are matched against `normalize_text` output (case-folded, accents removed, curly
quotes straightened, spaces collapsed), so they are written in lower case without accents.

Where a pattern differs from the seed's regex, the comment says why. Three kinds of change:
* linear time (see `matching`): unbounded `.*` gaps and `[\\w\\s]+\\s+` became bounded;
* guest wording the seed would block (feature-map G8): "What time is the show at the arena?"
  and "Have you seen the new menu?" matched the seed's `priv_is_member` and `priv_seen`;
* plain extensions of the same phrase ("cannot" beside "can't", "children" beside "child").
"""

from __future__ import annotations

from frontdesk.assistants.casino_host.compliance.injection_patterns import INJECTION_PATTERNS
from frontdesk.assistants.casino_host.compliance.matching import (
    AGE_VERIFY,
    BSA_AML,
    INJECTION,
    PATRON_PRIVACY,
    RESPONSIBLE_GAMING,
    Pattern,
    regex_pattern,
)

# Words a message about a thing, not a person, starts its subject with ("is the show at the
# arena", "is parking at the casino free"): a privacy subject never starts with one.
_NOT_A_PERSON = (
    r"(?:the|a|an|this|that|these|those|there|it|its|your|our|any|anything|anyone|anybody"
    r"|someone|somebody|something|everything|everyone|he|she|they|you|i|we|what|which|who"
    r"|how|where|when|why|breakfast|brunch|lunch|dinner|parking|valet|wifi|food"
    # Policies and amenities: "is smoking allowed in the casino" asks about no one.
    r"|smoking|vaping|smoke|vape|gambling|betting|allowed|permitted|open|available|included"
    r"|required|free|legal|ok|okay|possible|pets?|dogs?|pool|spa|gym|buffet|shuttle)\b"
)
# One to three words naming someone: "john smith", "my husband", "sarah".
_SUBJECT = rf"(?!{_NOT_A_PERSON})\w+(?:\s+(?!{_NOT_A_PERSON})\w+){{0,2}}"
# The seed's relations (priv_where_is) plus their obvious siblings. Children are left out on
# purpose: "where is my son" may be a lost child, which the privacy reply would not serve.
_RELATION = (
    r"(?:husband|wife|partner|friend|boss|ex|ex-wife|ex-husband|boyfriend|girlfriend"
    r"|fiance|fiancee)\b"
)
# A person-presence question must end the clause ("was tom at the casino last night?"), so
# "is valet parking at the hotel free" is not one.
_CLAUSE_END = (
    r"(?:\s+(?:right\s+now|now|tonight|today|yesterday|last\s+night|this\s+(?:week|weekend"
    r"|morning|afternoon|evening)))?\s*(?:[?.!,]|$)"
)


def _gaming(pattern_id: str, language: str, source: str) -> Pattern:
    return regex_pattern(RESPONSIBLE_GAMING, pattern_id, language, source)


RESPONSIBLE_GAMING_PATTERNS: tuple[Pattern, ...] = (
    _gaming("rg_problem", "en", r"gambling\s+problem"),
    _gaming("rg_problem_rev", "en", r"problem\s+gambl"),
    _gaming("rg_addicted", "en", r"addict(?:ed|ion)?\s+(?:to\s+)?gambl"),
    _gaming("rg_self_exclude", "en", r"self[- ]?exclu"),
    _gaming(
        "rg_cant_stop",
        "en",
        r"(?:can'?t|cant|cannot|can\s+not)\s+stop\s+(?:gambl|betting|losing\s+(?:money|at))",
    ),
    _gaming("rg_help", "en", r"help\s+(?:with|for)\s+(?:my\s+)?gambl"),
    _gaming("rg_helpline", "en", r"gambling\s+(?:help\s*line|hotline)"),
    _gaming("rg_compulsive", "en", r"compulsive\s+gambl"),
    _gaming("rg_addict_rev", "en", r"gambl(?:ing)?\s+addict"),
    _gaming("rg_lost_all", "en", r"lost\s+(?:all|everything)\s+(?:\w+\s+)?gambl"),
    _gaming("rg_ruin", "en", r"gambl(?:ing)?\s+(?:is\s+)?ruin"),
    _gaming("rg_ban_self", "en", r"(?:want|need)\s+to\s+(?:ban|exclude)\s+(?:myself|me)\b"),
    _gaming(
        "rg_limit",
        "en",
        r"limit\s+(?:on\s+|to\s+)?my\s+(?:gambl|play|betting)|set\s+(?:a\s+)?(?:gambling|betting)\s+limit",
    ),
    _gaming("rg_break", "en", r"take\s+a\s+break\s+from\s+gambl"),
    _gaming(
        "rg_spending",
        "en",
        r"spend(?:ing)?\s+too\s+much\s+(?:money\s+)?(?:at\s+(?:the\s+)?casino|on\s+gambl|gambl)",
    ),
    _gaming("rg_family", "en", r"(?:my\s+)?family\s+(?:says?|thinks?)\s+i\s+gambl"),
    _gaming("rg_cooloff", "en", r"cool(?:ing)?[- ]?off\s+period"),
    _gaming("rg_es_problem", "es", r"problema\s+(?:de|con\s+el)\s+juego"),
    _gaming("rg_es_addiction", "es", r"adiccion\s+al\s+juego"),
    _gaming("rg_es_cant_stop", "es", r"no\s+puedo\s+(?:parar|dejar)\s+de\s+(?:jugar|apostar)"),
    _gaming("rg_es_help", "es", r"ayuda\s+con\s+(?:el\s+)?juego"),
    _gaming("rg_es_compulsive", "es", r"juego\s+compulsivo"),
    _gaming("rg_debt", "en", r"(?:casino|gambling)\s+debts?\b"),
    # The seed requires "to|for" right after "borrow(ed)": "borrowed money to gamble".
    _gaming("rg_borrow", "en", r"borrow(?:ed|ing)?\s+(?:money\s+)?(?:to|for)\s+gambl"),
)


def _age(pattern_id: str, language: str, source: str, *, annotate_only: bool = False) -> Pattern:
    return regex_pattern(AGE_VERIFY, pattern_id, language, source, annotate_only=annotate_only)


# Gaming context: an age question only ends the turn when it is about the gaming floor.
_GAMING_PLACE = (
    r"(?:casino|gaming|floor|slots?|tables?|poker|blackjack|roulette|craps|baccarat"
    r"|sportsbook|bet|gambl)"
)

AGE_VERIFY_PATTERNS: tuple[Pattern, ...] = (
    # D7: a child in the party is a fact for the profile, not a reason to end the turn.
    _age(
        "age_my_child",
        "en",
        r"\b(?:my|our)\s+(?:\d{1,2}[- ]?(?:year|yr)s?[- ]?old|kids?|child(?:ren)?|teens?"
        r"|teenagers?|sons?|daughters?|minors?)\b",
        annotate_only=True,
    ),
    # Seed: "under 18" alone, which also catches "do kids under 18 stay free?". Under 21 and
    # "underage" are always about the legal age; "under 18"/"too young" need gaming context.
    _age(
        "age_underage",
        "en",
        rf"\bunder\s*(?:the\s+)?(?:legal\s+)?(?:age|21)\b|\bunderage\b"
        rf"|\b(?:under\s*18|too\s+young)\b[^.?!\n]{{0,40}}{_GAMING_PLACE}",
    ),
    # Seed: "can my kid go|enter|play", which also catches "can my kids go to the pool".
    _age(
        "age_can_kids",
        "en",
        rf"\bcan\s+(?:my\s+|our\s+)?(?:kid|child|children|teen|teenager|minor)s?\s+"
        rf"(?:gamble|(?:play|enter|go|come|sit)\b[^.?!\n]{{0,30}}{_GAMING_PLACE})",
    ),
    _age(
        "age_minimum",
        "en",
        r"\b(?:minimum|legal)\s+(?:gambling|gaming|casino)\s+age\b"
        r"|\b(?:minimum|legal)\s+age\s+(?:to|for)\s+(?:gambl|play|bet|gaming|enter\s+the\s+casino)",
    ),
    _age(
        "age_how_old",
        "en",
        r"\bhow\s+old\s+(?:do\s+you\s+have\s+to\s+be|to\s+(?:gamble|play|enter))",
    ),
    # Seed: "\bminors?\b.*\b(...)"; bounded to the same clause.
    _age(
        "age_minors",
        "en",
        r"\bminors?\b[^.?!\n]{0,60}\b(?:allow|enter|visit|casino|gambl|play)",
    ),
    _age(
        "age_es_minor",
        "es",
        r"\bmenor(?:es)?\s+de\s+edad\b|\btiene\s+(?:1[0-9]|[1-9])\s+anos\b[^.?!]{0,40}"
        r"\b(?:jugar|apostar|tragamonedas|mesas)\b",
    ),
    _age(
        "age_es_how_old",
        "es",
        r"\bcuantos\s+anos\s+(?:hay\s+que\s+tener|(?:se\s+necesitan\s+)?para\s+(?:entrar|jugar"
        r"|apostar))",
    ),
    _age(
        "age_es_child",
        "es",
        r"\b(?:mi|mis|nuestro|nuestra|nuestros|nuestras)\s+(?:hijos?|hijas?|ninos?|ninas?)\b",
        annotate_only=True,
    ),
)


def _aml(pattern_id: str, language: str, source: str) -> Pattern:
    return regex_pattern(BSA_AML, pattern_id, language, source)


BSA_AML_PATTERNS: tuple[Pattern, ...] = (
    _aml("aml_launder", "en", r"\b(?:money\s+)?launder"),
    _aml(
        "aml_structure",
        "en",
        r"\bstructur(?:e|ing)\s+(?:my\s+|the\s+|our\s+)?(?:cash|transactions?|deposits?|chips?"
        r"|buy[- ]?ins?|withdrawals?)",
    ),
    _aml("aml_avoid_report", "en", r"\bavoid\s+(?:the\s+)?(?:report|ctr|sar|detection|tax|irs)"),
    _aml("aml_ctr", "en", r"\bcurrency\s+transaction\s+report"),
    _aml("aml_sar", "en", r"\bsuspicious\s+activity\s+report"),
    _aml(
        "aml_under_10k",
        "en",
        r"\b(?:under|below|less\s+than)\s+\$?\s*10(?:[\s,.]?000\b|\s?k\b)",
    ),
    # Seed: "\bsmur(?:f|fing)\b", which blocks "the smurf themed slot machine". Smurfing is the
    # verb; "smurf" counts only with money as its object.
    _aml(
        "aml_smurfing",
        "en",
        r"\bsmurf(?:ing|ed)\b|\bsmurfs?\s+(?:the\s+|my\s+|our\s+|some\s+)?(?:chips|cash|money"
        r"|deposits?|transactions?|funds)",
    ),
    _aml("aml_cash_no_id", "en", r"\bcash\s+out\s+(?:without|no)\s+(?:an?\s+)?(?:id|report|track)"),
    _aml(
        "aml_hide_money",
        "en",
        r"\bhide\s+(?:my\s+|the\s+|our\s+)?(?:money|cash|income|winnings)\b",
    ),
    # Seed: ".*" between the two words in both orders; bounded to the same clause.
    _aml(
        "aml_untraceable",
        "en",
        r"\b(?:un)?traceable\b[^.?!\n]{0,60}\b(?:funds?|cash|money)\b",
    ),
    _aml(
        "aml_untraceable_rev",
        "en",
        r"\b(?:funds?|cash|money)\b[^.?!\n]{0,60}\b(?:un)?traceable\b",
    ),
    # "lavar dinero" is as common as the seed's "lavado de dinero".
    _aml("aml_es_launder", "es", r"\blava(?:do|r)\s+(?:de\s+|el\s+)?dinero\b"),
    # Seed: "estructurar de " followed by anything; money has to follow.
    _aml(
        "aml_es_structure",
        "es",
        r"\bestructura(?:r|cion)\s+(?:de\s+|mis\s+|los\s+|las\s+)?(?:depositos|efectivo"
        r"|transacciones|fichas|pagos|retiros)",
    ),
    _aml(
        "aml_es_hide",
        "es",
        r"\besconder\s+(?:mi\s+|mis\s+|el\s+)?(?:dinero|efectivo|ganancias)\b",
    ),
)


def _privacy(pattern_id: str, language: str, source: str) -> Pattern:
    return regex_pattern(PATRON_PRIVACY, pattern_id, language, source)


PATRON_PRIVACY_PATTERNS: tuple[Pattern, ...] = (
    # Seed: "\bis\s+[\w\s]+\s+(?:a\s+)?(?:member|here|at\s+the|...)", which matches "What time
    # is the show at the arena?" (G8) and backtracks polynomially. Here: a person-like subject
    # and a predicate only people have ("a member", "staying", "gambling"), or a relation
    # ("my husband") that is here / at the tables.
    _privacy(
        "priv_is_member",
        "en",
        rf"\b(?:is|was)\s+{_SUBJECT}\s+(?:still\s+)?(?:(?:a|an)\s+(?:member|guest|regular"
        rf"|player)\b|staying\b|gambling\b|checked\s+in\b|registered\b|playing\s+(?:here|right"
        rf"\s+now|slots|poker|blackjack|craps|roulette|baccarat|at\s+the\s+(?:tables?|casino"
        rf"|slots?))\b|here\s+(?:right\s+now|tonight|today|now)\b)"
        rf"|\b(?:is|was)\s+(?:my|our)\s+{_RELATION}\s+(?:here|at\s+the|in\s+the\s+casino"
        rf"|playing|gambling)",
    ),
    _privacy(
        "priv_where_is",
        "en",
        rf"\bwhere(?:\s+is|'s|s)\s+(?:my\s+)?{_RELATION}",
    ),
    # Seed: "have you seen" + anything, which matches "Have you seen the new menu?" (G8).
    _privacy(
        "priv_seen",
        "en",
        rf"\bhave\s+you\s+seen\s+(?:(?:my|our)\s+{_RELATION}|(?!{_NOT_A_PERSON})\w+\s+"
        rf"(?:\w+\s+)?(?:around|lately|recently|at\s+the\s+(?:casino|tables?|bar|resort"
        rf"|hotel)))",
    ),
    _privacy(
        "priv_at_casino",
        "en",
        rf"\b(?:is|was)\s+{_SUBJECT}\s+(?:at|in|visiting)\s+(?:the\s+)?(?:casino|resort"
        rf"|property|hotel){_CLAUSE_END}",
    ),
    _privacy(
        "priv_celebrity",
        "en",
        r"\b(?:celebrit(?:y|ies)|famous|star)\s+(?:here|visiting|spotted|seen)\b",
    ),
    # "looking for a player's club desk" is not a person search.
    _privacy(
        "priv_lookup",
        "en",
        r"\blook(?:ing)?\s+(?:up|for)\s+(?:a\s+|the\s+|this\s+)?(?:guest|patron|member|player)"
        r"\b(?!')",
    ),
    # "put us on the guest list" (a nightclub) and "my member status" are the guest's own.
    _privacy(
        "priv_info",
        "en",
        r"(?<!on the )(?<!to the )(?<!my )(?<!our )\b(?:guest|patron|member)\s+"
        r"(?:list|info|information|records?|status)\b",
    ),
    _privacy("priv_ssn", "en", r"\b(?:social\s+security|ssn)\b"),
    # Seed: "credit card" alone, which blocks "Do you take credit cards?".
    _privacy(
        "priv_credit_card",
        "en",
        r"\b(?:(?:credit|debit)\s+card\s+(?:number|info(?:rmation)?|details|digits)|card\s+"
        r"(?:number|digits)|cvv|ccv|cvc)\b",
    ),
    _privacy("priv_bank_account", "en", r"\bbank\s+account\s+(?:number|info)"),
    _privacy(
        "priv_es_where",
        "es",
        r"\b(?:donde\s+esta|en\s+que\s+habitacion\s+(?:se\s+)?(?:esta|hospeda|queda)\w*(?:\s+quedando)?)\s+(?:mi\s+)?(?:esposo|esposa|amigo|amiga|pareja|novio|novia)\b",
    ),
    _privacy(
        "priv_es_info",
        "es",
        r"\binformacion\s+(?:de\s+la|de|del)\s+(?:huesped|jugador|jugadora|miembro)\b",
    ),
)

SEED_LAYERS: dict[str, tuple[Pattern, ...]] = {
    INJECTION: INJECTION_PATTERNS,
    RESPONSIBLE_GAMING: RESPONSIBLE_GAMING_PATTERNS,
    AGE_VERIFY: AGE_VERIFY_PATTERNS,
    BSA_AML: BSA_AML_PATTERNS,
    PATRON_PRIVACY: PATRON_PRIVACY_PATTERNS,
}
SEED_PATTERN_IDS: tuple[str, ...] = tuple(
    pattern.pattern_id for layer in SEED_LAYERS.values() for pattern in layer
)
# PII requests among the privacy ids: they get PII_REQUEST_RESPONSE, not the privacy reply.
PII_REQUEST_IDS = frozenset({"priv_ssn", "priv_credit_card", "priv_bank_account"})
