"""Companions the guest mentions ("my wife Sarah", "our 2 kids, 5 and 8", "mis hijos de 5 y 8").

One entry per known person. A plural with no count ("the kids", "con amigos") is one entry with
`group: True`; a party size is never derived from such an entry. Ages are kept for children only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .names import capitalised_name_at
from .text import NUMBER, Message, parse_number

# noun -> (relationship, gender "m"/"f"/"", plural, young). Folded spelling.
RELATIONSHIP_NOUNS: dict[str, tuple[str, str, bool, bool]] = {
    "wife": ("wife", "f", False, False), "hubby": ("husband", "m", False, False),
    "husband": ("husband", "m", False, False), "spouse": ("spouse", "", False, False),
    "partner": ("partner", "", False, False), "boyfriend": ("boyfriend", "m", False, False),
    "girlfriend": ("girlfriend", "f", False, False), "fiance": ("fiance", "m", False, False),
    "fiancee": ("fiance", "f", False, False), "son": ("child", "m", False, False),
    "daughter": ("child", "f", False, False), "kid": ("child", "", False, True),
    "child": ("child", "", False, True), "baby": ("child", "", False, True),
    "toddler": ("child", "", False, True), "stepson": ("child", "m", False, False),
    "stepdaughter": ("child", "f", False, False), "mom": ("mother", "f", False, False),
    "mother": ("mother", "f", False, False), "mum": ("mother", "f", False, False),
    "mommy": ("mother", "f", False, False), "dad": ("father", "m", False, False),
    "father": ("father", "m", False, False), "daddy": ("father", "m", False, False),
    "sister": ("sister", "f", False, False), "brother": ("brother", "m", False, False),
    "friend": ("friend", "", False, False), "buddy": ("friend", "m", False, False),
    "bestie": ("friend", "", False, False), "coworker": ("colleague", "", False, False),
    "colleague": ("colleague", "", False, False), "boss": ("colleague", "", False, False),
    "grandma": ("grandmother", "f", False, False), "grandmother": ("grandmother", "f", False, False),
    "grandpa": ("grandfather", "m", False, False), "grandfather": ("grandfather", "m", False, False),
    "aunt": ("aunt", "f", False, False), "uncle": ("uncle", "m", False, False),
    "cousin": ("cousin", "", False, False), "niece": ("niece", "f", False, False),
    "nephew": ("nephew", "m", False, False), "grandson": ("grandchild", "m", False, False),
    "granddaughter": ("grandchild", "f", False, False),
    "mother-in-law": ("mother_in_law", "f", False, False),
    "father-in-law": ("father_in_law", "m", False, False),
    "kids": ("child", "", True, True), "children": ("child", "", True, True),
    "sons": ("child", "m", True, False), "daughters": ("child", "f", True, False),
    "boys": ("child", "m", True, True), "babies": ("child", "", True, True),
    "grandkids": ("grandchild", "", True, True), "grandchildren": ("grandchild", "", True, True),
    "friends": ("friend", "", True, False), "buddies": ("friend", "m", True, False),
    "girls": ("friend", "f", True, False), "guys": ("friend", "m", True, False),
    "coworkers": ("colleague", "", True, False), "colleagues": ("colleague", "", True, False),
    "sisters": ("sister", "f", True, False), "brothers": ("brother", "m", True, False),
    "cousins": ("cousin", "", True, False), "parents": ("parents", "", True, False),
    # Spanish
    "esposa": ("wife", "f", False, False), "esposo": ("husband", "m", False, False),
    "marido": ("husband", "m", False, False), "mujer": ("wife", "f", False, False),
    "pareja": ("partner", "", False, False), "novio": ("boyfriend", "m", False, False),
    "novia": ("girlfriend", "f", False, False), "prometido": ("fiance", "m", False, False),
    "prometida": ("fiance", "f", False, False), "hijo": ("child", "m", False, False),
    "hija": ("child", "f", False, False), "nino": ("child", "m", False, True),
    "nina": ("child", "f", False, True), "nene": ("child", "m", False, True),
    "nena": ("child", "f", False, True), "bebe": ("child", "", False, True),
    "mama": ("mother", "f", False, False), "madre": ("mother", "f", False, False),
    "mami": ("mother", "f", False, False), "papa": ("father", "m", False, False),
    "padre": ("father", "m", False, False), "papi": ("father", "m", False, False),
    "hermana": ("sister", "f", False, False), "hermano": ("brother", "m", False, False),
    "amigo": ("friend", "m", False, False), "amiga": ("friend", "f", False, False),
    "abuela": ("grandmother", "f", False, False), "abuelo": ("grandfather", "m", False, False),
    "tia": ("aunt", "f", False, False), "tio": ("uncle", "m", False, False),
    "primo": ("cousin", "m", False, False), "prima": ("cousin", "f", False, False),
    "suegra": ("mother_in_law", "f", False, False), "suegro": ("father_in_law", "m", False, False),
    "nieto": ("grandchild", "m", False, False), "nieta": ("grandchild", "f", False, False),
    "hijos": ("child", "", True, False), "hijas": ("child", "f", True, False),
    "ninos": ("child", "", True, True), "ninas": ("child", "f", True, True),
    "nenes": ("child", "", True, True), "bebes": ("child", "", True, True),
    "nietos": ("grandchild", "", True, True), "amigos": ("friend", "", True, False),
    "amigas": ("friend", "f", True, False), "hermanos": ("brother", "", True, False),
    "hermanas": ("sister", "f", True, False), "primos": ("cousin", "", True, False),
    "papas": ("parents", "", True, False), "padres": ("parents", "", True, False),
}  # fmt: skip
# Roles a guest has at most one of: a second mention is the same person.
_UNIQUE_ROLES = frozenset(
    {"wife", "husband", "spouse", "partner", "boyfriend", "girlfriend", "fiance", "mother",
     "father", "mother_in_law", "father_in_law"}
)  # fmt: skip

RELATIONSHIP_PATTERN = "|".join(
    sorted((re.escape(noun) for noun in RELATIONSHIP_NOUNS), key=len, reverse=True)
)
_DETERMINER = (
    r"(?P<det>my|our|the|with(?: my| our| the| a| an)?|bringing(?: my| our| the| a| an)?|"
    r"and (?:a|an)|mi|mis|nuestro|nuestra|nuestros|nuestras|con(?: mi| mis| un| una| los| las)?|"
    r"y (?:un|una)|los|las)"
)
_AGE_PREFIX = r"(?P<age>\d{1,2})[- ]?(?:year|yr)s?[- ]?old\s+"
_MENTION = re.compile(
    rf"\b(?:{_DETERMINER}\s+)?(?:(?P<count>{NUMBER})\s+)?(?:{_AGE_PREFIX}|little\s+)?"
    rf"(?P<noun>{RELATIONSHIP_PATTERN})\b(?!'?s? (?:menu|meal|meals|club|area|zone|pool|prices?|activities)\b)"
    r"(?!-)"
)
_BARE_AGE = re.compile(
    r"\b(?:my|our|mi)\s+(?P<age>\d{1,2})[- ]?(?:year|yr)s?[- ]?old\b"
    rf"(?!\s+(?:little\s+)?(?:{RELATIONSHIP_PATTERN})\b)"
)
_AGE_LIST = rf"(?P<ages>{NUMBER}(?:\s*(?:,|and|&|y|e)\s*{NUMBER})*)"
_AGE_UNIT = r"(?:\s*(?:years?|yrs?|yo|y/o|anos|anitos)(?:\s*old)?)"
# After the noun: "son is 16", "kids, ages 4, 7 and 11", "hijos de 5 y 8 años", "kids (5 and 8)".
_AGES_AFTER_KEYWORD = re.compile(
    rf"^(?:'s)?\s*,?\s*(?:who(?:'s| is| are)|is|are|aged?|ages?|de|que tiene|que tienen|tiene|"
    rf"tienen)\s+(?:ages?\s+)?{_AGE_LIST}{_AGE_UNIT}?(?!\s*(?::|%|am\b|pm\b|\$|adults|people))"
)
_AGES_AFTER_COMMA = re.compile(rf"^\s*[,(]?\s*{_AGE_LIST}{_AGE_UNIT}?\s*(?:[.,;!?)]|$)")
_AGES_BY_PRONOUN = (
    re.compile(
        rf"\b(?P<pronoun>he|she|they)(?:'s|'re| is| are)\s+(?:ages?\s+)?{_AGE_LIST}{_AGE_UNIT}?"
        r"(?!\s*(?::|%|am\b|pm\b|minutes|mins|hours|feet|ft|dollars|\$))"
    ),
    re.compile(rf"\b(?:(?P<pronoun>el|ella|ellos|ellas)\s+)?(?:tiene|tienen)\s+{_AGE_LIST}\s*anos"),
)
_MAX_CHILD_AGE = 17


@dataclass(slots=True)
class Companion:
    relationship: str
    start: int
    end: int
    noun: str
    gender: str = ""
    name: str | None = None
    age: int | None = None
    group: bool = False
    young: bool = False
    dietary_restrictions: list[str] = field(default_factory=list)

    def as_value(self) -> dict[str, object]:
        value: dict[str, object] = {"relationship": self.relationship}
        if self.name:
            value["name"] = self.name
        if self.age is not None:
            value["age"] = self.age
        if self.group:
            value["group"] = True
        if self.dietary_restrictions:
            value["dietary_restrictions"] = sorted(set(self.dietary_restrictions))
        return value


def find_companions(message: Message) -> list[Companion]:
    folded = message.folded
    found: list[Companion] = []
    for match in _MENTION.finditer(folded):
        found.extend(_from_mention(message, match))
    for match in _BARE_AGE.finditer(folded):
        age = int(match["age"])
        if age <= _MAX_CHILD_AGE:
            found.append(
                Companion("child", match.start(), match.end(), "child", age=age, young=True)
            )
    found.sort(key=lambda companion: companion.start)
    _assign_pronoun_ages(folded, found)
    return _deduplicate(found)


def _from_mention(message: Message, match: re.Match[str]) -> list[Companion]:
    noun, det = match["noun"], (match["det"] or "").strip()
    relationship, gender, plural, young = RELATIONSHIP_NOUNS[noun]
    count = parse_number(match["count"]) if match["count"] else None
    if det == "" and (count is None or not plural):
        return []  # a bare noun ("kids eat free?", "somos una pareja") is not a companion
    if noun in ("mujer", "papas", "padre", "madre") and det not in (
        "mi",
        "mis",
        "con mi",
        "con mis",
    ):
        return []  # "mujer", "papas" (potatoes) and "padre" (great) only as "mi mujer" etc.
    if noun == "boys" and det in ("the", "with the"):
        relationship, young = "friend", False  # "me and the boys"
    if noun in ("guys", "girls") and not det:
        return []  # "10 guys" describes the party, which includes the guest
    if relationship == "parents":
        return [
            Companion("mother", match.start(), match.end(), "mother", "f"),
            Companion("father", match.start(), match.end(), "father", "m"),
        ]
    start, end = match.start(), match.end()
    ages = _ages_after(message.folded, end) if relationship == "child" else []
    if match["age"] and relationship == "child":
        ages = [int(match["age"])] + ages
    ages = [age for age in ages if age <= _MAX_CHILD_AGE]
    if not plural:
        companion = Companion(relationship, start, end, noun, gender, young=young)
        companion.age = ages[0] if ages else None
        companion.name = _name_after(message, match)
        return [companion]
    if count is None and not ages:
        return [Companion(relationship, start, end, noun, gender, group=True, young=young)]
    size = count if count is not None else len(ages)
    if size > 12:
        return []
    people = [Companion(relationship, start, end, noun, gender, young=young) for _ in range(size)]
    for person, age in zip(people, ages, strict=False):
        person.age = age
    return people


def _ages_after(folded: str, end: int) -> list[int]:
    rest = folded[end : end + 60]
    match = _AGES_AFTER_KEYWORD.match(rest) or _AGES_AFTER_COMMA.match(rest)
    if not match:
        return []
    return _parse_age_list(match["ages"])


def _parse_age_list(text: str) -> list[int]:
    ages = []
    for token in re.split(r"\s*(?:,|and|&|\by\b|\be\b)\s*", text):
        number = parse_number(token)
        if number is not None:
            ages.append(number)
    return ages


def _name_after(message: Message, match: re.Match[str]) -> str | None:
    rest = message.folded[match.end() : match.end() + 12]
    offset = re.match(r"^(?:,\s*|\s+)(?:(?:named|called|llamad[oa])\s+)?", rest)
    if not offset:
        return None
    return capitalised_name_at(message, match.end() + offset.end(), allow_possessive=True)


def _assign_pronoun_ages(folded: str, companions: list[Companion]) -> None:
    """ "she's 9" / "they're 6 and 9" / "tiene 7 años": ages for the last children mentioned."""
    matches = [match for pattern in _AGES_BY_PRONOUN for match in pattern.finditer(folded)]
    for match in sorted(matches, key=lambda m: m.start()):
        ages = [age for age in _parse_age_list(match["ages"]) if age <= _MAX_CHILD_AGE]
        pronoun = match["pronoun"] or ""
        gender = {"he": "m", "she": "f", "el": "m", "ella": "f"}.get(pronoun, "")
        children = [
            c
            for c in companions
            if c.relationship == "child" and c.start < match.start() and c.age is None
        ]
        if gender:
            children = [c for c in children if c.gender in (gender, "")]
        if not children or not ages:
            continue
        last_start = children[-1].start
        targets = [c for c in children if c.start == last_start]  # one mention's people
        if len(targets) == 1 and targets[0].group and len(ages) > 1:
            group = targets[0]
            group.group = False
            extra = [
                Companion("child", group.start, group.end, group.noun, group.gender, young=True)
                for _ in ages[1:]
            ]
            companions[companions.index(group) + 1 : companions.index(group) + 1] = extra
            targets = [group, *extra]
        for person, age in zip(targets, ages, strict=False):
            person.age = age
            person.group = False


def _deduplicate(companions: list[Companion]) -> list[Companion]:
    kept: list[Companion] = []
    for companion in companions:
        same_role = [k for k in kept if k.relationship == companion.relationship]
        if companion.relationship in _UNIQUE_ROLES and same_role:
            same_role[0].name = same_role[0].name or companion.name
            continue
        if companion.group and same_role:
            continue  # "our 2 kids ... the kids": the counted mention says more
        if not companion.group and same_role and all(k.group for k in same_role):
            kept = [k for k in kept if k not in same_role]
        singular = not RELATIONSHIP_NOUNS.get(companion.noun, ("", "", True, False))[2]
        if singular and any(k.noun == companion.noun and k.start != companion.start for k in kept):
            same = next(k for k in kept if k.noun == companion.noun)
            same.age = same.age if same.age is not None else companion.age
            continue  # "my sister ... my sister's wedding": one sister
        kept.append(companion)
    return kept
