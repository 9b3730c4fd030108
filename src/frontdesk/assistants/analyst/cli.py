"""The analyst's own commands: `frontdesk analyst ...`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
console = Console(stderr=True)
out_console = Console(highlight=False, soft_wrap=True)


@app.command("load-demo")
def load_demo_command(
    url: Annotated[
        str,
        typer.Argument(
            help="SQLAlchemy URL of the database to (re)create, e.g. "
            "postgresql://postgres@127.0.0.1:5432/frontdesk_demo or "
            "mysql+pymysql://root:@127.0.0.1:3306/frontdesk_demo"
        ),
    ],
) -> None:
    """Drop and recreate the demo field-service database on PostgreSQL or MariaDB/MySQL.

    Point FRONTDESK_ANALYST_DATABASE_URL at the same URL to use it. The AES key is the
    analyst's (FRONTDESK_ANALYST_AES_KEY)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from frontdesk.assistants.analyst.demo.build import build_mysql, build_postgres
    from frontdesk.assistants.analyst.settings import AnalystSettings
    from frontdesk.config import get_settings

    try:
        backend = make_url(url).get_backend_name()
    except ArgumentError:
        console.print(f"[bold red]error:[/] not a database URL: {url!r}")
        raise typer.Exit(2) from None
    builders = {"postgresql": build_postgres, "mysql": build_mysql, "mariadb": build_mysql}
    if backend not in builders:
        console.print(
            f"[bold red]error:[/] the demo loads into PostgreSQL or MariaDB/MySQL, not {backend} "
            "(the SQLite demo is built by itself at the first start)"
        )
        raise typer.Exit(2)
    key = AnalystSettings.of(get_settings()).aes_key.get_secret_value()
    with console.status("building the demo database (132 tables, about 100,000 rows)..."):
        try:
            builders[backend](url, key)
        except (SQLAlchemyError, ValueError) as exc:
            reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
            console.print(f"[bold red]error:[/] could not build the demo database: {reason}")
            raise typer.Exit(1) from None
    safe = make_url(url).render_as_string(hide_password=True)
    out_console.print(f"demo database ready at {safe}")
    out_console.print(f"use it with: FRONTDESK_ANALYST_DATABASE_URL='{safe}' frontdesk serve")


@app.command("describe")
def describe_command(
    url: Annotated[
        str | None,
        typer.Option("--url", help="The database (SQLAlchemy URL); default: the configured one."),
    ] = None,
    name: Annotated[
        str, typer.Option("--name", help="Its name (the file is <name>.yaml).")
    ] = "demo",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Where to write; default: where the analyst reads it."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Draft a semantic file for a database from its schema: descriptions, column notes and
    the inferred joins to confirm. Edit it, then restart the analyst."""
    from frontdesk.assistants.analyst.database import (
        connect_checked,
        drafted_semantic_path,
    )
    from frontdesk.assistants.analyst.joins.build import build_join_graph
    from frontdesk.assistants.analyst.semantic.draft import draft_semantic
    from frontdesk.assistants.analyst.settings import AnalystSettings
    from frontdesk.config import get_settings
    from frontdesk.errors import FrontdeskError

    settings = get_settings()
    own = AnalystSettings.of(settings)
    target = url or own.database_url
    if target is None:
        console.print(
            "[bold red]error:[/] no database: pass --url, or set FRONTDESK_ANALYST_DATABASE_URL "
            "(the demo database ships with its own semantic file)"
        )
        raise typer.Exit(2)
    # The configured database's file is where the analyst reads it; another's is drafted.
    path = out or (
        own.semantic_file
        if url is None and own.semantic_file
        else drafted_semantic_path(settings, name)
    )
    if path.exists() and not force:
        console.print(f"[bold red]error:[/] {path} exists; pass --force to replace it")
        raise typer.Exit(1)
    try:
        engine = connect_checked(target, own.aes_key.get_secret_value())
    except FrontdeskError as exc:
        console.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(1) from None
    try:
        with console.status("reading the schema and inferring joins..."):
            graph = build_join_graph(engine)
            text = draft_semantic(engine, graph, name)
    finally:
        engine.dispose()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    out_console.print(f"wrote {path}: {len(graph.tables)} tables, {len(graph.relationships)} joins")
    out_console.print("edit it (descriptions, joins, examples), then restart the analyst")
