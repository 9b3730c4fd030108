"""Questions about something the casino does not have, answered in code (absent_reply.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from langchain_core.embeddings import Embeddings

from frontdesk.assistants.casino_host.content import CasinoContent
from frontdesk.assistants.casino_host.conversation.absent_reply import absent_reply
from frontdesk.knowledge.glossary import SPANISH_RESORT_GLOSSARY, Glossary


class Words(Embeddings):
    """An embedder that knows one synonym: a gym is a fitness centre. Everything else is far
    from everything else."""

    def _vector(self, text: str) -> list[float]:
        if "gym" in text.casefold() or "fitness" in text.casefold():
            return [1.0, 0.0]
        return [0.0, 1.0 if hash(text) % 2 else -1.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[0.0, 0.0] if "fitness" not in t.casefold() else self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


@pytest.fixture(scope="module")
def content():
    return CasinoContent.load()


def ask(content, casino_id, question, language="en"):
    services = SimpleNamespace(
        glossary=Glossary.load(SPANISH_RESORT_GLOSSARY), search=SimpleNamespace(embeddings=Words())
    )
    ctx = SimpleNamespace(catalog=content.catalog(casino_id), services=services)
    return absent_reply(ctx, question, language)


def test_a_thing_the_casino_lacks_is_said_to_be_missing(content):
    assert ask(content, "bellagio", "is there a bowling alley?") == (
        "Sorry, Bellagio doesn't have a bowling alley. Happy to help with dining, shows or the spa!"
    )


@pytest.mark.parametrize("question", ["is there a spa?", "any bars", "is there a buffet"])
def test_a_thing_the_casino_has_is_left_to_the_agents(content, question):
    assert ask(content, "mohegan_sun", question) is None


def test_a_venue_under_another_word_is_not_missing(content):
    # Bellagio's Fitness Center never says "gym"; the embedder puts them together.
    assert ask(content, "bellagio", "is there a gym") is None


def test_spanish_only_when_the_glossary_knows_every_word(content):
    assert ask(content, "mohegan_sun", "¿tienen alberca?", "es") is None  # not in the glossary
    # "cine" is "movie theater" to the glossary, and neither casino lists one.
    assert ask(content, "bellagio", "¿hay cine?", "es") == (
        "Lo siento, Bellagio no tiene cine. ¿Le ayudo con restaurantes, shows o el spa?"
    )


def test_an_english_question_in_a_spanish_conversation_is_judged_in_english(content):
    # The reply keeps the conversation's language; the thing is read as the guest wrote it.
    assert ask(content, "bellagio", "is there a bowling alley?", "es") == (
        "Lo siento, Bellagio no tiene bowling alley. ¿Le ayudo con restaurantes, shows o el spa?"
    )


# A concept embedder's axes: "theater" and "theatre" are one; "swimming" is the pool's.
CONCEPT_AXES = {"theater": 0, "theatre": 0, "pool": 1, "swimming": 1, "movie": 2}


class Concepts(Embeddings):
    """An embedder of concepts: a text is the sum of its words' concepts. "theater" and
    "theatre" are one; "swimming" is the pool's concept, so a swimming pool is a pool, while
    "movie" is a concept of its own that no venue has."""

    def _vector(self, text: str) -> list[float]:
        vector = [0.0, 0.0, 0.0, 0.01]
        for word in text.casefold().replace("(", " ").replace(")", " ").split():
            if word in CONCEPT_AXES:
                vector[CONCEPT_AXES[word]] += 1.0
        return vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def ask_concepts(content, casino_id, question, language="en"):
    services = SimpleNamespace(glossary=Glossary.load(SPANISH_RESORT_GLOSSARY),
                               search=SimpleNamespace(embeddings=Concepts()))  # fmt: skip
    ctx = SimpleNamespace(catalog=content.catalog(casino_id), services=services)
    return absent_reply(ctx, question, language)


def test_a_known_kind_word_does_not_make_an_unknown_thing_a_venue(content):
    # "movie theater" is near the O Theatre only through "theater"; the word the casino never
    # uses, "movie", is near no venue: the casino lacks it ("hay cine?" was told of a cinema).
    assert ask_concepts(content, "bellagio", "¿hay cine?", "es") == (
        "Lo siento, Bellagio no tiene cine. ¿Le ayudo con restaurantes, shows o el spa?"
    )
    assert ask_concepts(content, "bellagio", "is there a movie theater?") is not None


def test_an_unknown_word_that_is_itself_near_a_venue_keeps_it(content):
    # Mohegan Sun's items never say "swimming", but its Indoor Pool is a swimming pool.
    assert ask_concepts(content, "mohegan_sun", "is there a swimming pool?") is None


class Poker(Embeddings):
    """Poker is poker; every other word is nothing (a zero vector is near nothing)."""

    def _vector(self, text: str) -> list[float]:
        return [1.0 if "poker" in text.casefold() else 0.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def test_a_day_word_is_not_part_of_the_thing(content):
    # "Are there poker tournaments tomorrow?" at Bellagio was told it has none: "tomorrow" was
    # taken for the unknown word that had to be near a venue on its own.
    services = SimpleNamespace(glossary=Glossary.load(SPANISH_RESORT_GLOSSARY),
                               search=SimpleNamespace(embeddings=Poker()))  # fmt: skip
    ctx = SimpleNamespace(catalog=content.catalog("bellagio"), services=services)
    assert absent_reply(ctx, "Are there poker tournaments tomorrow?", "en") is None


@pytest.mark.parametrize(
    ("casino_id", "question", "name"),
    [
        # Another casino's restaurant, asked about by name with a field.
        ("mohegan_sun", "is picasso open tonight?", "picasso"),
        ("bellagio", "cheesecake factory hrs? want to go after the show", "cheesecake factory"),
        ("mohegan_sun", "can i book nobu for 8 tonite", "nobu"),
    ],
)
def test_a_place_named_while_asking_of_it_is_missing_when_the_casino_lacks_it(
    content, casino_id, question, name
):
    reply = ask(content, casino_id, question)
    assert reply is not None and "doesn't have" in reply and name in reply


def test_the_casinos_own_places_asked_the_same_way_are_left_to_the_agents(content):
    names = [v.name for v in content.catalog("bellagio").venues()][:6]
    for name in names:
        assert ask(content, "bellagio", f"{name.lower()} hrs?") is None, name
        assert ask(content, "bellagio", f"can i book {name.lower()} for 8") is None, name
