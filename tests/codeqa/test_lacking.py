"""What a question asks about that the repository nowhere holds, decided before the model."""

from __future__ import annotations

import re

import pytest

from frontdesk.assistants.codeqa.retrieval.lacking import (
    asked_things,
    lacking_words,
    unknown_names,
)
from frontdesk.assistants.codeqa.retrieval.tokenizer import code_terms

# A repository's words, as its search reads them.
REPOSITORY_TEXT = """
class HTTPDigestAuth:
    def handle_401(self, response): '''Answer a challenge for the digest.'''
def should_strip_auth(old_url, new_url): '''Strip the header when the host is different.'''
def super_len(body): return len(body)  # a file-like body's length
class Session:
    def send(self, request, timeout=None): pass
SOCKS proxies are wired up in the adapter. Retries: max_retries. Fish completion scripts.
"""
VOCABULARY = frozenset(code_terms(REPOSITORY_TEXT))
WORDS = frozenset(re.findall(r"[a-z]{5,}", REPOSITORY_TEXT.lower()))
SYMBOLS = {"HTTPDigestAuth", "handle_401", "should_strip_auth", "super_len", "Session", "send"}


def has_term(term: str) -> bool:
    return term in VOCABULARY


def is_symbol(name: str) -> bool:
    return name in SYMBOLS or name.rsplit(".", 1)[-1] in SYMBOLS


def lacking(question: str) -> list[str]:
    return lacking_words(question, has_term, lambda: WORDS)


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("where's AsyncSession defined", ["AsyncSession"]),
        ("how does HTTPDigestAuth.handle_407 deal with proxy challenges", ["HTTPDigestAuth.handle_407"]),
        ("what does `Response.raise_for_redirect` do", ["Response.raise_for_redirect"]),
        ("merge_proxies in sessions.py - how does it merge them", ["merge_proxies"]),
        # Names the repository has, as symbols or as words, and prose.
        ("how does HTTPDigestAuth.handle_401 work", []),
        ("what calls should_strip_auth()", []),
        ("where is max_retries used", []),
        ("e.g. how does the session send, i.e. the request", []),
        ("what is in setup_tools.cfg", []),
    ],
)  # fmt: skip
def test_a_name_shaped_like_code_that_no_file_holds_is_missing(question, missing):
    assert unknown_names(question, has_term, is_symbol) == missing


@pytest.mark.parametrize(
    ("question", "things"),
    [
        ("does it support websockets? where", ["websockets"]),
        ("which module generates man pages for a cli", ["man pages for a cli"]),
        ("where is the spinner in termui implemented", ["spinner"]),
        ("and the nushell one?", ["nushell"]),
        ("and where's the bearer token version of that?", ["bearer token"]),
        ("where does requests compute the exponential backoff delay", ["exponential backoff delay"]),
        ("show me the tests for dispatch_hook", ["dispatch_hook"]),
        ("how does the client decide to retry", []),
    ],
)  # fmt: skip
def test_the_thing_a_question_asks_about(question, things):
    assert asked_things(question) == things


def test_a_thing_is_lacking_when_a_word_of_it_appears_nowhere():
    assert lacking("does requests support websockets?") == ["websockets"]
    assert lacking("and the nushell one?") == ["nushell"]
    assert lacking("which file does the h2 / alpn negotiation") == ["h2", "alpn", "negotiation"]


def test_a_thing_the_repository_holds_even_misspelt_is_not_lacking():
    assert lacking("does it support socks proxies, where's that wired up") == []
    assert lacking("which class implements digest auth") == []
    assert lacking("which class generates fish completion scripts") == []
    # "diffrent" is the repository's "different": a typo is not a missing feature.
    assert lacking("which function handles a diffrent host") == []
    # ... but a short word is not taken for another that merely resembles it.
    assert lacking("does it support async sessions") == ["async"]
    # No thing asked about: nothing is called missing, whatever the words.
    assert lacking("how do I frobnicate the quux") == []
