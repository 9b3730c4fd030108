"""A request for money back is recognised in English and Polish, and told apart from questions
about refund rules and about cases already made."""

import pytest

from frontdesk.assistants.telecom.refund_intent import requests_refund


@pytest.mark.parametrize(
    "text",
    [
        "The October bill is way too high for my plan. Refund the difference.",
        "hi, I'd like my money back for the roaming I never used",
        "Can I get 10 PLN back? The internet was down all weekend.",
        "could you refund invoice INV-20251001 please",
        "I signed last week and want to withdraw from the contract",
        "Dzień dobry, potrzebuję zwrotu.",
        "chce zwrot za awarie sieci",
        "proszę zwrócić mi 20 zł za wrzesień",
        "czy mogę prosić o zwrot nadpłaty?",
        "podpisałam umowę 3 dni temu i chcę od niej odstąpić",
        "należy mi się rekompensata za brak zasięgu",
        "zwrot",
    ],
)
def test_requests_for_money_back(text: str):
    assert requests_refund(text)


@pytest.mark.parametrize(
    "text",
    [
        # the rules
        "how long does a refund take?",
        "what is your refund policy",
        "is the activation fee refundable",
        "can I withdraw from the contract after signing",
        "jakie są zasady zwrotów",
        "ile trwa zwrot pieniędzy",
        "na jakie konto wraca zwrot",
        # a case already made
        "what is the status of my refund",
        "any update on my refund claim?",
        "is R10001 approved yet",
        "czy mój zwrot został już przyjęty",
        "co z moim zwrotem",
        # no money asked back, or declined
        "why is my bill 95 PLN this month?",
        "I don't want a refund, just explain the roaming charge",
        "nie chcę zwrotu, tylko wyjaśnienia",
    ],
)
def test_not_requests_for_money_back(text: str):
    assert not requests_refund(text)
