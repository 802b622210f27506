"""``sources add | list | test | remove | refresh``: data that stays where it lives, read in place."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

import json
from typing import Annotated, Any, Optional

import typer

from analytics_agent.cli.global_options import JsonFlag
from analytics_agent.cli.load_args import ENCODING_HELP, NULL_HELP

sources_app = typer.Typer(
    help="Data read where it lives: files in place, S3, PostgreSQL, DuckLake, MotherDuck (read-only).",
    no_args_is_help=True,
)
_WHERE = "Where"
_NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The source's name, e.g. trips.")]


# The options of ``sources add``, one alias each, so the command reads as what it does.
_KindOpt = Annotated[str, typer.Option("--type", help="files, postgres, ducklake or motherduck.")]
_PathOpt = Annotated[
    Optional[str], typer.Option(help="files: a file, glob, folder or s3:// URL.", rich_help_panel=_WHERE)
]
_FormatOpt = Annotated[
    Optional[str], typer.Option("--format", help="files: parquet or csv.", rich_help_panel=_WHERE)
]
_HiveOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--hive/--no-hive",
        help="files: key=value folders are columns.",
        rich_help_panel=_WHERE,
        show_default=False,
    ),
]
_DsnOpt = Annotated[
    Optional[str],
    typer.Option(help="postgres: e.g. 'host=db dbname=shop user=reader'.", rich_help_panel=_WHERE),
]
_SchemaOpt = Annotated[
    Optional[str], typer.Option(help="postgres: the schema (default public).", rich_help_panel=_WHERE)
]
_PasswordEnvOpt = Annotated[
    Optional[str],
    typer.Option(help="postgres/ducklake: variable holding the password.", rich_help_panel=_WHERE),
]
_CatalogOpt = Annotated[
    Optional[str], typer.Option(help="ducklake: e.g. 'postgres:dbname=lake host=…'.", rich_help_panel=_WHERE)
]
_DataPathOpt = Annotated[
    Optional[str], typer.Option(help="ducklake: folder or s3:// URL of its files.", rich_help_panel=_WHERE)
]
_DatabaseOpt = Annotated[
    Optional[str], typer.Option(help="motherduck: the database name.", rich_help_panel=_WHERE)
]
_TokenEnvOpt = Annotated[
    Optional[str], typer.Option(help="motherduck: variable holding the token.", rich_help_panel=_WHERE)
]
_EndpointOpt = Annotated[
    Optional[str],
    typer.Option(help="S3-compatible endpoint, e.g. http://127.0.0.1:9000.", rich_help_panel=_WHERE),
]
_RegionOpt = Annotated[Optional[str], typer.Option(help="S3 region.", rich_help_panel=_WHERE)]
_READ = "Reading CSV files (as `load` reads them)"
_DelimiterOpt = Annotated[
    Optional[str], typer.Option(help="Field separator, e.g. ';'.", rich_help_panel=_READ)
]
_HeaderOpt = Annotated[
    Optional[bool],
    typer.Option(
        "--header/--no-header",
        help="The first line is (not) the column names.",
        rich_help_panel=_READ,
        show_default=False,
    ),
]
_DateFormatOpt = Annotated[
    Optional[str], typer.Option(help="Date format, e.g. %d/%m/%Y.", rich_help_panel=_READ)
]
_ColumnTypeOpt = Annotated[
    Optional[list[str]],
    typer.Option("--column-type", help="COLUMN=TYPE (repeatable).", rich_help_panel=_READ),
]
_ThousandsOpt = Annotated[
    Optional[str], typer.Option(help="Thousands separator, e.g. ','.", rich_help_panel=_READ)
]
_DecimalOpt = Annotated[
    Optional[str], typer.Option(help="Decimal separator, e.g. ','.", rich_help_panel=_READ)
]
_EncodingOpt = Annotated[Optional[str], typer.Option(help=ENCODING_HELP, rich_help_panel=_READ)]
_NullOpt = Annotated[
    Optional[list[str]],
    typer.Option("--null", help=NULL_HELP, rich_help_panel=_READ),
]
_CommentOpt = Annotated[
    Optional[str], typer.Option(help="Skip lines starting with it, e.g. '#'.", rich_help_panel=_READ)
]
_SkipOpt = Annotated[
    Optional[int], typer.Option("--skip", help="Lines before the header.", rich_help_panel=_READ)
]
_QuoteOpt = Annotated[
    Optional[str], typer.Option(help="Quote character, '' for none.", rich_help_panel=_READ)
]
_EscapeOpt = Annotated[
    Optional[str], typer.Option(help="Escape inside quotes, e.g. '\\'.", rich_help_panel=_READ)
]
_PrefixOpt = Annotated[Optional[str], typer.Option(help="Prepended to its table names, e.g. pg_.")]
_TablesOpt = Annotated[Optional[list[str]], typer.Option("--table", help="Only this table (repeatable).")]
_ReplaceOpt = Annotated[bool, typer.Option("--replace", help="Replace a source of that name.")]
_NoTestOpt = Annotated[bool, typer.Option("--no-test", help="Save without trying it first.")]


@sources_app.command("add")
def add(
    name: _NameArg, kind: _KindOpt, path: _PathOpt = None, fmt: _FormatOpt = None, hive: _HiveOpt = None,
    dsn: _DsnOpt = None, schema: _SchemaOpt = None, password_env: _PasswordEnvOpt = None,
    catalog: _CatalogOpt = None, data_path: _DataPathOpt = None, database: _DatabaseOpt = None,
    token_env: _TokenEnvOpt = None, endpoint: _EndpointOpt = None, region: _RegionOpt = None,
    prefix: _PrefixOpt = None, tables: _TablesOpt = None, replace: _ReplaceOpt = False, no_test: _NoTestOpt = False,
    delimiter: _DelimiterOpt = None, header: _HeaderOpt = None, date_format: _DateFormatOpt = None,
    column_type: _ColumnTypeOpt = None, thousands: _ThousandsOpt = None, decimal: _DecimalOpt = None,
    encoding: _EncodingOpt = None, null: _NullOpt = None, comment: _CommentOpt = None, skip: _SkipOpt = None,
    quote: _QuoteOpt = None, escape: _EscapeOpt = None,
) -> None:  # fmt: skip
    """Add a source; it is tried first (attached read-only in a scratch connection), then saved.
    With --db it belongs to that database only; without, every database sees it. Local CSV files are
    sniffed once as `load` reads them; the reading and the stored column names are saved with the source."""
    reading = {
        "delimiter": delimiter, "header": header, "date_format": date_format, "types": column_type,
        "thousands": thousands, "decimal": decimal, "encoding": encoding, "null": null, "comment": comment,
        "skip": skip, "quote": quote, "escape": escape,
    }  # fmt: skip
    values = {
        "type": kind, "path": path, "format": fmt, "hive": hive, "dsn": dsn, "schema": schema,
        "password_env": password_env, "catalog": catalog, "data_path": data_path, "database": database,
        "token_env": token_env, "endpoint": endpoint, "region": region, "prefix": prefix,
        "tables": list(tables) if tables else None,
    }  # fmt: skip
    source = _new_source(name, values)
    from analytics_agent.cli.source_reading import with_pinned_reading

    _save(with_pinned_reading(source, reading), replace=replace, test=not no_test)


def _new_source(name: str, values: dict[str, Any]) -> Any:
    """The source the options describe: a local path made absolute (so it works from any folder), and
    bound to --db when one was given."""
    from analytics_agent.cli.context import State
    from analytics_agent.db.linked.spec import parse_source

    if values["path"] and "://" not in values["path"]:
        values = {**values, "path": _absolute(values["path"])}
    if State.db is not None:
        values = {**values, "db": str(State.db.expanduser().absolute())}
    return parse_source(name, {k: v for k, v in values.items() if v is not None})


def _save(source: Any, *, replace: bool, test: bool) -> None:
    """Tried first unless told not to, then written beside the others; a name taken needs --replace."""
    from analytics_agent.db.linked.store import read_sources, write_sources
    from analytics_agent.errors import SourceError

    existing = read_sources()
    if any(s.name == source.name for s in existing) and not replace:
        raise SourceError(f"a source named {source.name} exists; pass --replace or choose another name")
    _refuse_name_clash(source)
    if test:
        _echo_report(_check(source))
    path_written = write_sources([s for s in existing if s.name != source.name] + [source])
    scope = f"used with {source.db} only" if source.db else "used with every database"
    typer.echo(f"Saved source {source.name} in {path_written} ({scope}).")


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


def _refuse_name_clash(source: Any) -> None:
    from pathlib import Path

    from analytics_agent.db.linked.link import name_clash
    from analytics_agent.errors import SourceError

    problem = name_clash(Path(source.db).stem) if source.db else None
    if problem is not None:
        raise SourceError(problem)


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
