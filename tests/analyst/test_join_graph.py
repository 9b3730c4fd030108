"""Join graph pipeline: introspection, naming inference, manual overrides, merge, LLM check."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from frontdesk.assistants.analyst.joins.build import (
    ManualOverrides,
    build_join_graph,
    introspect,
    load_manual,
    merge,
    validate_with_llm,
)
from frontdesk.assistants.analyst.joins.graph import JoinGraph, Relationship, TableInfo
from frontdesk.assistants.analyst.joins.inference import infer_relationships, split_name
from frontdesk.llm.scripted import ScriptedChatModel

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
CHINOOK = SHARED / "datasets" / "chinook" / "Chinook_Sqlite.sqlite"

SCHEMA = """
CREATE TABLE employee (id INTEGER PRIMARY KEY, firstName TEXT, managerId INTEGER);
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE workOrder (
    id INTEGER PRIMARY KEY, customerId INTEGER, assignedEmployeeId INTEGER,
    parentWorkOrderId INTEGER, createdBy INTEGER);
CREATE TABLE workTime (
    id INTEGER PRIMARY KEY, employeeId INTEGER REFERENCES employee(id),
    workOrderId INTEGER, hours REAL);
CREATE TABLE work_order_note (id INTEGER PRIMARY KEY, work_order_id INTEGER, note TEXT);
CREATE TABLE badge (id INTEGER PRIMARY KEY, employeeId INTEGER UNIQUE REFERENCES employee(id));
CREATE TABLE orderLine (orderLineId INTEGER PRIMARY KEY, qty INTEGER);
CREATE TABLE line (id INTEGER PRIMARY KEY, label TEXT);
CREATE TABLE Artist (ArtistId INTEGER PRIMARY KEY, Name TEXT);
CREATE TABLE Album (AlbumId INTEGER PRIMARY KEY, Title TEXT, ArtistId INTEGER);
CREATE TABLE _migrations (id INTEGER PRIMARY KEY, employeeId INTEGER);
CREATE VIEW secure_employee AS SELECT id, firstName FROM employee;
"""


@pytest.fixture
def db(tmp_path: Path):
    path = tmp_path / "shop.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(SCHEMA)
    return create_engine(f"sqlite:///{path}")


def _by_name(rels):
    return {r.describe(): r for r in rels}


def test_split_name_handles_camel_pascal_snake_and_acronyms():
    assert split_name("WorkOrderID") == ["work", "order", "id"]
    assert split_name("assigned_employee_id") == ["assigned", "employee", "id"]
    assert split_name("HTMLPageId") == ["html", "page", "id"]
    assert split_name("id") == ["id"]


def test_introspect_reads_tables_keys_and_declared_fks_only(db):
    graph = introspect(db)
    assert "secure_employee" not in graph.tables  # a view
    assert "_migrations" not in graph.tables  # excluded prefix
    assert graph.tables["employee"].unique_columns == ("id",)
    assert graph.tables["badge"].unique_columns == ("id", "employeeId")
    assert graph.tables["Artist"].primary_key == ("ArtistId",)
    rels = _by_name(graph.relationships)
    assert set(rels) == {"workTime.employeeId -> employee.id", "badge.employeeId -> employee.id"}
    assert all(r.type == "foreign_key" and r.confidence == 1.0 for r in rels.values())
    assert rels["workTime.employeeId -> employee.id"].cardinality == "N:1"
    assert rels["badge.employeeId -> employee.id"].cardinality == "1:1"
    assert "workTime" not in introspect(db, exclude=["workTime"]).tables


def test_inference_confidences(db):
    base = introspect(db)
    inferred = _by_name(infer_relationships(base.tables, base.relationships))
    assert {k: r.confidence for k, r in inferred.items()} == {
        "Album.ArtistId -> Artist.ArtistId": 0.95,  # named like Artist's primary key
        "workTime.workOrderId -> workOrder.id": 0.9,  # exact table name
        "workOrder.customerId -> customers.id": 0.75,  # plural variant
        "work_order_note.work_order_id -> workOrder.id": 0.75,  # snake vs camel variant
        "workOrder.assignedEmployeeId -> employee.id": 0.65,  # role prefix
        "workOrder.parentWorkOrderId -> workOrder.id": 0.65,  # role prefix, self reference
    }
    assert all(r.type == "inferred" and r.cardinality == "N:1" for r in inferred.values())
    # Not inferred: declared ones (workTime.employeeId), `managerId` (no such table), the
    # own primary key `orderLine.orderLineId` (neither itself nor the `line` suffix).


def test_inference_on_any_naming_style():
    tables = {
        "Employees": TableInfo(["EmployeeID", "Name"], ["EmployeeID"], ["EmployeeID"]),
        "Orders": TableInfo(["OrderID", "EmployeeID"], ["OrderID"], ["OrderID"]),
        "category": TableInfo(["id"], ["id"], ["id"]),
        "categories": TableInfo(["id"], ["id"], ["id"]),
        "product": TableInfo(["id", "category_id", "supplier_id"], ["id"], ["id"]),
        "employee_detail": TableInfo(["EmployeeID", "bio"], ["EmployeeID"], ["EmployeeID"]),
    }
    rels = _by_name(infer_relationships(tables))
    assert rels["Orders.EmployeeID -> Employees.EmployeeID"].confidence == 0.95  # not 1:1 table
    # Exact `category` beats the plural `categories`; no table for `supplier_id`.
    assert rels["product.category_id -> category.id"].confidence == 0.9
    assert not any(k.startswith("product.supplier_id") for k in rels)
    # A 1:1 extension table: its own primary key refers to another table's.
    detail = rels["employee_detail.EmployeeID -> Employees.EmployeeID"]
    assert detail.cardinality == "1:1"
    assert "Employees.EmployeeID -> employee_detail.EmployeeID" not in rels
    assert len(rels) == 3


def test_a_database_without_declared_keys_still_gets_joins():
    # No primary keys, no unique columns: exported and benchmark databases often look so.
    tables = {
        "dept": TableInfo(["deptId", "name"]),
        "employee": TableInfo(["employee_id", "name", "deptId"]),
        "category": TableInfo(["name", "parentCategoryId"]),  # no key at all: crashed before
        "visit": TableInfo(["id", "employee_id", "day"]),
    }
    rels = _by_name(infer_relationships(tables))
    assert "employee.deptId -> dept.deptId" in rels
    assert "visit.employee_id -> employee.employee_id" in rels
    assert not any(k.startswith("category.") for k in rels)


def test_manual_overrides_add_remove_hide(db, tmp_path):
    manual = tmp_path / "join_graph_manual.json"
    manual.write_text(
        json.dumps(
            {
                "add": [
                    {"from_table": "workOrder", "from_column": "createdBy",
                     "to_table": "employee", "to_column": "id"},
                    {"from_table": "workOrder", "from_column": "assignedEmployeeId",
                     "to_table": "employee", "to_column": "id", "confidence": 0.8},
                    {"from_table": "workOrder", "from_column": "nope",
                     "to_table": "employee", "to_column": "id"},
                ],
                "remove": [
                    {"from_table": "workOrder", "from_column": "parentWorkOrderId"},
                    {"from_table": "employee", "from_column": "id",
                     "to_table": "badge", "to_column": "employeeId"},  # reversed orientation
                ],
                "hidden": ["line"],
                "no_transit": ["employee"],
                "tables": {"orderLine": {"hidden": True}, "customers": {"no_transit": True}},
            }
        )
    )  # fmt: skip
    overrides = load_manual(manual)
    assert overrides.hidden == {"line", "orderLine"}
    graph = build_join_graph(db, manual=manual)
    rels = _by_name(graph.relationships)
    created = rels["workOrder.createdBy -> employee.id"]
    assert (created.type, created.confidence, created.cardinality) == ("manual", 1.0, "N:1")
    assigned = rels["workOrder.assignedEmployeeId -> employee.id"]
    assert (assigned.type, assigned.confidence) == ("manual", 0.8)  # replaces the inferred one
    assert "workOrder.nope -> employee.id" not in rels  # no such column: skipped
    assert "workOrder.parentWorkOrderId -> workOrder.id" not in rels
    assert "badge.employeeId -> employee.id" not in rels  # removing a declared FK works too
    assert "line" not in graph.tables and "orderLine" not in graph.tables
    assert {n for n, t in graph.tables.items() if t.no_transit} == {"employee", "customers"}
    assert JoinGraph.from_dict(graph.to_dict()) == graph


def test_load_manual_rejects_incomplete_entries(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"remove": [{"from_table": "workOrder"}]}))
    with pytest.raises(ValueError, match="from_column"):
        load_manual(bad)
    bad.write_text(json.dumps({"add": [{"from_table": "a", "from_column": "b"}]}))
    with pytest.raises(ValueError, match="to_table"):
        load_manual(bad)
    assert load_manual(None) == ManualOverrides()


def test_merge_precedence_declared_manual_inferred():
    tables = {
        "a": TableInfo(["id", "bId", "cId"], ["id"]),
        "b": TableInfo(["id"], ["id"]),
        "c": TableInfo(["id"], ["id"]),
    }
    declared = [Relationship("a", "bId", "b", "id")]
    inferred = [
        Relationship("a", "bId", "b", "id", "inferred", 0.9),  # same pair as the declared one
        Relationship("a", "bId", "c", "id", "inferred", 0.9),  # column already declared
        Relationship("a", "cId", "c", "id", "inferred", 0.9),
    ]
    manual = ManualOverrides(add=(Relationship("c", "id", "a", "cId", "manual", 0.8, ""),))
    graph = merge(tables, declared, inferred, manual)
    assert [(r.describe(), r.type) for r in graph.relationships] == [
        ("a.bId -> b.id", "foreign_key"),
        ("c.id -> a.cId", "manual"),  # manual beats inferred, whatever the orientation
    ]
    assert graph.relationships[1].cardinality == "1:N"  # c.id is unique, a.cId is not


def test_save_load_round_trip(db, tmp_path):
    graph = build_join_graph(db)
    path = graph.save(tmp_path / "out" / "join_graph_validated.json")
    data = json.loads(path.read_text())
    assert data["version"] == 1 and set(data) == {"version", "tables", "relationships"}
    assert set(data["relationships"][0]) == {
        "from_table", "from_column", "to_table", "to_column", "type", "confidence", "cardinality"
    }  # fmt: skip
    loaded = JoinGraph.load(path)
    assert loaded == graph
    assert loaded.columns_of("employee") == ["id", "firstName", "managerId"]
    with pytest.raises(KeyError, match="unknown table"):
        loaded.columns_of("nope")
    data["version"] = 2
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="version"):
        JoinGraph.load(path)


def test_relationship_validation():
    with pytest.raises(ValueError, match="type"):
        Relationship("a", "x", "b", "y", type="guess")
    with pytest.raises(ValueError, match="confidence"):
        Relationship("a", "x", "b", "y", confidence=0)
    rel = Relationship("a", "x", "b", "y", "inferred", 0.75, "N:1")
    assert Relationship.from_dict(rel.to_dict()) == rel


def _verdicts_rejecting(word: str, calls: list[str]):
    """A script for ScriptedChatModel: rejects every listed join whose line contains `word`."""

    def reply(messages) -> str:
        prompt = messages[-1].text
        calls.append(prompt)
        verdicts = []
        for line in prompt.splitlines():
            head, _, rest = line.partition(". ")
            if head.isdigit():
                ok = word not in rest
                verdicts.append({"index": int(head), "plausible": ok, "reason": "test"})
        return json.dumps({"verdicts": verdicts})

    return reply


def test_validate_with_llm_drops_rejected_inferred_only(db):
    graph = build_join_graph(db)
    calls: list[str] = []
    llm = ScriptedChatModel(_verdicts_rejecting("assignedEmployeeId", calls))
    checked = validate_with_llm(graph, llm, batch_size=4)
    inferred = [r for r in graph.relationships if r.type == "inferred"]
    assert len(calls) == -(-len(inferred) // 4)  # batches of 4
    assert all("foreign_key" not in c and "workTime.employeeId" not in c for c in calls)
    dropped = {r.describe() for r in graph.relationships} - {
        r.describe() for r in checked.relationships
    }
    assert dropped == {"workOrder.assignedEmployeeId -> employee.id"}
    kept = _by_name(checked.relationships)
    assert kept["workTime.workOrderId -> workOrder.id"].confidence == 0.9  # unchanged


def test_validate_with_llm_keeps_everything_when_the_model_fails(db):
    graph = build_join_graph(db)
    llm = ScriptedChatModel(lambda messages: "not json")
    assert validate_with_llm(graph, llm).relationships == graph.relationships
    # And a model answering about nothing rejects nothing.
    silent = ScriptedChatModel(lambda messages: '{"verdicts": []}')
    assert build_join_graph(db, llm=silent).relationships == graph.relationships


@pytest.fixture
def chinook():
    if not CHINOOK.exists():
        pytest.skip(f"Chinook database not found at {CHINOOK}")
    return create_engine(f"sqlite:///{CHINOOK}")


def test_chinook_declared_foreign_keys(chinook):
    graph = build_join_graph(chinook)
    assert len(graph.tables) == 11
    rels = _by_name(graph.relationships)
    for name in [
        "Album.ArtistId -> Artist.ArtistId",
        "Track.AlbumId -> Album.AlbumId",
        "InvoiceLine.InvoiceId -> Invoice.InvoiceId",
        "Employee.ReportsTo -> Employee.EmployeeId",  # self reference
        "Customer.SupportRepId -> Employee.EmployeeId",
    ]:
        assert rels[name].type == "foreign_key" and rels[name].cardinality == "N:1"
    assert len(rels) == 11 and all(r.type == "foreign_key" for r in rels.values())


def test_chinook_naming_inference_recovers_the_id_foreign_keys(chinook):
    base = introspect(chinook)
    inferred = {r.pair_key for r in infer_relationships(base.tables)}
    declared = {r.pair_key for r in base.relationships}
    assert inferred <= declared  # precision 1
    # Recall: every FK named `<Table>Id`; ReportsTo and SupportRepId name no table.
    assert len(inferred) == 9 and len(declared) == 11


def test_weak_role_hints_for_child_tables_and_self_references():
    tables = {
        "customer": TableInfo(["id", "primaryContactId"], ["id"], ["id"]),
        "customerContact": TableInfo(["id", "customerId"], ["id"], ["id"]),
        "partCategory": TableInfo(["id", "parentCategoryId"], ["id"], ["id"]),
    }
    rels = {k: r.confidence for k, r in _by_name(infer_relationships(tables)).items()}
    assert rels == {
        "customer.primaryContactId -> customerContact.id": 0.55,
        "customerContact.customerId -> customer.id": 0.9,
        "partCategory.parentCategoryId -> partCategory.id": 0.55,
    }


@pytest.mark.mariadb
def test_mysql_introspection():
    """Against the MariaDB server at 127.0.0.1:3306 (root, empty password; another server:
    FRONTDESK_TEST_MYSQL_URL, a user that may create and drop a scratch database)."""
    import os
    import uuid

    from sqlalchemy import text

    url = os.environ.get("FRONTDESK_TEST_MYSQL_URL", "mysql+pymysql://root:@127.0.0.1:3306")
    server = create_engine(url)
    name = f"frontdesk_jg_{uuid.uuid4().hex[:8]}"
    ddl = [
        "CREATE TABLE employee (id INT PRIMARY KEY, badge VARCHAR(10) UNIQUE)",
        (
            "CREATE TABLE workTime (id INT PRIMARY KEY, employeeId INT, workOrderId INT,"
            " FOREIGN KEY (employeeId) REFERENCES employee(id))"
        ),
        "CREATE TABLE workOrder (id INT PRIMARY KEY, assignedEmployeeId INT)",
        "CREATE VIEW secure_employee AS SELECT id FROM employee",
    ]
    with server.begin() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        engine = create_engine(server.url.set(database=name))
        with engine.begin() as conn:
            for statement in ddl:
                conn.execute(text(statement))
        graph = build_join_graph(engine)
        engine.dispose()
    finally:
        with server.begin() as conn:
            conn.execute(text(f"DROP DATABASE {name}"))
    assert set(graph.tables) == {"employee", "workTime", "workOrder"}
    assert graph.tables["employee"].unique_columns == ("id", "badge")
    assert {(r.describe(), r.type, r.confidence) for r in graph.relationships} == {
        ("workTime.employeeId -> employee.id", "foreign_key", 1.0),
        ("workTime.workOrderId -> workOrder.id", "inferred", 0.9),
        ("workOrder.assignedEmployeeId -> employee.id", "inferred", 0.65),
    }
