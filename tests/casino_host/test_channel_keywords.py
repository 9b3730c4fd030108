"""Compliance keywords (WP1 items 10-20, T4): exact whole-message match after normalisation,
natural-language opt-outs, what each does to consent, and replies that fit one SMS. Issue 19.
Through the service: test_channel_keyword_replies.py."""

from __future__ import annotations

import pytest

from frontdesk.assistants.casino_host.consent import replies
from frontdesk.assistants.casino_host.consent.keywords import Keyword, keyword_of, normalise
from frontdesk.assistants.casino_host.consent.replies import (
    ALREADY_STOPPED,
    HELP,
    STARTED,
    STOPPED,
    keyword_decision,
)
from frontdesk.assistants.casino_host.conversation import prompts
from frontdesk.assistants.casino_host.sms.gsm import classify_encoding

# -- recognising them (pure) -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["STOP", " stop ", "Stop.", "opt out", "OPTOUT", "Parar", "ALTO", "basta", "¡Cancelar!",
     "stop-all", "please stop texting me", "no más mensajes", "This is annoying stop texting me",
     "Don't text me again"],
)  # fmt: skip
def test_opt_outs_are_recognised(text):
    assert keyword_of(text) is Keyword.STOP


@pytest.mark.parametrize(
    "text",
    ["stop by the buffet later?", "I can't stop gambling", "Is the show sold out?",
     "Stop the music, I love this place", "What time does Todd English's end service?"],
)  # fmt: skip
def test_conversation_that_mentions_a_keyword_is_not_one(text):
    assert keyword_of(text) is None


@pytest.mark.parametrize(
    ("text", "keyword"),
    [("START", Keyword.START), ("Unstop", Keyword.START), ("iniciar", Keyword.START),
     ("HELP", Keyword.HELP), ("Info?", Keyword.HELP), ("Información", Keyword.HELP),
     ("PRIVACY", Keyword.PRIVACY), ("DELETE", Keyword.DELETE), ("Sí", Keyword.YES),
     ("ok!", Keyword.YES), ("Yes sounds good", None)],
)  # fmt: skip
def test_the_other_keywords(text, keyword):
    assert keyword_of(text) is keyword


def test_normalisation():
    assert normalise("  ¡Párar,   YA!  ") == "parar ya"
    assert normalise("Don't") == "dont"


def test_the_decisions():
    stop = keyword_decision(Keyword.STOP, suppressed=False)
    assert (stop.suppressed, stop.event, stop.reply) == (True, "opt_out", STOPPED)
    again = keyword_decision(Keyword.STOP, suppressed=True)
    assert (again.suppressed, again.event, again.reply) == (None, None, ALREADY_STOPPED)
    start = keyword_decision(Keyword.START, suppressed=True)
    assert (start.suppressed, start.event, start.reply) == (False, "opt_in", STARTED)
    assert keyword_decision(Keyword.YES, suppressed=True).event == "opt_in"
    # "yes" in a conversation answers the host: the graph takes it.
    assert keyword_decision(Keyword.YES, suppressed=False) is None
    assert keyword_decision(None, suppressed=False) is None
    silent = keyword_decision(None, suppressed=True)
    assert (silent.suppressed, silent.event, silent.reply) == (None, None, None)
    assert keyword_decision(Keyword.HELP, suppressed=True).reply == HELP


def test_every_keyword_reply_fits_one_sms():
    for name in ("STOPPED", "STOPPED_IN_WORDS", "ALREADY_STOPPED", "STARTED", "PRIVACY",
                 "DELETION_REQUESTED"):  # fmt: skip
        for language, template in getattr(replies, name).items():
            text = prompts.fill(
                template,
                casino="Mohegan Sun",
                phone="1-888-226-7711",
                privacy_url="https://mohegansun.com/privacy",
            )
            encoding, segments = classify_encoding(text)
            assert segments == 1, (name, language, encoding, len(text))


def test_the_spanish_words_are_keywords():
    from frontdesk.assistants.casino_host.consent.keywords import ALL_WORDS, SPANISH_WORDS

    assert SPANISH_WORDS <= ALL_WORDS
    assert keyword_of("Ayuda") is Keyword.HELP and keyword_of("borrar") is Keyword.DELETE


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Want our offers by text? Reply YES to subscribe, STOP to opt out.", True),
        ("¿Quiere nuestras ofertas por mensaje? Responda SÍ para suscribirse.", True),
        ('Text "yes" to join the list', True),
        ("Your table at Todd English's Tuscany is ready", False),
        ("Yes, the spa is open until 9", False),
    ],
)
def test_only_a_message_that_asks_for_yes_can_be_answered_with_consent(text, asks):
    from frontdesk.assistants.casino_host.consent.keywords import asks_for_consent

    assert asks_for_consent(text) is asks
