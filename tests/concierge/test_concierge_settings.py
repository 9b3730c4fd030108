"""The concierge's own settings: FRONTDESK_CONCIERGE_* variables, and the former core names
refused with the new ones named."""

from __future__ import annotations

from pathlib import Path

import pytest

from frontdesk.assistants.concierge.settings import ConciergeSettings
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError


@pytest.fixture(autouse=True)
def no_env_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env from the checkout


def test_its_variables_carry_the_concierge_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTDESK_CONCIERGE_RAG_TOP_K", "3")
    monkeypatch.setenv("FRONTDESK_CONCIERGE_VALIDATOR_LLM", "true")
    own = ConciergeSettings.of(Settings(_env_file=None))
    assert own.rag_top_k == 3
    assert own.validator_llm is True
    assert own.knowledge_file is None


def test_values_given_in_code_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTDESK_CONCIERGE_RAG_TOP_K", "3")
    settings = Settings(_env_file=None, plugin_settings={"concierge": {"rag_top_k": 7}})
    assert ConciergeSettings.of(settings).rag_top_k == 7


@pytest.mark.parametrize(
    ("former", "current"),
    [
        ("FRONTDESK_KNOWLEDGE_FILE", "FRONTDESK_CONCIERGE_KNOWLEDGE_FILE"),
        ("FRONTDESK_RAG_TOP_K", "FRONTDESK_CONCIERGE_RAG_TOP_K"),
        ("FRONTDESK_VALIDATOR_LLM", "FRONTDESK_CONCIERGE_VALIDATOR_LLM"),
    ],
)
def test_a_former_name_is_refused_with_the_new_one_named(
    monkeypatch: pytest.MonkeyPatch, former: str, current: str
) -> None:
    monkeypatch.setenv(former, "1")
    with pytest.raises(FrontdeskError) as refused:
        ConciergeSettings.of(Settings(_env_file=None))
    assert f"{former} -> {current}" in str(refused.value)


def test_a_former_name_in_the_env_file_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("FRONTDESK_RAG_MIN_SIMILARITY=0.3\n")
    with pytest.raises(FrontdeskError, match="FRONTDESK_CONCIERGE_RAG_MIN_SIMILARITY"):
        ConciergeSettings.of(Settings(_env_file=None))
