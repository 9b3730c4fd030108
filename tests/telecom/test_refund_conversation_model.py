"""The seed's refund conversation with the real embedded models (MiniLM + the GGUF chat model):
the agent asks for the invoice, and the answer, in five phrasings in English and five in
Polish, continues the request and opens exactly one case in the billing database.

Every conversation is the signed-in demo customer's, on one of their own invoices (20 PLN is
below every demo invoice). The answer turns take no model call when the model read the reason
from the opening (nothing required is left for it), so the run costs about one model call per
conversation; when it did not, the agent asks for the reason and one more answer gives it.
Slow, so marked `model`.
"""

from __future__ import annotations

import uuid

import pytest

from frontdesk.assistants.telecom.billing_db import BillingStore
from frontdesk.assistants.telecom.service import build_service
from frontdesk.assistants.telecom.settings import TelecomSettings
from frontdesk.runtime import Models

pytestmark = pytest.mark.model

OPENING = {
    "en": "I want a refund of 20 PLN: I was overcharged for a roaming add-on I never ordered.",
    "pl": "Proszę o zwrot 20 zł, bo naliczono mi za dużo: roaming, którego nie zamawiałem.",
}
REASON = {"en": "The reason is an overcharge.", "pl": "Powód: nadpłata."}
# (customer, invoice, the answer to "which invoice?")
ANSWERS = {
    "en": [
        ("u123", "INV-20251001", "It's INV-20251001"),
        ("u123", "INV-20250901", "ok, INV-20250901"),
        ("u123", "INV-20250801", "the invoice is INV-20250801"),
        ("u789", "INV-20250903", "INV-20250903, 20 PLN, wrong charge"),
        ("u789", "INV-20251003", "Invoice number: INV-20251003"),
    ],
    "pl": [
        ("u456", "INV-20250802", "to faktura INV-20250802"),
        ("u456", "INV-20250902", "numer faktury: INV-20250902"),
        ("u456", "INV-20251002", "ok, INV-20251002"),
        ("anna.kowalska", "INV-20250806", "INV-20250806, 20 zł, nadpłata"),
        ("anna.kowalska", "INV-20250906", "Chodzi o fakturę INV-20250906"),
    ],
}


@pytest.fixture(scope="module")
def settings(tmp_path_factory, real_model_settings):
    return real_model_settings(
        tmp_path_factory.mktemp("telecom-refunds"), checkpointer="memory", llm_timeout_s=300
    )


@pytest.mark.parametrize("language", ["en", "pl"])
async def test_the_answer_to_which_invoice_opens_one_case(settings, language):
    service = await build_service(settings, Models(settings))
    store = BillingStore(TelecomSettings.of(settings).billing_database(settings))
    try:
        for user, invoice, answer in ANSWERS[language]:
            thread = str(uuid.uuid4())
            before = len(store.list_cases(user))
            asked = await service.ask(OPENING[language], thread, user_id=user)
            assert asked.route == "billing" and asked.extra["used_tools"] == [], asked.answer
            assert asked.extra["state_excerpt"].get("pending_tool") == "open_refund_case"
            assert "INV-" in asked.answer, asked.answer  # it asks for the invoice number
            done = await service.ask(answer, thread, user_id=user)
            assert done.route == "billing", (answer, done.answer)
            if not done.extra["used_tools"]:
                # The 0.5B model does not always read the reason from the opening: the agent
                # then asks for it (still keeping the invoice) and one more answer completes it.
                pending = done.extra["state_excerpt"].get("pending_tool")
                assert pending == "open_refund_case", (answer, done.answer)
                asks_invoice = ("invoice number", "numer faktury")
                assert not any(words in done.answer for words in asks_invoice), done.answer
                assert len(store.list_cases(user)) == before
                done = await service.ask(REASON[language], thread, user_id=user)
            (used,) = done.extra["used_tools"]
            assert used["name"] == "open_refund_case" and used["ok"], (answer, used)
            assert used["args"]["invoice_id"] == invoice and used["args"]["amount_pln"] == 20
            cases = store.list_cases(user)
            assert len(cases) == before + 1, answer
            assert (cases[-1].invoice_id, cases[-1].case_id) == (invoice, used["output"]["case_id"])
            assert cases[-1].case_id in done.answer
    finally:
        store.dispose()
        await service.aclose()
