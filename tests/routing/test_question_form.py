import pytest

from frontdesk.routing.classifier import Prediction
from frontdesk.routing.question_form import (
    asks_about_rules,
    asks_for_information,
    asks_whether_exists,
    asks_whether_offered,
)
from frontdesk.routing.router import IntentRouter, Reroute


@pytest.mark.parametrize(
    "text",
    ["how late can I cancel my room without paying?", "What's the cancellation policy",
     "where do I book a cabana", "Whens checkout", "who do i call to change my reservation"],
)
def test_questions_ask_for_information(text):
    assert asks_for_information(text)


@pytest.mark.parametrize(
    "text",
    ["cancel my hotel reservation", "can you book me a table", "is it possible to get a table for 4",
     "please upgrade me to a suite", "", "   ?"],
)
def test_requests_do_not(text):
    assert not asks_for_information(text)


class Fixed:
    def __init__(self, label):
        self.label = label
        self.labels = ["property_qa", "action_request"]

    def predict(self, text):
        return Prediction(self.label, 0.6, {self.label: 0.6})


def test_a_reroute_changes_only_its_label_and_only_where_it_applies():
    reroutes = [Reroute("action_request", "property_qa", asks_for_information)]
    router = IntentRouter(Fixed("action_request"), reroutes=reroutes)
    policy = router.classify("how late can i cancel my room")
    assert (policy.label, policy.confidence, policy.method) == ("property_qa", 0.6, "reroute")
    assert router.classify("cancel my room").label == "action_request"
    other = IntentRouter(Fixed("property_qa"), reroutes=reroutes).classify("cancel my room")
    assert (other.label, other.method) == ("property_qa", "classifier")


@pytest.mark.parametrize(
    "text",
    ["is there an irish pub", "Are there lockers?", "Do you have a kids club or babysitting?",
     "does Mohegan Sun have a golf course", "any vegan food?", "have you got a spa",
     "do you guys have lockers", "does the casino have craps"],
)
def test_questions_asking_whether_there_is_one(text):
    assert asks_whether_exists(text)


@pytest.mark.parametrize(
    "text",
    ["where is the pub", "is the pool open", "do you know the hours", "there is a pub?",
     "do i have to pay to self park?", "does my room have to be booked ahead"],
)
def test_other_questions_do_not_ask_whether_there_is_one(text):
    assert not asks_whether_exists(text)


@pytest.mark.parametrize(
    "text",
    ["do you have craps tables", "is there baccarat here?", "does momentum ascend get free valet",
     "do leap members get a discount", "who runs the sportsbook here",
     "where is the poker room"],
)
def test_asking_whether_a_game_or_perk_is_offered(text):
    assert asks_whether_offered(text)


@pytest.mark.parametrize(
    "text",
    ["is there a way to win at slots", "do you have tips to beat blackjack",
     "which slot machine pays best", "does craps have the best odds", "book me a table",
     "where are the loose slots", "who has the best odds on the patriots game",
     "how do i double my money tonight"],
)
def test_advice_is_not_a_question_about_what_is_offered(text):
    assert not asks_whether_offered(text)


@pytest.mark.parametrize(
    "text",
    ["do i need to cancel my room a day ahead", "can i bring a backpack into the arena",
     "is there a fee if i cancel late", "are purses allowed at concerts",
     "is late check out possible", "will we get charged for a same-day cancellation"],
)
def test_questions_about_what_the_rules_allow(text):
    assert asks_about_rules(text)


@pytest.mark.parametrize(
    "text",
    ["can i book a table for 4", "cancel my room", "can you reserve the spa",
     "is it possible to get a table for 4", "please upgrade me to a suite"],
)
def test_requests_are_not_questions_about_rules(text):
    assert not asks_about_rules(text)
