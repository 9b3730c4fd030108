"""A real Frontdesk server in its own process, for tests that need one (killed mid-turn,
fuzzed over HTTP): the registry's assistants with the scripted model, whose words are
`FRONTDESK_TEST_TOKEN_DELAY_S` apart, so a turn lasts as long as a test needs.

    python tests/server/scripted_server.py   # settings from the FRONTDESK_* environment
"""

from __future__ import annotations

import os

import frontdesk.llm
from frontdesk.config import get_settings
from frontdesk.llm.scripted import ScriptedChatModel
from frontdesk.server.app import serve

_build_chat_model = frontdesk.llm.build_chat_model


def slowed_chat_model(settings):
    model = _build_chat_model(settings)
    if isinstance(model, ScriptedChatModel):
        model.token_delay_s = float(os.environ.get("FRONTDESK_TEST_TOKEN_DELAY_S", "0"))
    return model


if __name__ == "__main__":
    frontdesk.llm.build_chat_model = slowed_chat_model
    serve(get_settings())
