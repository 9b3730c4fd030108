"""Opening the analyst's database: the SQL toolkit over it, with what the analyst knows.

- `connect_checked`: a read-only engine that has answered once, or an error that says in the
  user's terms what is wrong, without any password;
- the semantic file (`semantic`), checked against the database: descriptions, joins, hidden
  tables and the question-to-SQL examples shown to the SQL writer;
- the join graph, rebuilt only when the schema, the semantic file's joins or the inference
  code changed; otherwise read back from `join_graph_validated.json` (which a person may
  read, and which the optional LLM check of joins is costly to redo).
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from sqlalchemy import Engine, inspect
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from frontdesk.assistants.analyst.db.engine import open_engine
from frontdesk.assistants.analyst.db.secure_views import SECURE_VIEW_MAP
from frontdesk.assistants.analyst.joins import build as join_build
from frontdesk.assistants.analyst.joins import inference
from frontdesk.assistants.analyst.joins.graph import JoinGraph
from frontdesk.assistants.analyst.semantic import SemanticLayer, load_semantic
from frontdesk.assistants.analyst.semantic.examples import ExampleSearch
from frontdesk.assistants.analyst.settings import AnalystSettings
from frontdesk.assistants.analyst.sql import check as sqlcheck
from frontdesk.assistants.analyst.sql.errors import classify_error
from frontdesk.assistants.analyst.sql.executor import engine_dialect
from frontdesk.assistants.analyst.sql_agent.table_search import (
    TableSearch,
    table_text,
    words_of_name,
)
from frontdesk.assistants.analyst.sql_agent.toolkit import SQLLimits, SQLToolkit
from frontdesk.config import Settings
from frontdesk.errors import FrontdeskError
from frontdesk.runtime import Models

__all__ = [
    "DEMO",
    "SUPPORTED",
    "DatabaseUnavailable",
    "connect_checked",
    "demo_database_url",
    "demo_semantic",
    "open_database",
    "semantic_path",
]

logger = logging.getLogger(__name__)

NAME = "analyst"
DEMO = "demo"
DEMO_SEMANTIC = Path(__file__).parent / "data" / "semantic_demo.yaml"
GRAPH_FILE = "join_graph_validated.json"


class DatabaseUnavailable(FrontdeskError):
    """The analyst's database cannot be used; the message says why, without any password."""


SUPPORTED = "SQLite, MySQL/MariaDB or PostgreSQL"


def connect_checked(url: str | URL, aes_key: str) -> Engine:
    """A read-only engine on `url` that has answered once, or DatabaseUnavailable saying, in
    the user's terms, what is wrong: not a URL, a kind of database the analyst cannot check
    SQL for, or a server or file that does not answer."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUnavailable(
            "the analyst's database URL is not a database URL (expected e.g. "
            "postgresql://user@host:5432/name or sqlite:///path/to/file.db)"
        ) from None
    shown = parsed.render_as_string(hide_password=True)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "mysql", "mariadb", "postgresql"):
        raise DatabaseUnavailable(f"the analyst runs on {SUPPORTED}, not '{backend}' ({shown})")
    try:
        engine = open_engine(parsed, aes_key, read_only=True)
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except (NoSuchModuleError, ImportError) as exc:
        raise DatabaseUnavailable(
            f"the driver for {shown} is not installed ({exc}); the analyst runs on {SUPPORTED}"
        ) from None
    except SQLAlchemyError as exc:
        _, reason = classify_error(getattr(exc, "orig", None) or exc)
        raise DatabaseUnavailable(
            f"the analyst's database {shown} is not reachable: {reason or type(exc).__name__}"
        ) from None
    return engine


def demo_database_url(settings: Settings) -> str:
    """The demo database, built (deterministically, once) when it is missing or outdated."""
    from frontdesk.assistants.analyst.demo.build import build_sqlite

    path = settings.data_dir / "analyst_demo.sqlite"
    build_sqlite(path, AnalystSettings.of(settings).aes_key.get_secret_value())
    return f"sqlite:///{path}"


def demo_semantic(dialect: sqlcheck.Dialect = "sqlite") -> SemanticLayer:
    """The shipped semantic file of the demo database, checked against the demo's schema."""
    from frontdesk.assistants.analyst.demo.schema.tables import TABLES

    catalog = sqlcheck.SchemaCatalog({t.name: list(t.column_names) for t in TABLES})
    return load_semantic(DEMO_SEMANTIC, catalog, dialect, SECURE_VIEW_MAP)


def semantic_path(settings: Settings, name: str, *, configured: bool) -> Path | None:
    """The semantic file for database `name`: FRONTDESK_ANALYST_SEMANTIC_FILE for the
    configured database, the shipped one for the demo, else <data_dir>/analyst/semantic/
    <name>.yaml when it exists (`frontdesk analyst describe` writes there)."""
    own = AnalystSettings.of(settings)
    if configured and own.semantic_file is not None:
        return own.semantic_file
    if configured and own.database_url is None:
        return DEMO_SEMANTIC
    drafted = drafted_semantic_path(settings, name)
    return drafted if drafted.exists() else None


def drafted_semantic_path(settings: Settings, name: str) -> Path:
    """Where `frontdesk analyst describe` writes the semantic file of database `name`."""
    return settings.data_dir / NAME / "semantic" / f"{name}.yaml"


def open_database(
    settings: Settings, models: Models, *, url: str | None = None, name: str = DEMO
) -> SQLToolkit:
    """The SQL toolkit over one database: the configured one (default: the demo database) or
    `url` (any SQLAlchemy URL; its tables are learned by introspection)."""
    own = AnalystSettings.of(settings)
    configured = url is None
    if url is None:
        url = own.database_url or demo_database_url(settings)
    engine = connect_checked(url, own.aes_key.get_secret_value())
    try:
        return _toolkit(settings, models, engine, name, configured)
    except BaseException:
        engine.dispose()
        raise


def _toolkit(settings, models, engine: Engine, name: str, configured: bool) -> SQLToolkit:
    own = AnalystSettings.of(settings)
    views = set(inspect(engine).get_view_names())
    secure_map = {t: v for t, v in SECURE_VIEW_MAP.items() if v in views}
    base = join_build.introspect(engine)
    semantic = SemanticLayer()
    path = semantic_path(settings, name, configured=configured)
    if path is not None:
        catalog = sqlcheck.SchemaCatalog({t: list(i.columns) for t, i in base.tables.items()})
        semantic = load_semantic(path, catalog, engine_dialect(engine), secure_map)
    graph = join_graph_for(settings, models, engine, name, base, semantic)
    descriptions = {
        t: semantic.descriptions.get(t) or " ".join(words_of_name(t)) for t in graph.tables
    }
    texts = {t: table_text(t, descriptions[t], list(graph.tables[t].columns)) for t in graph.tables}
    search = TableSearch(
        models.embeddings,
        texts,
        cache_dir=settings.index_dir(NAME) / name,
        embeddings_id=models.embeddings_id,
        columns={t: list(info.columns) for t, info in graph.tables.items()},
    )
    return SQLToolkit(
        name=name,
        engine=engine,
        graph=graph,
        search=search,
        descriptions=descriptions,
        secure_map=secure_map,
        limits=SQLLimits.from_settings(own),
        column_notes=semantic.column_notes,
        examples=ExampleSearch(models.embeddings, semantic.examples),
    )


def join_graph_for(
    settings: Settings,
    models: Models,
    engine: Engine,
    name: str,
    base: JoinGraph,
    semantic: SemanticLayer,
) -> JoinGraph:
    """Naming inference + the semantic file's joins (+ the optional LLM check) over the
    introspected `base`; read back from its file when nothing it depends on changed."""
    own = AnalystSettings.of(settings)
    path = own.join_graph or settings.index_dir(NAME) / name / GRAPH_FILE
    fingerprint = _graph_fingerprint(base, semantic, own.validate_joins_with_llm)
    saved = _saved_graph(path, fingerprint)
    if saved is not None:
        return saved
    llm = models.chat if own.validate_joins_with_llm else None
    graph = join_build.build_join_graph(engine, semantic.overrides, llm, base=base)
    data = {**graph.to_dict(), "fingerprint": fingerprint}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return graph


def _graph_fingerprint(base: JoinGraph, semantic: SemanticLayer, llm_checked: bool) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps(base.to_dict(), sort_keys=True).encode())
    digest.update(repr(semantic.overrides).encode())
    digest.update(str(llm_checked).encode())
    for module in (inference, join_build):  # new inference rules rebuild the graph
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()


def _saved_graph(path: Path, fingerprint: str) -> JoinGraph | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("fingerprint") != fingerprint:
            return None
        return JoinGraph.from_dict(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None  # missing, hand-broken or old: rebuilt and written again
