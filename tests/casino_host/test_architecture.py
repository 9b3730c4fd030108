"""The casino host's layout holds: imports point one way, from the orchestrator down its layers.

The top level (`plugin`, `build`, `service`, `cli`, `settings`) is the orchestrator and may use
every part. Below it, each layer may use only what `ALLOWED` lists (`tests/layering.py` reads
the imports with `ast`, `TYPE_CHECKING` blocks included). The channel reaches the host through
its `HostTurn` port, never the service; the conversation never sees the channel, the consent
writes or the turn's records; the pure domains (compliance, content, profile, sms) import none
of the host.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests import layering

from frontdesk.assistants import casino_host

ROOT = Path(casino_host.__file__).parent
PACKAGE = casino_host.__name__

# Part -> what else of the casino host it may import (its own modules always). `settings` is
# the one top-level module the parts share (the host's behaviour settings); `build` is open
# to the evaluation alone, which builds the whole host to play its conversations.
ALLOWED: dict[str, frozenset[str]] = {
    # Pure domains: no storage, no model, none of the host.
    "compliance": frozenset(),
    "content": frozenset(),
    "profile": frozenset(),
    "sms": frozenset(),
    # The database, keeping profiles as the profile domain writes them.
    "storage": frozenset({"profile"}),
    # The graph and what it runs on.
    "conversation": frozenset({"compliance", "content", "profile", "sms", "settings"}),
    # What a turn writes and reports (a summary message is the conversation's).
    "records": frozenset({"compliance", "conversation", "profile", "sms", "storage"}),
    # Keywords and their writes (their replies are in the host's words, `prompts`).
    "consent": frozenset({"content", "conversation", "profile", "records", "sms", "storage"}),
    # The SMS transport: webhooks, queue, senders, simulator; the host only through its port.
    "channel": frozenset({"consent", "content", "profile", "sms", "storage", "settings"}),
    "evaluation": frozenset({"build", "compliance", "conversation", "sms", "settings"}),
    # The people behind the host: alerts, the SLA sweep, the staff page; a host's answer goes
    # out through the channel's sending gate.
    "staff": frozenset({"channel", "content", "storage"}),
}
SHARED = ("settings",)
# The orchestrator: the only modules at the top level.
TOP_LEVEL = {"__init__", "plugin", "build", "service", "settings", "cli"}


def test_every_layer_imports_only_what_its_rule_allows():
    assert layering.violations(ROOT, PACKAGE, ALLOWED, SHARED) == []


def test_the_layers_are_the_subpackages_and_each_says_what_it_is():
    assert layering.parts(ROOT) == set(ALLOWED)
    assert layering.undocumented_parts(ROOT) == []


def test_the_top_level_is_the_orchestrator_alone():
    assert {p.stem for p in ROOT.glob("*.py")} == TOP_LEVEL


def test_no_module_is_too_long_to_read():
    assert layering.long_modules(ROOT) == {}


@pytest.fixture
def fake_host(tmp_path):
    """A minimal casino-host-shaped tree whose layers follow the rules."""
    root = tmp_path / "casino_host"
    for name in TOP_LEVEL:
        layering.write_module(root, f"{name}.py", '"""x"""\n')
    for part in ALLOWED:
        layering.write_module(root, f"{part}/__init__.py", '"""x"""\n')
    layering.write_module(
        root, "channel/gateway.py", f"from {PACKAGE}.consent.records import DeliveryClaim\n"
    )
    layering.write_module(
        root, "records/turns.py", "from ..conversation.windowing import is_summary\n"
    )
    return root


def test_the_rule_check_passes_a_tree_that_follows_the_rules(fake_host):
    assert layering.violations(fake_host, PACKAGE, ALLOWED, SHARED) == []


@pytest.mark.parametrize(
    ("relative", "text", "expected"),
    [
        # The channel reaching into the service instead of its port.
        ("channel/gateway.py", f"from {PACKAGE}.service import CasinoHostService\n", "service"),
        ("channel/gateway.py", "if TYPE_CHECKING:\n    from .. import service\n", "service"),
        # The channel reading the host's words instead of asking the host for them.
        ("channel/gateway.py", f"from {PACKAGE}.conversation import prompts\n", "conversation"),
        ("conversation/nodes/gate.py", f"from {PACKAGE}.records.turns import Intake\n", "records"),
        ("conversation/graph.py", "from ..channel import gateway\n", "channel"),
        ("records/turns.py", f"from {PACKAGE}.consent.records import receive\n", "consent"),
        ("compliance/gate.py", f"from {PACKAGE}.storage import Store\n", "storage"),
        ("storage/guests.py", "from ..content import CasinoContent\n", "content"),
        ("consent/records.py", f"def f():\n    from {PACKAGE} import build\n", "build"),
    ],
)
def test_the_rule_check_catches_an_import_against_the_direction(
    fake_host, relative, text, expected
):
    layering.write_module(fake_host, relative, text)
    found = layering.violations(fake_host, PACKAGE, ALLOWED, SHARED)
    assert len(found) == 1 and found[0].startswith(relative) and f"({expected})" in found[0]


def test_the_settings_never_import_a_layer_at_run_time(fake_host):
    layering.write_module(
        fake_host, "settings.py", f"from {PACKAGE}.storage.settings import StorageSettings\n"
    )
    assert layering.violations(fake_host, PACKAGE, ALLOWED, SHARED) == [
        f"settings.py: imports {PACKAGE}.storage.settings.StorageSettings at run time"
    ]
