"""The gate's own replies, English and Spanish (no model writes them).

English texts are the seed's (seed §7.4, §9.13, §9.16) with two edits for the SMS
style rules (seed §9.15): the privacy reply's "YOUR" is lower case (no all-caps words) and
nothing has a line break or a URL. Spanish texts use "usted" (seed §9.15) and leave out the
accented vowels that force UCS-2 (á í ó ú; ñ and é are GSM-7), like the seed's own Spanish
replies ("Linea", "recibiras"). Slots are filled with `string.Template.safe_substitute`.
"""

from __future__ import annotations

import re
from string import Template

NATIONAL_HELPLINE = "1-800-522-4700"
DEFAULT_MINIMUM_AGE = 21

INJECTION_RESPONSE = {
    "en": (
        "I'm here to help with your casino visit! "
        "Ask me about dining, shows, spa, or anything at the property."
    ),
    "es": (
        "Estoy aqui para ayudarle con su visita al casino. "
        "Preguntenos sobre restaurantes, espectaculos, spa o cualquier cosa de la propiedad."
    ),
}

# No offer, venue or activity in these (G3): the only category where the host does not try
# to keep the conversation going (seed §9.16).
RESPONSIBLE_GAMING_TEMPLATE = {
    "en": Template(
        "I hear you, and I want to make sure you get the right support. "
        "Please contact the National Problem Gambling Helpline: $national_helpline "
        "(call or text, 24/7, free & confidential).$state_clause You're not alone."
    ),
    "es": Template(
        "Le escucho, y quiero asegurarme de que reciba el apoyo adecuado. "
        "Comuniquese con la Linea Nacional de Ayuda: $national_helpline "
        "(llamada o texto, 24/7, gratis y confidencial).$state_clause No esta solo/a."
    ),
}
STATE_HELPLINE_CLAUSE = {
    "en": Template(" You can also reach the $state_helpline."),
    "es": Template(" Tambien puede llamar a $state_helpline."),
}

AGE_RESPONSE_TEMPLATE = {
    "en": Template(
        "Great question! Guests must be $min_age+ for the gaming floor. "
        "Many restaurants and entertainment venues welcome all ages. "
        "Want me to find family-friendly options?"
    ),
    "es": Template(
        "Buena pregunta. Para el area de juego hay que tener $min_age+ años. "
        "Muchos restaurantes y espectaculos son para todas las edades. "
        "¿Le busco opciones para toda la familia?"
    ),
}

BSA_AML_RESPONSE = {
    "en": (
        "I can't help with that kind of request. If you have questions about "
        "casino financial policies, please speak with our guest services team."
    ),
    "es": (
        "No puedo ayudar con ese tipo de solicitud. Si tiene preguntas sobre las "
        "politicas financieras del casino, hable con nuestro equipo de servicio al huesped."
    ),
}

PATRON_PRIVACY_RESPONSE = {
    "en": (
        "I'm not able to share information about other guests. "
        "I'm here to help with your visit! "
        "What can I help you plan - dining, shows, or something else?"
    ),
    "es": (
        "No puedo compartir informacion sobre otros huespedes. "
        "Estoy aqui para ayudarle con su visita. "
        "¿Que le gustaria planear: restaurantes, espectaculos u otra cosa?"
    ),
}

# The guest asks whether we want an SSN, card or bank number (priv_ssn and siblings).
PII_REQUEST_RESPONSE = {
    "en": (
        "I never ask for or store sensitive info like SSN or credit cards. "
        "For financial matters, please visit guest services in person with valid ID."
    ),
    "es": (
        "Nunca pido ni guardo datos delicados como su numero de seguro social o tarjetas. "
        "Para temas financieros, visite servicio al huesped en persona con una identificacion."
    ),
}

# The guest has sent one (pii_*): seed §9.13.
PII_SHARED_RESPONSE = {
    "en": ("For your security, please don't share that over text. A host can help you securely."),
    "es": (
        "Por su seguridad, no comparta esa informacion por mensaje de texto. "
        "Un anfitrion puede ayudarle de forma segura."
    ),
}

# Seed §9.13. Whether security was alerted is added by the turn once the alert was accepted
# or refused (G22, issue 33): the guest is never told "alerted" when no one was.
EMERGENCY_RESPONSE = {
    "en": (
        "If this is an emergency, please call 911 immediately. I'm an AI host and can't "
        "provide emergency assistance."
    ),
    "es": (
        "Si es una emergencia, llame al 911 de inmediato. Soy un anfitrion virtual y no "
        "puedo dar asistencia de emergencia."
    ),
}

# D27. The seed's line (seed §9.16) gives only the gambling helpline; someone who may harm
# themselves needs the crisis line (988 answers in Spanish too) and 911 for immediate danger.
SELF_HARM_RESPONSE = {
    "en": Template(
        "I care about your well-being. If you are in danger, call 911 now. "
        "You can call or text 988, the Suicide & Crisis Lifeline, 24/7, or the Problem "
        "Gambling Helpline at $national_helpline. You're not alone."
    ),
    "es": Template(
        "Me importa su bienestar. Si esta en peligro, llame al 911 ahora. "
        "Puede llamar o enviar un texto al 988 (marque 2 para español), 24/7, o a la Linea "
        "de Ayuda para el Juego al $national_helpline. No esta solo/a."
    ),
}

# Fail closed (D9): the gate could not check the message, so nothing reaches the model.
GENERIC_SAFE_RESPONSE = {
    "en": "Sorry, I can't help with that message. Our guest services team is happy to help.",
    "es": "Lo siento, no puedo ayudar con ese mensaje. Nuestro equipo de servicio al huesped "
    "con gusto le ayuda.",
}

_LINE_BREAKS = re.compile(r"\s+")


def _one_line(text: str) -> str:
    return _LINE_BREAKS.sub(" ", text).strip()


def responsible_gaming_reply(language: str, state_helpline: str | None = None) -> str:
    clause = ""
    if state_helpline and state_helpline.strip():
        clause = STATE_HELPLINE_CLAUSE[language].safe_substitute(
            state_helpline=_one_line(state_helpline).rstrip(".")
        )
    return RESPONSIBLE_GAMING_TEMPLATE[language].safe_substitute(
        national_helpline=NATIONAL_HELPLINE, state_clause=clause
    )


def age_reply(language: str, minimum_age: int = DEFAULT_MINIMUM_AGE) -> str:
    return AGE_RESPONSE_TEMPLATE[language].safe_substitute(min_age=minimum_age)


def self_harm_reply(language: str) -> str:
    return SELF_HARM_RESPONSE[language].safe_substitute(national_helpline=NATIONAL_HELPLINE)
