"""The analyst's own commands: `frontdesk analyst ...`."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

app = typer.Typer(no_args_is_help=True)
console = Console(stderr=True)
out = Console(highlight=False, soft_wrap=True)


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
    out.print(f"demo database ready at {safe}")
    out.print(f"use it with: FRONTDESK_ANALYST_DATABASE_URL='{safe}' frontdesk serve")
