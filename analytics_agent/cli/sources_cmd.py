"""``sources add | list | test | remove | refresh``: data that stays where it lives, read in place."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

import json
from typing import Annotated, Any, Optional

import typer

from analytics_agent.cli.context import JsonFlag

sources_app = typer.Typer(
    help="Data read where it lives: files in place, S3, PostgreSQL, DuckLake, MotherDuck (read-only).",
    no_args_is_help=True,
)
_WHERE = "Where"
_NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The source's name, e.g. trips.")]


@sources_app.command("add")
def add(
    name: _NameArg,
    kind: Annotated[str, typer.Option("--type", help="files, postgres, ducklake or motherduck.")],
    path: Annotated[
        Optional[str], typer.Option(help="files: a file, glob, folder or s3:// URL.", rich_help_panel=_WHERE)
    ] = None,
    fmt: Annotated[
        Optional[str], typer.Option("--format", help="files: parquet or csv.", rich_help_panel=_WHERE)
    ] = None,
    hive: Annotated[
        Optional[bool],
        typer.Option(
            "--hive/--no-hive",
            help="files: key=value folders are columns.",
            rich_help_panel=_WHERE,
            show_default=False,
        ),
    ] = None,
    dsn: Annotated[
        Optional[str],
        typer.Option(help="postgres: e.g. 'host=db dbname=shop user=reader'.", rich_help_panel=_WHERE),
    ] = None,
    schema: Annotated[
        Optional[str], typer.Option(help="postgres: the schema (default public).", rich_help_panel=_WHERE)
    ] = None,
    password_env: Annotated[
        Optional[str],
        typer.Option(help="postgres/ducklake: variable holding the password.", rich_help_panel=_WHERE),
    ] = None,
    catalog: Annotated[
        Optional[str],
        typer.Option(help="ducklake: e.g. 'postgres:dbname=lake host=…'.", rich_help_panel=_WHERE),
    ] = None,
    data_path: Annotated[
        Optional[str],
        typer.Option(help="ducklake: folder or s3:// URL of its files.", rich_help_panel=_WHERE),
    ] = None,
    database: Annotated[
        Optional[str], typer.Option(help="motherduck: the database name.", rich_help_panel=_WHERE)
    ] = None,
    token_env: Annotated[
        Optional[str], typer.Option(help="motherduck: variable holding the token.", rich_help_panel=_WHERE)
    ] = None,
    endpoint: Annotated[
        Optional[str],
        typer.Option(help="S3-compatible endpoint, e.g. http://127.0.0.1:9000.", rich_help_panel=_WHERE),
    ] = None,
    region: Annotated[Optional[str], typer.Option(help="S3 region.", rich_help_panel=_WHERE)] = None,
    prefix: Annotated[Optional[str], typer.Option(help="Prepended to its table names, e.g. pg_.")] = None,
    tables: Annotated[
        Optional[list[str]], typer.Option("--table", help="Only this table (repeatable).")
    ] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace a source of that name.")] = False,
    no_test: Annotated[bool, typer.Option("--no-test", help="Save without trying it first.")] = False,
) -> None:
    """Add a source; it is tried first (attached read-only in a scratch connection), then saved.
    With --db it belongs to that database only; without, every database sees it."""
    from analytics_agent.cli.context import State
    from analytics_agent.db.linked.spec import parse_source
    from analytics_agent.db.linked.store import read_sources, write_sources
    from analytics_agent.errors import SourceError

    if path and "://" not in path:  # saved absolute, so the source works from any folder
        path = _absolute(path)
    values = {
        "type": kind, "path": path, "format": fmt, "hive": hive, "dsn": dsn, "schema": schema,
        "password_env": password_env, "catalog": catalog, "data_path": data_path, "database": database,
        "token_env": token_env, "endpoint": endpoint, "region": region, "prefix": prefix,
        "tables": list(tables) if tables else None,
        "db": str(State.db.expanduser().absolute()) if State.db is not None else None,
    }  # fmt: skip
    source = parse_source(name, {k: v for k, v in values.items() if v is not None})
    existing = read_sources()
    if any(s.name == name for s in existing) and not replace:
        raise SourceError(f"a source named {name} exists; pass --replace or choose another name")
    if not no_test:
        _echo_report(_check(source))
    path_written = write_sources([s for s in existing if s.name != name] + [source])
    scope = f"used with {source.db} only" if source.db else "used with every database"
    typer.echo(f"Saved source {name} in {path_written} ({scope}).")


@sources_app.command("list")
def list_sources(as_json: JsonFlag = False) -> None:
    """The configured sources (secrets hidden)."""
    from analytics_agent.db.linked.store import read_sources, sources_path
    from analytics_agent.present.tables import table

    sources = read_sources()
    if as_json:
        rows = [
            {"name": s.name, "type": s.type, "where": s.describe(), "prefix": s.prefix, "db": s.db or None}
            for s in sources
        ]
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not sources:
        typer.echo(
            f"No sources yet ({sources_path()}); add one with `analytics-agent sources add NAME --type …`."
        )
        return
    typer.echo(
        table(
            ["source", "type", "where", "database"],
            [(s.name, s.type, s.describe(), s.db or "(every database)") for s in sources],
        )
    )


@sources_app.command("test")
def test(
    name: Annotated[
        Optional[str], typer.Argument(metavar="[NAME]", help="One source (default: all).")
    ] = None,
) -> None:
    """Attach each source read-only in a scratch connection and list its tables; exit 1 if one fails."""
    from analytics_agent.errors import SourceError

    failed = 0
    for source in _chosen(name):
        try:
            _echo_report(_check(source))
        except SourceError as exc:
            typer.echo(f"{source.name}: FAILED: {exc}")
            failed += 1
    if failed:
        raise typer.Exit(1)


@sources_app.command("remove")
def remove(name: _NameArg) -> None:
    """Forget a source (its data is not touched)."""
    from analytics_agent.db.linked.profiles import forget_profiles
    from analytics_agent.db.linked.store import write_sources

    _chosen(name)  # an unknown name is an error with a did-you-mean, not "Removed"
    remaining = [s for s in _all() if s.name != name]
    write_sources(remaining)
    forget_profiles(name)
    typer.echo(f"Removed source {name}.")


@sources_app.command("refresh")
def refresh(
    name: Annotated[
        Optional[str], typer.Argument(metavar="[NAME]", help="One source (default: all).")
    ] = None,
) -> None:
    """Forget cached profiles, so the next question profiles the data afresh (a scan of each table)."""
    from analytics_agent.db.linked.profiles import forget_profiles

    for source in _chosen(name):
        forget_profiles(source.name)
        typer.echo(f"{source.name}: profiles will be recomputed on next use.")


def _absolute(path: str) -> str:
    from pathlib import Path

    absolute = str(Path(path).expanduser().absolute())
    return absolute + "/" if path.endswith("/") and not absolute.endswith("/") else absolute


def _all() -> list[Any]:
    from analytics_agent.db.linked.store import read_sources

    return read_sources()


def _chosen(name: str | None) -> list[Any]:
    from analytics_agent.errors import SourceError
    from analytics_agent.suggest import did_you_mean

    sources = _all()
    if name is None:
        return sources
    names = [s.name for s in sources]
    if name not in names:
        raise SourceError(
            f"no source {name!r}{did_you_mean(name, names)}; sources: {', '.join(names) or 'none'}"
        )
    return [s for s in sources if s.name == name]


def _check(source: Any) -> Any:
    from analytics_agent.db.linked.check import check_source

    return check_source(source)


def _echo_report(report: Any) -> None:
    tables = ", ".join(f"{t} ({n} columns)" for t, n in report.tables.items()) or "no tables"
    typer.echo(
        f"{report.source.name}: {report.source.type} {report.source.describe()}: {tables} in {report.seconds:.1f} s"
    )
    for problem in report.problems:
        typer.echo(f"warning: {problem}", err=True)
