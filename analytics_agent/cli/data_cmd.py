"""Commands about the data: tables, schema, load, drop (registered by ``app.py``)."""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time

import json
import sys
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from analytics_agent.cli.context import JsonFlag, db_path, gets_sample_data, open_workspace, say_created
from analytics_agent.present.safe_text import escape_control, escape_json_text

if TYPE_CHECKING:
    from analytics_agent.db.loader import LoadSummary

_TYPE_HELP = "Column type override COLUMN=TYPE, e.g. amount=VARCHAR (repeatable)."
_NULL_HELP = (
    "A value that means missing (repeatable); replaces the default set NA, N/A, n/a, NULL, null, None, "
    "NaN and '-'. An empty field is always missing."
)
_SKIP_HELP = "Load the good records and keep the malformed ones in the table <TABLE>_rejects."
_PAD_HELP = "Read the missing fields at the end of a short record as empty (NULL)."
_DATE_HELP = (
    "Date format for every date column (%d/%m/%Y for day-first), or COLUMN=FORMAT for one column "
    "(repeatable)."
)
_ESCAPE_HELP = "Character escaping a quote inside quotes, e.g. '\\'. Default: detect."
_NEWLINE_HELP = "any: each of \\r\\n, \\n and \\r ends a line (for a file that mixes them). Default: detect."


# The load command's options, one alias each (typer reads them at run time).
_Paths = Annotated[
    list[str],
    typer.Argument(
        metavar="PATH...",
        help="CSV or Parquet files or globs; .gz, .zst, .zip (ARCHIVE.zip:MEMBER for one of several).",
    ),
]
_Table = Annotated[
    Optional[str], typer.Option("--table", "-t", help="Table name (default: from the file name).")
]
_Header = Annotated[
    Optional[bool],
    typer.Option("--header/--no-header", help="The first line is (not) the column names. Default: detect."),
]
_Skip = Annotated[Optional[int], typer.Option("--skip", help="Lines to skip before the header (a preamble).")]
_Delimiter = Annotated[Optional[str], typer.Option("--delimiter", help="Field separator, e.g. ';' or '\\t'.")]
_Thousands = Annotated[
    Optional[str], typer.Option("--thousands", help="Thousands separator in numbers, e.g. ','.")
]
_Decimal = Annotated[Optional[str], typer.Option("--decimal", help="Decimal separator, e.g. ','.")]
_Encoding = Annotated[
    Optional[str], typer.Option("--encoding", help="File encoding: utf-8, utf-16 or latin-1.")
]
_Comment = Annotated[
    Optional[str], typer.Option("--comment", help="Skip lines starting with this character, e.g. '#'.")
]
_Quote = Annotated[
    Optional[str], typer.Option("--quote", help="Quote character, or '' for none. Default: detect.")
]
_Escape = Annotated[Optional[str], typer.Option("--escape", help=_ESCAPE_HELP)]
_Newline = Annotated[Optional[str], typer.Option("--newline", help=_NEWLINE_HELP)]
_Timezone = Annotated[
    Optional[str],
    typer.Option(
        "--timezone",
        help="The database's business time zone (IANA, e.g. America/New_York): days and months of "
        "zoned timestamps are counted in it. Kept in <db>.semantic.yaml.",
    ),
]
_MaxLineSize = Annotated[
    Optional[int],
    typer.Option("--max-line-size", metavar="BYTES", help="The longest line to read. Default: 2000000."),
]
_SkipBadRows = Annotated[bool, typer.Option("--skip-bad-rows", help=_SKIP_HELP)]
_PadShortRows = Annotated[bool, typer.Option("--pad-short-rows", help=_PAD_HELP)]
_AllowEmpty = Annotated[
    bool, typer.Option("--allow-empty", help="Create the table even if the file has no data rows.")
]


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


def load(
    paths: _Paths,
    table: _Table = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace the table if it exists.")] = False,
    append: Annotated[bool, typer.Option("--append", help="Add rows to the table (same columns).")] = False,
    delimiter: _Delimiter = None,
    header: _Header = None,
    date_format: Annotated[Optional[list[str]], typer.Option("--date-format", help=_DATE_HELP)] = None,
    types: Annotated[Optional[list[str]], typer.Option("--type", help=_TYPE_HELP)] = None,
    thousands: _Thousands = None,
    decimal: _Decimal = None,
    encoding: _Encoding = None,
    null: Annotated[Optional[list[str]], typer.Option("--null", metavar="TOKEN", help=_NULL_HELP)] = None,
    skip_bad_rows: _SkipBadRows = False,
    pad_short_rows: _PadShortRows = False,
    allow_empty: _AllowEmpty = False,
    comment: _Comment = None,
    skip: _Skip = None,
    quote: _Quote = None,
    escape: _Escape = None,
    newline: _Newline = None,
    max_line_size: _MaxLineSize = None,
    timezone: _Timezone = None,
) -> None:
    """Load CSV or Parquet files into one table, all or nothing; then show what was stored."""
    # named as load_options' own; the zone is the semantic file's, not the load's
    flags = {name: value for name, value in locals().items() if name not in ("paths", "timezone")}
    from analytics_agent.db.sources import load_options
    from analytics_agent.errors import Interrupted

    def run() -> "LoadSummary":
        options = load_options(**flags)
        try:  # Ctrl-C inside the load is answered by load_files; here it can only be before or after it
            return _run_load(paths, options)
        except KeyboardInterrupt:
            raise Interrupted("interrupted before the load started; the database is unchanged") from None

    if timezone is None:  # the semantic file's module (a dataclass, regexes: ~1 ms) only when it changes
        summary, unset = run(), None
    else:
        from analytics_agent.tools.semantic.zone_file import load_with_zone

        summary, unset = load_with_zone(db_path(), timezone, run)
    try:
        _show_load(summary)
    except KeyboardInterrupt:
        raise Interrupted("interrupted after the load was committed; it is complete") from None
    if unset is not None:
        raise unset


def _run_load(paths, options):
    from analytics_agent.db.loader import load_files

    progress = _Progress(paths[0]) if sys.stderr.isatty() else None
    try:
        return load_files(
            db_path(), paths, options, on_progress=progress, sample_data=gets_sample_data(db_path())
        )
    finally:
        if progress:
            progress.clear()


def _show_load(summary) -> None:
    if summary.created_database:
        say_created(db_path(), sample_data=gets_sample_data(db_path()))
    typer.echo(render_summary(summary))
    if note := bundled_tools_lost(summary):
        typer.echo(escape_control(note), err=True)


def drop(table: Annotated[str, typer.Argument(metavar="TABLE", help="Table to remove.")]) -> None:
    """Remove one table and its stored profile."""
    from analytics_agent.db.drop import drop_table

    rows = drop_table(db_path(), table)
    typer.echo(escape_control(f"Dropped {table} ({rows:,} row{'' if rows == 1 else 's'})."))


def bundled_tools_lost(summary) -> str | None:
    """What a ``--replace`` of a sample table costs the bundled tools, or None if they still fit it."""
    if summary.mode != "replace":  # before the import: the tools (and pydantic) cost a load ~0.3 s of CPU
        return None
    from analytics_agent.tools.bundled import tools_using, unfit_tables

    reason = unfit_tables({summary.table: {c.name: c.type for c in summary.columns}}).get(summary.table)
    if reason is None:
        return None
    return (
        f"note: {summary.table} now {reason}; the bundled tools {', '.join(tools_using(summary.table))} "
        f"need its sample columns and are skipped from now on (load your data under another --table to keep them)"
    )


def render_summary(summary) -> str:
    """The closing summary: what went where, how long it took, each stored column, then what to know."""
    from analytics_agent.present.tables import plural, table
    from analytics_agent.suggest import clipped

    names = ", ".join(summary.files[:3]) + (" …" if len(summary.files) > 3 else "")
    verb = {"append": "Appended", "replace": "Loaded (replacing)"}.get(summary.mode, "Loaded")
    head = f"{verb} {plural(summary.rows_loaded, 'row')} from {names} into {summary.table} in {summary.seconds:.1f} s"
    if summary.mode == "append":
        head += f"; it now has {plural(summary.rows_total, 'row')}"
    renamed = any(c.original != c.name for c in summary.columns)
    headers = ["column", "type", "nulls"]
    rows = [[c.name, c.type, c.nulls] for c in summary.columns]
    if renamed:
        headers.insert(1, "original name")
        for row, c in zip(rows, summary.columns, strict=True):
            row.insert(1, clipped(c.original, limit=80) if c.original != c.name else "")
    lines = [escape_control(head) + ".", table(headers, rows, right=(len(headers) - 1,))]
    if summary.rejected_lines:
        shown = ", ".join(map(str, summary.rejected_lines[:5])) + (
            " …" if len(summary.rejected_lines) > 5 else ""
        )
        lines.append(
            f"Skipped {plural(len(summary.rejected_lines), 'bad record')} "  # records, not errors
            f"(line{'s' if len(summary.rejected_lines) > 1 else ''} {shown}), kept in the table "
            f"{summary.table}_rejects."
        )
    lines += [escape_control(f"note: {note}") for note in summary.notes]
    return "\n".join(lines)


class _Progress:
    """DuckDB's progress estimate on one stderr line (only drawn on a terminal)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.drawn = False

    def __call__(self, percent: float) -> None:
        sys.stderr.write(f"\rloading {self.label}: {min(percent, 100.0):5.1f}%")
        sys.stderr.flush()
        self.drawn = True

    def clear(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
