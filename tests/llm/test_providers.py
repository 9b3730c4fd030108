"""build_chat_model: provider selection and the hosted providers' wiring and errors."""

from __future__ import annotations

import sys
import types

import pytest

from frontdesk.config import Settings
from frontdesk.llm import build_chat_model

HOSTED = [
    ("openai", "langchain_openai", "ChatOpenAI"),
    ("google", "langchain_google_genai", "ChatGoogleGenerativeAI"),
    ("anthropic", "langchain_anthropic", "ChatAnthropic"),
]


def settings(tmp_path, **values) -> Settings:
    return Settings(data_dir=tmp_path, _env_file=None, **values)


@pytest.mark.parametrize("provider, module, _cls", HOSTED)
def test_a_missing_extra_names_the_pip_command(tmp_path, monkeypatch, provider, module, _cls):
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` fail
    with pytest.raises(ImportError, match=rf"pip install 'frontdesk\[{provider}\]'"):
        build_chat_model(settings(tmp_path, llm_provider=provider, llm_model="some-model"))


@pytest.fixture
def fake_vendor(monkeypatch):
    """Install a stand-in LangChain vendor module that records constructor arguments."""

    def install(module: str, cls: str) -> list[dict]:
        created: list[dict] = []

        class FakeChat:
            def __init__(self, **kwargs):
                created.append(kwargs)

        monkeypatch.setitem(sys.modules, module, types.SimpleNamespace(**{cls: FakeChat}))
        return created

    return install


@pytest.mark.parametrize("provider, module, cls", HOSTED)
def test_hosted_models_get_the_generation_settings(tmp_path, fake_vendor, provider, module, cls):
    created = fake_vendor(module, cls)
    build_chat_model(
        settings(
            tmp_path,
            llm_provider=provider,
            llm_model="vendor-model",
            llm_temperature=0.5,
            llm_max_tokens=99,
            llm_timeout_s=12.0,
            llm_api_key="secret",
        )
    )
    [kwargs] = created
    assert kwargs["model"] == "vendor-model"
    assert kwargs["temperature"] == 0.5 and kwargs["timeout"] == 12.0
    assert 99 in (kwargs.get("max_tokens"), kwargs.get("max_output_tokens"))
    key = kwargs.get("api_key") or kwargs.get("google_api_key")
    assert key.get_secret_value() == "secret"


def test_an_openai_compatible_server_needs_no_key(tmp_path, fake_vendor):
    created = fake_vendor("langchain_openai", "ChatOpenAI")
    build_chat_model(
        settings(tmp_path, llm_provider="openai", llm_base_url="http://127.0.0.1:11434/v1")
    )
    [kwargs] = created
    assert kwargs["base_url"] == "http://127.0.0.1:11434/v1"
    assert kwargs["api_key"]  # a placeholder: the OpenAI client refuses an empty key
    assert kwargs["model"] == "qwen2.5-coder-0.5b"  # whatever the local server serves


@pytest.mark.parametrize("provider, module, cls", HOSTED)
def test_an_embedded_model_name_is_refused_for_a_hosted_api(
    tmp_path, fake_vendor, provider, module, cls
):
    fake_vendor(module, cls)
    with pytest.raises(ValueError, match="names an embedded model"):
        build_chat_model(settings(tmp_path, llm_provider=provider))
