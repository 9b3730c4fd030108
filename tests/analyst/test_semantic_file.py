"""The semantic file: checked against the database at start (every mistake named, the other
assistants keep serving), applied (descriptions, hidden tables, joins, few-shot examples),
drafted by `frontdesk analyst describe`; and the join graph read back when nothing changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from frontdesk.assistants.analyst import database
from frontdesk.assistants.analyst.semantic import SemanticFileError
from frontdesk.cli import app
from frontdesk.config import Settings
from frontdesk.runtime import Models

SHOP = {
    "shop_order": "id INTEGER PRIMARY KEY, buyer INTEGER, status TEXT, total REAL",
    "client": "id INTEGER PRIMARY KEY, name TEXT, city TEXT",
    "audit_trail": "id INTEGER PRIMARY KEY, what TEXT",
}
GOOD = """
tables:
  shop_order:
    description: Orders placed in the web shop
    columns: {status: "new | shipped | returned"}
  audit_trail: {hidden: true}
joins:
  add:
    - {from: shop_order.buyer, to: client.id, confidence: 0.9}
examples:
  - question: How many orders were returned?
    sql: SELECT COUNT(*) FROM shop_order WHERE status = 'returned'
  - question: Which city has the most clients?
    sql: SELECT city, COUNT(*) AS n FROM client GROUP BY city ORDER BY n DESC LIMIT 1
"""


@pytest.fixture
def shop(tmp_path) -> str:
    path = tmp_path / "shop.db"
    conn = sqlite3.connect(path)
    for table, columns in SHOP.items():
        conn.execute(f"CREATE TABLE {table} ({columns})")
    conn.execute("INSERT INTO client VALUES (1, 'Ada', 'Oslo'), (2, 'Bo', 'Oslo')")
    conn.execute("INSERT INTO shop_order VALUES (1, 1, 'returned', 10.0), (2, 2, 'new', 5.0)")
    conn.commit()
    conn.close()
    return f"sqlite:///{path}"


def _settings(tmp_path: Path, url: str, semantic: Path | None, **more) -> Settings:
    own = {"database_url": url, **({"semantic_file": semantic} if semantic else {}), **more}
    return Settings(
        data_dir=tmp_path / "data",
        llm_provider="scripted",
        embeddings_provider="hash",
        checkpointer="memory",
        router_llm="never",
        plugin_settings={"analyst": own},
        _env_file=None,
    )


def _open(tmp_path, url, text: str | None, **more):
    semantic = None
    if text is not None:
        semantic = tmp_path / "semantic.yaml"
        semantic.write_text(text, encoding="utf-8")
    settings = _settings(tmp_path, url, semantic, **more)
    return database.open_database(settings, Models(settings))


def test_the_semantic_file_is_applied(tmp_path, shop):
    tk = _open(tmp_path, shop, GOOD, sql_few_shot_min_similarity=0.0)
    try:
        assert tk.descriptions["shop_order"] == "Orders placed in the web shop"
        assert tk.descriptions["client"] == "client"  # none given: the name in words
        assert "audit_trail" not in tk.graph.tables
        assert ("shop_order", "buyer", "client", "id") in [r.key for r in tk.graph.relationships]
        assert "notes: status: new | shipped | returned" in tk.schema_text(["shop_order"], 50)
        shown = tk.examples_text("how many returned orders are there")
        assert shown.index("How many orders were returned?") < shown.index("Which city")
    finally:
        tk.engine.dispose()


def test_no_examples_are_shown_when_turned_off(tmp_path, shop):
    tk = _open(tmp_path, shop, GOOD, sql_few_shot_examples=0, sql_few_shot_min_similarity=0.0)
    try:
        assert tk.examples_text("how many returned orders are there") == ""
    finally:
        tk.engine.dispose()


def test_only_examples_close_to_the_question_are_shown(tmp_path, shop):
    # A distant example misleads a small model more than none (semantic/examples.py).
    tk = _open(tmp_path, shop, GOOD, sql_few_shot_min_similarity=0.99)
    try:
        assert tk.examples_text("How many orders were returned?").count("Question:") == 1
        assert tk.examples_text("list the clients in Oslo by name") == ""
    finally:
        tk.engine.dispose()


@pytest.mark.parametrize(
    "text, says",
    [
        ("tables:\n  shop_order: {description: [unclosed\n", "not valid YAML (line 3, column 1"),
        (
            "tables:\n  shop_ordr: {description: x}\n",
            "no table 'shop_ordr' (did you mean shop_order?)",
        ),
        ("tables:\n  client:\n    columns: {town: x}\n", "client has no such column"),
        (
            "joins:\n  add:\n    - {from: shop_order.buyer, to: client.key}\n",
            "client has no column 'key'",
        ),
        ("joins:\n  add:\n    - {from: shop_order, to: client.id}\n", "joins.add.0.from"),
        ('examples:\n  - {question: "Returned?", sql: SELECT nope FROM client}\n', "examples[0]"),
        ("examples:\n  - {question: Wipe it, sql: DELETE FROM client}\n", "examples[0]"),
        ("tabels: {}\n", "tabels: Extra inputs are not permitted"),
        ("- just\n- a list\n", "expected a mapping"),
    ],
)
def test_a_semantic_file_with_errors_says_what_and_where(tmp_path, shop, text, says):
    with pytest.raises(SemanticFileError) as caught:
        _open(tmp_path, shop, text)
    assert says in str(caught.value)
    assert str(tmp_path / "semantic.yaml") in str(caught.value)


def test_every_problem_is_listed_at_once(tmp_path, shop):
    text = "tables:\n  nope: {}\n  client:\n    columns: {town: x}\n"
    with pytest.raises(SemanticFileError, match=r"2 problem\(s\)") as caught:
        _open(tmp_path, shop, text)
    assert "nope" in str(caught.value) and "town" in str(caught.value)


def test_the_join_graph_is_read_back_until_something_changes(tmp_path, shop, monkeypatch):
    built = []
    real = database.join_build.build_join_graph
    monkeypatch.setattr(
        database.join_build, "build_join_graph", lambda *a, **k: built.append(1) or real(*a, **k)
    )
    for _ in range(2):
        _open(tmp_path, shop, GOOD).engine.dispose()
    assert len(built) == 1  # the second start read join_graph_validated.json
    _open(tmp_path, shop, GOOD.replace("confidence: 0.9", "confidence: 0.8")).engine.dispose()
    assert len(built) == 2  # the joins changed: rebuilt


def test_the_demo_ships_a_semantic_file_that_checks():
    layer = database.demo_semantic()
    assert len(layer.descriptions) == 132 and len(layer.overrides.add) == 27
    assert "user" in layer.overrides.no_transit and len(layer.examples) >= 12


def test_describe_drafts_a_file_the_analyst_then_reads(tmp_path, shop, offline_cli_env):
    runner = CliRunner()
    result = runner.invoke(app, ["analyst", "describe", "--url", shop, "--name", "shop"])
    assert result.exit_code == 0, result.output
    drafted = tmp_path / "data" / "analyst" / "semantic" / "shop.yaml"
    assert "shop_order:" in drafted.read_text() and "audit_trail:" in drafted.read_text()
    again = runner.invoke(app, ["analyst", "describe", "--url", shop, "--name", "shop"])
    assert again.exit_code == 1 and "--force" in again.output
    settings = _settings(tmp_path, shop, drafted)
    tk = database.open_database(settings, Models(settings))
    tk.engine.dispose()
    drafted.write_text(drafted.read_text().replace("client:", "clients:"))
    with pytest.raises(SemanticFileError, match="no table 'clients'"):
        database.open_database(settings, Models(settings))


async def test_a_broken_semantic_file_stops_only_the_analyst(tmp_path, shop):
    from frontdesk.assistants import registry

    semantic = tmp_path / "semantic.yaml"
    semantic.write_text("tables:\n  shop_ordr: {}\n", encoding="utf-8")
    settings = _settings(tmp_path, shop, semantic).model_copy(
        update={"assistant": "concierge", "assistants": ["analyst"]}
    )
    services = await registry.load_services(settings, Models(settings))
    try:
        assert services["concierge"].ready and not services["analyst"].ready
        reason = services["analyst"].info()["unavailable"]
        assert "no table 'shop_ordr' (did you mean shop_order?)" in reason
    finally:
        for service in services.values():
            await service.aclose()
