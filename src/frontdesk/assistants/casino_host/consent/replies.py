"""What a compliance keyword does and what it answers (WP1 items 14-20, C6-C9): one reply per
keyword, static, never the model.

`keyword_decision` is the pure rule: given the keyword and whether the guest is suppressed, it
says whether the consent record changes, which event is recorded, and which text answers. A
repeated STOP changes nothing and says so; a suppressed guest's ordinary messages (and a "yes"
that answers nothing) are kept and answered with silence.

The Spanish texts leave out accents on purpose: "recibirás" would make the SMS UCS-2 (70
characters a part instead of 160), and these replies must fit one part.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from frontdesk.assistants.casino_host.consent.keywords import (
    ALL_WORDS,
    SPANISH_WORDS,
    Keyword,
    normalise,
)

ConsentEvent = Literal["opt_out", "opt_in", "marketing_opt_in", "deletion_requested"]

# Item 15 (seed §3.14) and the natural-language reply (seed §3.21); ES seed §9.10.2.
STOPPED = {
    "en": "You've been unsubscribed from $casino messages. No more messages will be sent. "
    "Reply START to re-subscribe.",
    "es": "Listo -- no recibiras mas mensajes de $casino. Envia INICIAR si cambias de opinion.",
}
STOPPED_IN_WORDS = {
    "en": "I understand. You've been unsubscribed from $casino messages. Reply START to "
    "re-subscribe. For live help, call $phone.",
    "es": "Entendido. Ya no recibira mensajes de $casino. Envie INICIAR para volver a "
    "suscribirse. Para ayuda, llame al $phone.",
}
# Item 16 (seed §7.24).
ALREADY_STOPPED = {
    "en": "You're already unsubscribed from $casino messages. Reply START to re-subscribe.",
    "es": "Usted ya no recibe mensajes de $casino. Envie INICIAR para volver a suscribirse.",
}
# Item 17 (seed §7.3), one confirmation (C6).
STARTED = {
    "en": "Welcome back! You're re-subscribed to $casino messages. Reply STOP anytime to "
    "unsubscribe.",
    "es": "Bienvenido de nuevo. Usted vuelve a recibir mensajes de $casino. Envie PARAR para "
    "cancelar.",
}
# START from a number that never opted in: a welcome, not a "welcome back".
JOINED = {
    "en": "You're subscribed to $casino messages. Up to 8 msgs/month. Msg&Data rates may apply. "
    "Reply STOP anytime to unsubscribe.",
    "es": "Usted recibira mensajes de $casino. Hasta 8 msjs/mes. Pueden aplicar tarifas. Envie "
    "PARAR para cancelar.",
}
# T19: YES to a first outbound, the double opt-in (frequency and fees as in HELP).
SUBSCRIBED = {
    "en": "Thanks! You're subscribed to $casino offers by text. Up to 8 msgs/month. Msg&Data "
    "rates may apply. Reply STOP to unsubscribe.",
    "es": "Gracias. Usted recibira ofertas de $casino por mensaje. Hasta 8 msjs/mes. Pueden "
    "aplicar tarifas. Envie PARAR para cancelar.",
}
# Item 18: seed §3.14 (C9), with the frequency of seed §3.14.
HELP = {
    "en": "This is Seven, the AI host for $casino. Text any question about dining, shows, or "
    "your account. Reply STOP to unsubscribe. For live support: $phone. Msg&Data rates may "
    "apply. Up to 8 msgs/month.",
    "es": "Soy Seven, el anfitrion con IA de $casino. Escriba sus preguntas sobre restaurantes, "
    "shows o su cuenta. Envie PARAR para cancelar. Ayuda en vivo: $phone. Pueden aplicar "
    "tarifas de mensajes y datos. Hasta 8 msjs/mes.",
}
# Item 19: the only replies that may carry a link (C22).
PRIVACY = {
    "en": "$casino privacy policy: $privacy_url",
    "es": "Politica de privacidad de $casino: $privacy_url",
}
DELETION_REQUESTED = {
    "en": "Your data deletion request is received. Everything will be removed within 24 hours.",
    "es": "Recibimos su solicitud de borrar sus datos. Todo se eliminara en 24 horas.",
}


@dataclass(frozen=True)
class KeywordDecision:
    # The consent record's `suppressed` afterwards; None: unchanged.
    suppressed: bool | None
    event: ConsentEvent | None  # what the consent ledger and the audit log record
    reply: dict[str, str] | None  # None: nothing is sent
    prompted_by: str | None = None  # the outbound a double opt-in answers


def keyword_decision(
    keyword: Keyword | None,
    *,
    suppressed: bool,
    in_words: bool = False,
    opt_in_prompt: str | None = None,
    opted_in: bool = True,
) -> KeywordDecision | None:
    """What a message does to consent, or None when it is conversation for the graph.
    `opt_in_prompt`: the first outbound the guest has not yet confirmed (YES answers it).
    `opted_in`: the guest has opted in to SMS before (else START is a first subscription)."""
    if keyword is Keyword.STOP:
        if suppressed:
            return KeywordDecision(None, None, ALREADY_STOPPED)
        return KeywordDecision(True, "opt_out", STOPPED_IN_WORDS if in_words else STOPPED)
    if keyword is Keyword.START or (keyword is Keyword.YES and suppressed):
        # A START from a number never opted in is consent too, recorded with its evidence.
        return KeywordDecision(False, "opt_in", STARTED if opted_in or suppressed else JOINED)
    if keyword is Keyword.YES and opt_in_prompt is not None:
        return KeywordDecision(None, "marketing_opt_in", SUBSCRIBED, prompted_by=opt_in_prompt)
    if keyword is Keyword.HELP:
        return KeywordDecision(None, None, HELP)
    if keyword is Keyword.PRIVACY:
        return KeywordDecision(None, None, PRIVACY)
    if keyword is Keyword.DELETE:
        return KeywordDecision(None, "deletion_requested", DELETION_REQUESTED)
    if suppressed:  # nothing may be sent after an opt-out but the keyword replies
        return KeywordDecision(None, None, None)
    return None


def keyword_language(text: str, default: str) -> str:
    """A bare Spanish keyword is answered in Spanish, a bare English one in English; an opt-out
    in words in the guest's language."""
    normal = normalise(text)
    if normal in SPANISH_WORDS:
        return "es"
    return "en" if normal in ALL_WORDS else default
