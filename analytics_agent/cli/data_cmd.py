"""Commands about the data: tables, schema, load, drop (registered by ``app.py``)."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

import inspect
import json
from typing import Annotated, Any, Optional

import typer

from analytics_agent.cli.context import db_path, open_workspace
from analytics_agent.cli.global_options import JsonFlag
from analytics_agent.cli.load_args import OPTIONS, PATHS_HELP, Option, defaults
from analytics_agent.present.safe_text import escape_control, escape_json_text

_Paths = Annotated[list[str], typer.Argument(metavar="PATH...", help=PATHS_HELP)]
_KINDS = {"text": Optional[str], "int": Optional[int], "many": Optional[list[str]], "flag": bool, "switch": Optional[bool]}  # fmt: skip


def tables(as_json: JsonFlag = False) -> None:
    """Tables in the database with row and column counts; a linked table names its source."""
    from analytics_agent.db.catalog import NO_TABLES, list_tables
    from analytics_agent.present.tables import table

    with open_workspace() as ws:
        infos = list_tables(ws.cursor())
        linked = dict(ws.linked_tables)
    if not infos and not as_json:
        typer.echo(NO_TABLES)
        return
    if as_json:
        rows = [
            {"name": t.name, "rows": t.rows, "columns": t.columns, "source": linked.get(t.name)}
            for t in infos
        ]
        typer.echo(json.dumps(rows, indent=2))
        return
    if not linked:
        typer.echo(
            table(["table", "rows", "columns"], [(t.name, t.rows, t.columns) for t in infos], right=(1, 2))
        )
        return
    # linked tables are read where they live: say from which source, so none passes for a loaded one
    cells = [
        (t.name, t.rows, t.columns, f"linked: {linked[t.name]}" if t.name in linked else "") for t in infos
    ]
    typer.echo(table(["table", "rows", "columns", "source"], cells, right=(1, 2)))


def schema(
    table_name: Annotated[str, typer.Argument(metavar="TABLE", help="Table name.")], as_json: JsonFlag = False
) -> None:
    """Columns of one table: type, nulls, range and common values."""
    from analytics_agent.cli.output import text_columns
    from analytics_agent.db.catalog import NO_TABLES, get_profile, table_names
    from analytics_agent.errors import DatabaseError
    from analytics_agent.present.tables import column_list, is_year, plural, table, width
    from analytics_agent.suggest import did_you_mean

    with open_workspace() as ws:
        names = table_names(ws.cursor())
        if not names:
            raise DatabaseError(f"no table {table_name!r}: {NO_TABLES}")
        if table_name not in names:
            raise DatabaseError(
                f"no table {table_name!r}{did_you_mean(table_name, names)}; "
                f"tables: {', '.join(names) or 'none'}"
            )
        profile = get_profile(ws.cursor(), table_name)
    if as_json:
        typer.echo(escape_json_text(json.dumps(profile, indent=2, ensure_ascii=False)))
        return
    typer.echo(escape_control(f"{table_name}: {plural(profile['rows'], 'row')}"))
    original = profile.get("original_names", {})
    headers = ["column", "type", "nulls", "min", "max", "values"]
    if original:
        headers.insert(1, "original name")
    rows = []
    for c in profile["columns"]:
        low, high = c.get("min"), c.get("max")
        if is_year(c["name"]) and isinstance(low, int):  # 2013, not 2,013
            low, high = str(low), str(high)
        row = [c["name"], c["type"], c["nulls"], low, high, c.get("values")]
        if original:
            row.insert(1, original.get(c["name"], ""))
        rows.append(row)
    text = table(headers, rows, right=(headers.index("nulls"),))
    columns = text_columns()
    if columns is not None and max(width(line) for line in text.splitlines()) > columns:
        text = column_list(headers, rows, columns)  # a wide table wraps into noise: one column per block
    typer.echo(text)


def drop(
    table: Annotated[str, typer.Argument(metavar="TABLE", help="Table to remove.")],
    yes: Annotated[bool, typer.Option("--yes", help="Drop a sample table without asking.")] = False,
) -> None:
    """Remove one table and its stored profile."""
    from analytics_agent.cli.context import gets_sample_data
    from analytics_agent.db.drop import drop_table
    from analytics_agent.db.seed import SAMPLE_TABLES

    if table in SAMPLE_TABLES and gets_sample_data(db_path()) and not yes:
        _confirm_sample_drop(table)
    rows = drop_table(db_path(), table)
    typer.echo(escape_control(f"Dropped {table} ({rows:,} row{'' if rows == 1 else 's'})."))


def _confirm_sample_drop(table: str) -> None:
    """A sample table feeds the bundled tools: ask before dropping it (refuse when no one can answer),
    and say how the sample comes back."""
    import sys

    from analytics_agent.errors import DatabaseError

    back = (
        f"to get the sample data back later, remove {db_path()}: the next command makes it again with the "
        "sample data (your own tables in it go too)"
    )
    if not sys.stdin.isatty():
        raise DatabaseError(
            f"{table} is a sample table the bundled tools read; add --yes to drop it anyway; {back}"
        )
    if not typer.confirm(f"{table} is a sample table the bundled tools read. Drop it?", default=False):
        raise typer.Exit(1)
    typer.echo(escape_control(back[0].upper() + back[1:] + "."), err=True)


def load(paths: _Paths, **values: Any) -> None:
    """Load CSV or Parquet files into one table, all or nothing; then show what was stored."""
    from analytics_agent.cli.load_cmd import run_load

    run_load(paths, values)


def _parameter(option: Option) -> inspect.Parameter:
    flags = [option.flags] if option.kind == "switch" else option.flags.split()
    info = typer.Option(*flags, help=option.help, metavar=option.metavar)
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, default=defaults()[option.name],
        annotation=Annotated[_KINDS[option.kind], info],
    )  # fmt: skip


# typer reads a command's parameters from its signature: the load command's are the table's
load.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [inspect.Parameter("paths", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=_Paths)]
    + [_parameter(option) for option in OPTIONS]
)
