"""``semantic init`` and ``semantic check``: the database's semantic file (registered by ``app.py``)."""
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from analytics_agent.cli.context import db_path, open_workspace

semantic_app = typer.Typer(
    help="The semantic model: named metrics, dimensions and relationships in <db>.semantic.yaml.",
    no_args_is_help=True,
)
OutputOpt = Annotated[
    Optional[Path], typer.Option("--output", "-o", help="Where to write (default: <db>.semantic.yaml).")
]


@semantic_app.command("init")
def init(
    output: OutputOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a starting file from the data: time columns, inferred relationships, candidate dimensions."""
    from analytics_agent.db.catalog import get_profile
    from analytics_agent.db.relationships import read_relationships
    from analytics_agent.errors import SemanticModelError
    from analytics_agent.tools.aggregate import read_catalog
    from analytics_agent.tools.semantic.load import semantic_path_for
    from analytics_agent.tools.semantic.starter import starter_yaml

    path = output or semantic_path_for(db_path())
    if path.exists() and not force:
        raise SemanticModelError("already exists; edit it, or add --force to write a new one", path=str(path))
    with open_workspace() as ws:
        cur = ws.cursor()
        catalog = read_catalog(cur)
        text = starter_yaml(catalog, read_relationships(cur), {t: get_profile(cur, t) for t in catalog})
    from analytics_agent.paths import write_file

    try:
        write_file(path, text)
    except OSError as exc:
        raise SemanticModelError(f"cannot write: {exc.strerror or exc}", path=str(path)) from None
    typer.echo(f"Wrote {path}: {len(catalog)} tables. Edit it, then: analytics-agent semantic check")


@semantic_app.command("check")
def check(
    path: Annotated[Optional[Path], typer.Argument(help="Default: <db>.semantic.yaml.")] = None,
) -> None:
    """Check the semantic file against the database: one line per mistake; exit 1 if any."""
    from analytics_agent.db.relationships import read_relationships
    from analytics_agent.errors import SemanticModelError
    from analytics_agent.tools.aggregate import read_catalog
    from analytics_agent.tools.semantic.check import check_semantic
    from analytics_agent.tools.semantic.load import semantic_path_for
    from analytics_agent.tools.semantic.model import read_semantic

    path = path or semantic_path_for(db_path())
    if not path.is_file():
        raise SemanticModelError(
            "no such file; write a starting one with: analytics-agent semantic init", path=str(path)
        )
    with open_workspace() as ws:
        cur = ws.cursor()
        semantics, problems = check_semantic(
            read_semantic(path), read_catalog(cur), read_relationships(cur), cur
        )
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    links = len(semantics.relationships)
    typer.echo(f"{path}: {len(semantics.metrics)} metrics, {links} relationships, {len(problems)} problems")
    if problems:
        raise typer.Exit(1)
