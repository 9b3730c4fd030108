import pytest

from frontdesk.knowledge.absence import asked_thing, is_absent, vocabulary


@pytest.mark.parametrize(
    ("question", "thing"),
    [
        ("is there a bowling alley?", "bowling alley"),
        ("do you guys have a cheesecake factory near the arena", "cheesecake factory"),
        ("hey! is there a gym? need to work out", "gym"),
        ("what time does the foxwoods buffet open", "foxwoods buffet"),
        ("¿hay bolera?", "bolera"),
        ("hola, ¿tienen alberca?", "alberca"),
        ("tienen buffet chino para niños", "buffet chino"),
    ],
)
def test_the_thing_a_question_asks_about_in_english_or_spanish(question, thing):
    assert asked_thing(question) == thing


def test_the_places_own_name_is_not_the_thing():
    assert asked_thing("is there a mohegan sun", ignore={"mohegan", "sun"}) is None


def test_absent_only_when_no_item_holds_every_word():
    items = [vocabulary("Seasons Buffet: an all-you-can-eat buffet"), vocabulary("Wi-Fi: free")]
    assert is_absent("bowling alley", items)
    assert not is_absent("buffet", items)
    assert not is_absent("wifi", items)
    assert not is_absent("buffett", items)  # a typo is the same word to a guest
    assert is_absent("chinese buffet", items)  # no item is both
    assert not is_absent("bowling alley or buffet", items)
