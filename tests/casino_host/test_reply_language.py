"""The language a reply is written in (item 44, with issue 34's rule for one message)."""

from __future__ import annotations

from frontdesk.assistants.casino_host.conversation.nodes.understanding import reply_language


def test_a_message_that_shows_its_language_is_answered_in_it():
    # "¿tienen mariscos?" from a guest whose language on file is English got an English reply.
    assert reply_language("en", "es", "en", None) == ("es", False)


def test_two_in_a_row_change_the_guests_language():
    assert reply_language("en", "es", "es", None) == ("es", True)


def test_a_language_the_guest_asked_for_holds_over_one_message_in_the_other():
    assert reply_language("es", "en", "es", None, chosen=True) == ("es", False)
    assert reply_language("es", "en", "en", None, chosen=True) == ("en", True)


def test_a_message_with_no_sign_of_its_language_keeps_the_guests():
    assert reply_language("es", None, "es", None) == ("es", False)
    assert reply_language(None, None, None, None) == ("en", False)


def test_an_explicit_request_switches_at_once():
    assert reply_language("en", "en", "en", "es") == ("es", True)
