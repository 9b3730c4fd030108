"""The guest's time zone from what they say (EN/ES), so quiet hours are kept in their own
local time (profile/timezone.py).

Two kinds of statement are read, each only where the guest speaks of themselves:

- a named US zone: "I'm on Pacific time", "we're CST", "my time zone is Eastern",
  "Mountain time here", "estoy en la hora del este" (self_reported, stated explicitly);
- a place from a short table of big US and Mexican cities and one-zone states: where the
  guest lives ("I live in Denver", "vivo en Chicago": self_reported) or where they say they
  are ("we're in Phoenix": contextual, and only when the clause is not about a trip).

A zone word without such a cue is not read: "the Pacific buffet", "an eastern omelette", and
"my flight lands at 3 pm Pacific" (a time given in a zone says nothing of where the guest is).
Nor are "I'm flying to Denver tomorrow", "we're in Vegas for the weekend", a negation ("I'm
not on Eastern time"), or relative statements ("3 hours behind you"). Ambiguous names are
left out rather than guessed: MST (Arizona's all year, Colorado's half of it), Portland,
Washington, two-letter codes without "time" (CT is also Connecticut, PT physical therapy).
"""

from __future__ import annotations

import re

from frontdesk.assistants.casino_host.profile.timezone import canonical_zone

from .fields import CONTEXTUAL, IMPLIED, SELF_REPORTED, STATED, STATED_EXPLICITLY, TIMEZONE
from .text import Hit, Message, clause_span, is_negated

EASTERN, CENTRAL, MOUNTAIN = "America/New_York", "America/Chicago", "America/Denver"
ARIZONA, PACIFIC = "America/Phoenix", "America/Los_Angeles"  # Arizona keeps no summer time
ALASKA, HAWAII = "America/Anchorage", "Pacific/Honolulu"

# Zone names, folded. Spanish: "hora del este / centro / pacífico / de la montaña".
_ZONE_WORDS = {
    "eastern": EASTERN, "central": CENTRAL, "mountain": MOUNTAIN, "pacific": PACIFIC,
    "arizona": ARIZONA, "alaska": ALASKA, "alaskan": ALASKA, "hawaii": HAWAII,
    "hawaiian": HAWAII,
}  # fmt: skip
_ZONE_WORDS_ES = {
    "este": EASTERN, "centro": CENTRAL, "montana": MOUNTAIN, "las montanas": MOUNTAIN,
    "pacifico": PACIFIC, "arizona": ARIZONA, "alaska": ALASKA, "hawai": HAWAII,
    "hawaii": HAWAII,
}  # fmt: skip
# Codes read after a self cue on their own; ET/CT/MT/PT only with "time" after them.
_CODES = {
    "est": EASTERN, "edt": EASTERN, "cst": CENTRAL, "cdt": CENTRAL, "mdt": MOUNTAIN,
    "pst": PACIFIC, "pdt": PACIFIC, "akst": ALASKA, "akdt": ALASKA, "hst": HAWAII,
}  # fmt: skip
_SHORT_CODES = {"et": EASTERN, "ct": CENTRAL, "mt": MOUNTAIN, "pt": PACIFIC}

# Places, folded; one zone each (a state or city spanning two is left out).
_PLACES_BY_ZONE = {
    EASTERN: "new york|new york city|nyc|brooklyn|queens|the bronx|manhattan|staten island|"
    "long island|boston|philadelphia|philly|pittsburgh|baltimore|washington dc|washington d.c.|"
    "dc|d.c.|atlanta|miami|orlando|tampa|jacksonville|charlotte|raleigh|detroit|cleveland|"
    "columbus|cincinnati|indianapolis|louisville|hartford|new haven|providence|buffalo|newark|"
    "richmond|charleston|new jersey|connecticut|massachusetts|pennsylvania|ohio|virginia|"
    "north carolina|south carolina|georgia|maryland|delaware|rhode island|vermont|"
    "new hampshire|maine|west virginia",
    CENTRAL: "chicago|houston|dallas|austin|san antonio|fort worth|new orleans|nola|memphis|"
    "nashville|st louis|st. louis|saint louis|kansas city|minneapolis|st paul|st. paul|"
    "milwaukee|oklahoma city|tulsa|omaha|des moines|little rock|illinois|louisiana|minnesota|"
    "wisconsin|iowa|missouri|arkansas|oklahoma|mississippi|alabama",
    MOUNTAIN: "denver|colorado springs|salt lake city|albuquerque|santa fe|boise|el paso|"
    "colorado|utah|new mexico",
    ARIZONA: "phoenix|tucson|scottsdale|tempe|flagstaff|arizona",
    PACIFIC: "los angeles|l.a.|la|san diego|san francisco|san jose|sacramento|oakland|"
    "long beach|fresno|seattle|las vegas|vegas|reno|california|nevada",
    ALASKA: "anchorage|fairbanks|juneau|alaska",
    HAWAII: "honolulu|hawaii|hawai",
    "America/Puerto_Rico": "puerto rico|san juan",  # Atlantic time, no summer time
    "America/Mexico_City": "mexico city|ciudad de mexico|cdmx|guadalajara|puebla|queretaro|"
    "toluca|acapulco|oaxaca",
    "America/Monterrey": "monterrey",
    "America/Tijuana": "tijuana|mexicali|ensenada",
    "America/Hermosillo": "hermosillo",
    "America/Chihuahua": "chihuahua",
    "America/Ciudad_Juarez": "ciudad juarez|juarez",
    "America/Cancun": "cancun|playa del carmen",
    "America/Merida": "merida",
    "America/Mazatlan": "mazatlan|culiacan",
}
PLACES: dict[str, str] = {
    name: zone
    for zone, names in _PLACES_BY_ZONE.items()
    if canonical_zone(zone)  # a zone the database lacks is never offered
    for name in names.split("|")
}


def _alternatives(names: object, *, literal: bool = False) -> str:
    ordered = sorted(names, key=len, reverse=True)  # type: ignore[call-overload]
    if literal:
        ordered = [re.escape(name).replace(r"\ ", r"\s+") for name in ordered]
    return "|".join(ordered)


_PLACE_PATTERNS = _alternatives(PLACES, literal=True)
_ZONE = _alternatives(_ZONE_WORDS)
_TIME = r"(?:\s+(?:standard|daylight))?\s+(?:time(?:\s*zone)?|timezone|tz)\b"
# "Pacific time", "CST", "ET time": what names a zone after a self cue.
_ZONE_PHRASE = (
    rf"(?:the\s+)?(?:(?P<zone>{_ZONE}){_TIME}|(?P<short>{_alternatives(_SHORT_CODES)}){_TIME}"
    rf"|(?P<code>{_alternatives(_CODES)})\b(?=\s*(?:$|[.,!?;:)]|(?:time|here|too|btw|and|so)\b)))"
)
_I_AM = r"(?:i'm|im|i am|we're|we are)"
_ZONE_STATEMENTS = [
    # "I'm on Pacific time", "we're in the Central time zone", "I'm PST".
    re.compile(rf"\b{_I_AM}\s+(?:(?:on|in)\s+)?{_ZONE_PHRASE}"),
    re.compile(rf"\b(?:i|we)\s+live\s+(?:on|in)\s+{_ZONE_PHRASE}"),
    # "my time zone is Pacific", "our timezone: ET".
    re.compile(
        rf"\b(?:my|our)\s+(?:time\s*zone|tz)(?:'s|\s+is|\s*:|\s*=)?\s+(?:the\s+)?"
        rf"(?:{_ZONE_PHRASE}|(?P<bare>{_ZONE}|{_alternatives(_SHORT_CODES)})\b)"
    ),
    # "Pacific time here", "it's 6 pm Mountain time for me".
    re.compile(rf"\b(?P<zone>{_ZONE}){_TIME}\s+(?:here|for (?:me|us)|over here)\b"),
]
_ZONE_ES = _alternatives(_ZONE_WORDS_ES)
_HORA = r"(?:(?:la|el)\s+)?(?:zona\s+horaria|hora(?:rio)?|tiempo)\s+(?:del?|de\s+la)\s+(?:zona\s+)?"
_ZONE_STATEMENTS_ES = [
    # "estoy en la hora del este", "vivimos con horario del pacífico".
    re.compile(
        rf"\b(?:estoy|estamos|vivo|vivimos|ando|andamos)\s+(?:en|con)\s+{_HORA}"
        rf"(?P<zone_es>{_ZONE_ES})\b"
    ),
    # "mi zona horaria es la del centro"; "aquí es hora de la montaña" (not "aquí es el centro").
    re.compile(
        rf"\b(?:mi|nuestra)\s+(?:zona\s+horaria|hora|horario)\s+es\s+"
        rf"(?:(?:la|el)\s+(?:del?\s+)?|del?\s+)?(?:{_HORA})?(?P<zone_es>{_ZONE_ES})\b"
    ),
    re.compile(rf"\b(?:aqui|aca)\s+(?:es|tenemos|usamos)\s+{_HORA}(?P<zone_es>{_ZONE_ES})\b"),
    re.compile(rf"\b(?:estoy|estamos)\s+en\s+(?P<code>{_alternatives(_CODES)})\b"),
]

# Where the guest lives: self reported. Where they are: contextual (a trip is not a home).
_LIVES = re.compile(
    r"\b(?:(?:i|we)\s+(?:(?:currently|now|actually|still|both|all|also)\s+)?(?:live|reside)"
    rf"|{_I_AM}\s+(?:(?:currently|now|actually|still|both|all|also)\s+)?(?:living|based|located)"
    r"|(?:my|our)\s+home\s+is|home(?:'s|\s+is)"
    r"|(?<!en )(?<!al )(?:vivo|vivimos)|resido|residimos|(?:mi|nuestra)\s+casa\s+(?:es|esta))"
    r"\s+(?:in|near|outside(?:\s+of)?|out\s+of|around|en|cerca\s+de|por|a\s+las\s+afueras\s+de)?"
    rf"\s*(?:the\s+(?:city\s+of\s+)?|la\s+(?:ciudad\s+de\s+)?)?(?P<place>{_PLACE_PATTERNS})(?!\w)"
)
_IS_IN = re.compile(
    rf"\b(?:{_I_AM}\s+(?:(?:out|over|down|up|here)\s+)?in|(?:estoy|estamos|andamos)\s+(?:aqui\s+)?en)"
    rf"\s+(?:the\s+(?:city\s+of\s+)?|la\s+(?:ciudad\s+de\s+)?)?(?P<place>{_PLACE_PATTERNS})(?!\w)"
)
# A clause that makes "we're in Phoenix" a trip, a plan or a moment, not where the guest is.
_TRIP = re.compile(
    r"\b(?:tomorrow|tonight|today|next|this\s+(?:week|weekend|month|trip)|for|visiting|visit|"
    r"vacation|trip|business|conference|until|till|right\s+now|at\s+the\s+moment|airport|"
    r"hotel|layover|on\s+(?:my|our)\s+way|heading|headed|flight|manana|hoy|esta\s+noche|"
    r"fin\s+de\s+semana|proxim[oa]|de\s+(?:visita|vacaciones|viaje|paso)|por\s+(?:trabajo|"
    r"negocios)|para|hasta|ahorita|ahora\s+mismo|aeropuerto|vuelo)\b"
)
# "if I lived ...", "when I'm in Denver ..." speak of a case, not of the guest now.
_HYPOTHETICAL = re.compile(r"\b(?:if|when|whenever|once|while|unless|cuando|si|mientras)\s*$")


def find_timezone(message: Message) -> list[Hit]:
    """Every statement of the guest's zone in the message; the merge keeps the surest."""
    folded = message.folded
    hits: list[Hit] = []
    for pattern in _ZONE_STATEMENTS + _ZONE_STATEMENTS_ES:
        for match in pattern.finditer(folded):
            zone = _zone_named(match)
            if zone and _stated(folded, match):
                hits.append(_hit(zone, STATED_EXPLICITLY, SELF_REPORTED, match))
    for match in _LIVES.finditer(folded):
        zone = _place_zone(message, match)
        if zone and _stated(folded, match):
            hits.append(_hit(zone, STATED, SELF_REPORTED, match))
    casino_zone = getattr(message.now.tzinfo, "key", None)
    for match in _IS_IN.finditer(folded):
        zone = _place_zone(message, match)
        _, clause_end = clause_span(folded, match.end())
        if (
            zone
            and _stated(folded, match)
            and not _TRIP.search(folded, match.end(), clause_end)
            # Someone who says they are in the casino's own zone is most likely on the visit.
            and zone != casino_zone
        ):
            hits.append(_hit(zone, IMPLIED, CONTEXTUAL, match))
    return hits


def _zone_named(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    if groups.get("zone"):
        return _ZONE_WORDS[groups["zone"]]
    if groups.get("short"):
        return _SHORT_CODES[groups["short"]]
    if groups.get("code"):
        return _CODES[groups["code"]]
    if groups.get("bare"):
        return _ZONE_WORDS.get(groups["bare"]) or _SHORT_CODES[groups["bare"]]
    if groups.get("zone_es"):
        return _ZONE_WORDS_ES[re.sub(r"\s+", " ", groups["zone_es"])]
    return None


def _place_zone(message: Message, match: re.Match[str]) -> str | None:
    start, end = match.span("place")
    name = " ".join(message.folded[start:end].split())
    # "la" is an article in Spanish: only "LA" in capitals, in a message not all in capitals,
    # names Los Angeles.
    if name == "la" and (message.text[start:end] != "LA" or message.text.isupper()):
        return None
    return PLACES.get(name)


def _stated(folded: str, match: re.Match[str]) -> bool:
    """Said of the guest as a fact: not negated ("I'm not on Eastern time", "no vivo en") and
    not a case ("if I lived in")."""
    words = len(match.group(0).split())
    if is_negated(folded, match.end(), window=words + 3):
        return False
    clause_start, _ = clause_span(folded, match.start())
    return not _HYPOTHETICAL.search(folded, clause_start, match.start())


def _hit(zone: str, confidence: float, source: str, match: re.Match[str]) -> Hit:
    return Hit(TIMEZONE, zone, confidence, source, match.start(), match.end())
