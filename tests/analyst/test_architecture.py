"""The analyst's layout holds: imports point one way, from the orchestrator down to its parts.

The top level (`service`, `graph`, `nodes`, `state`, `prompts`, `evaluation`) is the orchestrator
and may use every part. The parts may use only what `ALLOWED` lists, read from their source with
`ast` (imports inside functions and `TYPE_CHECKING` blocks included), so a part that reaches up
into the orchestrator or sideways into a part it should not know fails here, not in review.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests import layering

from frontdesk.assistants import analyst

ROOT = Path(analyst.__file__).parent
PACKAGE = analyst.__name__

# Part -> what else of the analyst it may import (its own modules are always allowed). A name
# is a subpackage or a top-level module; `state` and `prompts` are the orchestrator's modules
# that the SQL agent shares (its state types and its prompt texts), `settings` the analyst's
# own settings (its limits).
ALLOWED: dict[str, frozenset[str]] = {
    "db": frozenset(),
    "joins": frozenset(),
    "sql": frozenset({"joins"}),
    "demo": frozenset({"db"}),
    "sql_agent": frozenset({"sql", "joins", "db", "state", "prompts", "settings"}),
    # The semantic file is checked with the SQL checker and becomes join overrides.
    "semantic": frozenset({"sql", "joins"}),
}
# The shared top-level modules the SQL agent imports must not import it back at run time (a
# `TYPE_CHECKING` import for an annotation is fine), or the two would load each other.
SHARED = ("state", "prompts")


def violations(root: Path, package: str) -> list[str]:
    return layering.violations(root, package, ALLOWED, SHARED)


def test_every_part_imports_only_what_its_rule_allows():
    assert violations(ROOT, PACKAGE) == []


def test_the_parts_are_the_subpackages_and_each_says_what_it_is():
    assert layering.parts(ROOT) == set(ALLOWED)
    assert layering.undocumented_parts(ROOT) == []


def test_no_module_is_too_long_to_read():
    assert layering.long_modules(ROOT) == {}


@pytest.fixture
def fake_analyst(tmp_path):
    """A minimal analyst-shaped tree whose parts follow the rules."""
    root = tmp_path / "analyst"
    for name in ("__init__.py", "service.py", "state.py", "prompts.py"):
        layering.write_module(root, name, '"""x"""\n')
    for part in ALLOWED:
        layering.write_module(root, f"{part}/__init__.py", '"""x"""\n')
    layering.write_module(root, "sql/check.py", f"from {PACKAGE}.joins.graph import Relationship\n")
    layering.write_module(
        root, "sql_agent/nodes.py", f"from {PACKAGE} import prompts\nfrom ..sql import check\n"
    )
    return root


def test_the_rule_check_passes_a_tree_that_follows_the_rules(fake_analyst):
    assert violations(fake_analyst, PACKAGE) == []


@pytest.mark.parametrize(
    ("relative", "text", "expected"),
    [
        ("sql/executor.py", f"from {PACKAGE}.sql_agent.toolkit import SQLToolkit\n", "sql_agent"),
        ("sql/executor.py", f"def f():\n    from {PACKAGE} import service\n", "service"),
        ("joins/paths.py", "from ..sql import check\n", "sql"),
        ("joins/paths.py", "from .. import state\n", "state"),
        ("db/engine.py", f"import {PACKAGE}.demo.build\n", "demo"),
        ("demo/data/common.py", "from ...sql.check import validate\n", "sql"),
        ("sql_agent/nodes.py", f"from {PACKAGE}.nodes import route\n", "nodes"),
        ("sql_agent/nodes.py", f"from {PACKAGE} import evaluation\n", "evaluation"),
        (
            "sql/repair.py",
            "if TYPE_CHECKING:\n    from ..sql_agent import toolkit\n",
            "sql_agent",
        ),
    ],
)
def test_the_rule_check_catches_an_import_against_the_direction(
    fake_analyst, relative, text, expected
):
    layering.write_module(fake_analyst, relative, text)
    found = violations(fake_analyst, PACKAGE)
    assert len(found) == 1 and found[0].startswith(relative) and f"({expected})" in found[0]


def test_the_rule_check_catches_a_shared_module_importing_the_agent_at_run_time(fake_analyst):
    type_only = "if TYPE_CHECKING:\n    from .sql_agent import toolkit\n"
    layering.write_module(fake_analyst, "state.py", type_only)
    assert violations(fake_analyst, PACKAGE) == []
    layering.write_module(fake_analyst, "state.py", "from .sql_agent import toolkit\n")
    expected = f"state.py: imports {PACKAGE}.sql_agent.toolkit at run time"
    assert violations(fake_analyst, PACKAGE) == [expected]


def test_the_rule_check_wants_a_rule_for_every_new_part(fake_analyst):
    layering.write_module(fake_analyst, "cache/__init__.py", '"""x"""\n')
    expected = "cache/__init__.py: part 'cache' has no rule in ALLOWED"
    assert violations(fake_analyst, PACKAGE) == [expected]
