import pytest

from frontdesk.knowledge.absence import (
    asked_thing,
    is_absent,
    name_vocabulary,
    name_words,
    names_of,
    vocabulary,
)
from frontdesk.knowledge.asked_name import asked_name


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
        ("<b>is there a bowling alley?</b>", "bowling alley"),
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


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("cheesecake factory hrs? want to go after the show", "cheesecake factory"),
        ("starbucks open yet?? need coffee", "starbucks"),
        ("can i book olive garden for 8 tonite, party of 6", "olive garden"),
        ("is the shake shack any good or overhyped lol", "shake shack"),
        ("how late does MJ's sushi bar serve", "mj's sushi bar"),
        ("nah my buddy said its called sunset steakhouse, what time", "sunset steakhouse"),
        ("winter lodge bar by the winter entrance hrs", "winter lodge bar"),
        ("lucky's steakhouse can i get a table for 4 at 7", "lucky's steakhouse"),
        ("sweet. and cinnabon? wife wants one", "cinnabon"),
        ("nobu rez for 2 at 9 pls", "nobu"),
        ("how much is the zipline", "zipline"),
        ("how much is a 50 min massage", "massage"),
        ("can i rent a cabana at the pool", "cabana"),
        ("what are the hours for the zipline", "zipline"),
        ("tell me about the helipad", "helipad"),
        # The name alone, then what is asked of it.
        ("hookah lounge?? where is it and how late", "hookah lounge"),
        ("mini golf near the hotel? how much a round", "mini golf"),
        ("my room is cold. what time does the pool open", None),
        ("i want a refund? how much", None),
        ("tell me about your loyalty program", None),
        ("how much does it cost", None),
        # Not names: a search, a question's frame, a thing every building has.
        ("bbq brisket", None),
        ("im 19 can i book a room", None),
        ("add my friend to the reservation", None),
        ("somewhere to drop the kids for a couple hrs", None),
        ("where's the bathroom", None),
        ("what time does the spa open", None),
    ],
)
def test_the_place_a_question_names_while_asking_something_of_it(question, name):
    assert asked_name(question) == name


def test_a_name_that_uses_the_guides_own_names_is_judged_whole():
    names = ["Seasons Buffet", "Michael Jordan's Steak House", "Sunrise Lounge", "Bobby's Burgers"]
    items = [
        name_vocabulary(
            "Seasons Buffet", "a river view dinner buffet with tacos for lucky winners"
        ),
        name_vocabulary("Michael Jordan's Steak House", "guests dine on steak"),
        name_vocabulary("Sunrise Lounge", "a lounge"),
        name_vocabulary("Bobby's Burgers", "burgers and shakes"),
        name_vocabulary("Golf Club", "an 18-hole course"),
    ]
    words = name_words((*names, "Golf Club"))
    assert {"buffet", "steakhouse", "house", "lounge", "bobby", "golf"} <= words
    # Every word is somewhere in the guide, but no one place has them all.
    assert not is_absent("lucky's steakhouse", items)
    assert is_absent("lucky's steakhouse", items, name_words=words)
    assert is_absent("sunrise buffet dinner", items, name_words=words)
    assert is_absent("bobby's tacos", items, name_words=words)
    assert is_absent("mini golf", items, name_words=words)
    # The guide's own places, by their names, their initials and a meal.
    assert not is_absent("michael jordans steakhouse", items, name_words=words)
    assert not is_absent("mj steakhouse", items, name_words=words)
    assert not is_absent("seasons buffet dinner", items, name_words=words)
    assert not is_absent("golf club", items, name_words=words)
    # A thing that holds one of the guide's names whole is that item: the glossary renders
    # "gimnasio" as "fitness center gym", which had been said to be missing.
    fitness = [*items, name_vocabulary("Fitness Center", "cardio and weights")]
    titles = names_of((*names, "Golf Club", "Fitness Center"))
    assert not is_absent("fitness center gym", fitness, name_words=words, names=titles)
    assert is_absent("bobby's tacos", fitness, name_words=words, names=titles)
    # A description that uses none of its names is judged by its words.
    assert not is_absent("river view", items, name_words=words)


@pytest.mark.parametrize(
    "question",
    [
        "yo is beauty and essex open tonight?? wanna do the pawn shop entrance thing lol",
        "hey is picasso open tonight?",
    ],
)
def test_a_greeting_before_the_question_is_not_part_of_the_name(question):
    assert asked_name(question) in ("beauty and essex", "picasso")


@pytest.mark.parametrize(
    "question",
    [
        "3 hr drive and my back is killing me where can i get a massage around here",
        "how much for a normal one, nothing fancy",
        "how much do yall charge for valet",
    ],
)
def test_a_clause_with_a_verb_or_a_word_pointing_back_names_no_place(question):
    assert asked_name(question) is None


def test_a_way_of_getting_somewhere_is_asked_with_where_it_goes():
    from frontdesk.knowledge.absence import asked_thing, is_absent, vocabulary

    assert asked_thing("is there a shuttle to the airport?") == "shuttle to the airport"
    assert asked_thing("any bus from boston tonight?") == "bus from boston"
    assert asked_thing("is there a pool to swim in") == "pool"  # no way of getting anywhere
    garage = vocabulary("Riverview Garage. Free parking. Shuttle carts on busy nights.")
    getting_here = vocabulary(
        "Getting here. Casino bus lines run daily from Boston and Providence; Bradley "
        "International airport is an hour away."
    )
    guide = [garage, getting_here]
    names = (frozenset({"riverview", "garage"}), frozenset({"airports"}))
    assert is_absent("shuttle to airport", guide, names=names)  # not the "Airports" item
    # Each word is somewhere in the guide, but no item runs a shuttle to the airport.
    assert is_absent("shuttle to airport", guide)
    assert is_absent("airport shuttle", guide)
    assert not is_absent("bus from boston", guide)
    assert not is_absent("shuttle", guide)
    assert not is_absent("shuttle carts", guide)
