"""The guest's own name and email.

Strong cues ("my name is", "call me", "me llamo") accept a lower-case name; weak cues ("I'm",
"this is", "soy", a "- Maria" signature) need a capitalised word that is not on the stop list,
because "I'm vegetarian", "I'm Gold" and "soy de Miami" are not introductions.
"""

from __future__ import annotations

import re

from .fields import (
    EMAIL,
    FULL_NAME,
    NAME,
    SELF_REPORTED,
    STATED,
    STATED_EXPLICITLY,
    STATED_WEAKLY,
)
from .text import Hit, Message, fold

# Words that follow "I'm" / "this is" / "soy" without being a name (folded, lower case).
_NOT_NAMES = frozenset(
    """
    a an the not so very really just here there in at on from with for to of back also still
    coming going looking trying planning thinking wondering staying visiting bringing
    calling texting writing asking checking hoping celebrating driving flying heading
    leaving arriving excited happy glad interested hungry tired sorry sure good fine great
    ok okay new first all only done ready free busy late early almost about around over out
    up down home available curious confused lost bored sick broke amazing awesome perfect
    wonderful crazy insane vegetarian vegan pescatarian kosher halal celiac coeliac allergic
    diabetic gluten lactose pregnant married single divorced widowed retired gold silver
    platinum diamond bronze vip elite member guest player customer client regular local
    mexican american italian cuban puerto spanish english french chinese japanese korean
    indian thai greek irish german jewish catholic christian muslim deaf blind disabled
    traveling travelling alone solo monday tuesday wednesday thursday friday saturday sunday
    tonight today tomorrow january february march april may june july august september
    october november december mr mrs ms miss dr sir madam maam yes no yeah nope hi hello hey
    thanks thank please it its this that he she we they you your my our his her their i me
    us de del el la los las un una muy vegetariano vegetariana vegano vegana celiaco celiaca
    alergico alergica diabetico diabetica mexicano mexicana cubano cubana americano
    americana nuevo nueva socio socia cliente miembro esposo esposa mama papa feliz tu su yo
    nosotros soltero soltera casado casada jubilado jubilada estudiante fan fanatico
    fanatica principiante intolerante aqui alla muy bien mal hola gracias sabado domingo
    viernes hoy manana tambien solo sola primera primer mon tue wed thu fri sat sun when if
    later asap now anytime whenever soon maybe anyone someone everyone nobody who what where
    why how is are am be parking dinner lunch breakfast room table
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_TITLES = re.compile(r"(?:mr|mrs|ms|miss|dr|sr|sra|srta)\.?\s+", re.IGNORECASE)
_NAME_WORD = re.compile(r"[A-ZÁÉÍÓÚÑÜ][a-záéíóúñü]+(?:[-'][A-Za-záéíóúñü]+)?")
_ANY_WORD = re.compile(r"[A-Za-záéíóúñüÁÉÍÓÚÑÜ]+(?:[-'][A-Za-záéíóúñü]+)?")

_STRONG_CUES = re.compile(
    r"(?<![\w'])(?:my name(?:'s| is|s)|me llamo|mi nombre es|my first name is)\s+"
)
_WEAK_CUES = re.compile(
    r"(?<![\w'])(?:i'?m|i am|this is|call me|soy|habla|le escribe|les escribe|te escribe)\s+"
)
_LEADING_IT_IS = re.compile(r"^\W*(?:(?:hi|hey|hello|hola|yo|ok)\W+)?it'?s\s+")
# "Maria here!" at the start of a message; a question ("Parking here?") is not an introduction.
_HERE = re.compile(r"^\W*(?:(?:hi|hey|hello|hola)\W+)?(?=\w+ (?:here|aqui)\s*(?:[,.!:-]|$))")
_SIGNATURE = re.compile(r"(?:^|[\s,.!?])[-\u2013\u2014~]\s*(?=\S+(?:\s\S+)?\s*[.!]?\s*$)")


def capitalised_name_at(
    message: Message, pos: int, *, allow_possessive: bool = False, lower_ok: bool = False
) -> str | None:
    """The name starting at `pos` (up to three words), or None if it is not a plausible name."""
    text = message.text
    title = _TITLES.match(text, pos)
    if title:
        pos = title.end()
    words: list[str] = []
    while len(words) < 3:
        match = (_ANY_WORD if lower_ok and not words else _NAME_WORD).match(text, pos)
        if not match or fold(match.group(0)) in _NOT_NAMES:
            break
        word = match.group(0)
        after = text[match.end() : match.end() + 2]
        if word.endswith(("'s", "\u2019s")) or after.startswith(("'s", "\u2019s")):
            if not allow_possessive:
                return None  # "I'm Sarah's husband"
            words.append(word[:-2] if word.endswith(("'s", "\u2019s")) else word)
            break
        words.append(word[0].upper() + word[1:] if lower_ok else word)
        if after.startswith(("'", "\u2019")) or not after.startswith(" "):
            break
        pos = match.end() + 1
    if not words or len(words[0]) < 2:
        return None
    return " ".join(words)


def find_names(message: Message) -> list[Hit]:
    folded = message.folded
    for pattern, lower_ok, confidence in (
        (_STRONG_CUES, True, STATED_EXPLICITLY),
        (_WEAK_CUES, False, STATED),
        (_LEADING_IT_IS, False, STATED),
        (_HERE, False, STATED),
    ):
        for match in pattern.finditer(folded):
            if pattern is _WEAK_CUES and _before_is_not_self(folded, match.start()):
                continue
            if pattern is not _STRONG_CUES and _in_question(folded, match.end()):
                continue  # "This is Mohegan Sun right?" asks; an introduction does not
            name = capitalised_name_at(message, match.end(), lower_ok=lower_ok)
            if name:
                return _name_hits(message, name, match.start(), confidence)
    signature = _SIGNATURE.search(folded)
    if signature:
        name = capitalised_name_at(message, signature.end())
        if name:
            return _name_hits(message, name, signature.start(), STATED_WEAKLY)
    return []


def _before_is_not_self(folded: str, start: int) -> bool:
    """Reported speech ("my wife says this is ...") introduces someone else."""
    return bool(re.search(r"\b(?:says|said|dice|told me)\s*$", folded[max(0, start - 12) : start]))


def _in_question(folded: str, pos: int) -> bool:
    """Whether the clause after `pos` ends in "?" ("This is Mohegan Sun right?")."""
    clause_end = re.search(r"[,;.!?\n]|$", folded[pos:])
    return clause_end is not None and clause_end.group(0) == "?"


def _name_hits(message: Message, name: str, start: int, confidence: float) -> list[Hit]:
    end = message.text.find(name.split()[-1], start)
    end = end + len(name.split()[-1]) if end >= 0 else start + len(name)
    first = name.split()[0]
    hits = [Hit(NAME, first, confidence, SELF_REPORTED, start, end)]
    if " " in name:
        hits.append(Hit(FULL_NAME, name, confidence, SELF_REPORTED, start, end))
    return hits


_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b", re.IGNORECASE)
_OTHER_PERSONS = re.compile(r"\b(?:my|mi) \w+(?:'s)? (?:email|correo)\b|\bcorreo de mi\b")


def find_email(message: Message) -> list[Hit]:
    match = _EMAIL.search(message.text)
    if not match:
        return []
    if _OTHER_PERSONS.search(message.folded[max(0, match.start() - 40) : match.start()]):
        return []  # "my wife's email is ..." is not the guest's
    value = match.group(0).lower()
    return [Hit(EMAIL, value, STATED_EXPLICITLY, SELF_REPORTED, match.start(), match.end())]
