"""What one load runs: the reader, the stored names and what is left to decide once the rows are in.

Sniffing (once per file) is the only I/O; ``build_plan`` turns its answer into the reader call and the
select list.
"""

# no ``from __future__ import annotations``: typing compiles a NamedTuple's annotations written as strings
# one by one when the class is made (a load compiled 113 of them, now 11: 0.8 ms of its imports' 15.5)
from collections.abc import Container, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.names import grouped_cells, groups_note, header_renames, safe_column_names
from analytics_agent.db.load.options import (
    NO_PAIRS,
    Dialect,
    Input,
    Kind,
    LoadOptions,
    csv_reader_sql,
    parquet_reader_sql,
)
from analytics_agent.db.load.read.batches import write_batch
from analytics_agent.db.load.read.dialect import sniff_dialect
from analytics_agent.db.load.settle.rejects import Rejects
from analytics_agent.db.load.settle.token_scan import Recount, recount_for
from analytics_agent.errors import LoadError
from analytics_agent.suggest import did_you_mean

SAMPLE_BUFFER = 1 << 20
"""DuckDB's buffer for a reading of a file's first rows: a LIMIT stops only after a buffer's share."""


class Plan(NamedTuple):  # not a dataclass: a tenth of the import cost
    """The reader and the names: what the one transaction runs."""

    query: str
    params: list[Any]
    originals: list[str]
    safe: list[str]
    text_columns: list[str]
    flags: Sequence[str] = ()
    """Columns DuckDB guessed BOOLEAN, read as text: they become BOOLEAN only if every value is true/false
    (``NO`` is Norway in a country column, not false)."""
    recount: Recount | None = None
    """The file read again as text with only the empty field missing, to count missing-value tokens."""
    text_reader: tuple[str, list[Any]] | None = None
    """The file read as text, records of the wrong width left out (counts good records on failure)."""
    date_formats: Mapping[str, str] = NO_PAIRS
    """Stored date column -> the day/month format DuckDB guessed, when it was not given."""
    fixed: Sequence[str] = ()
    """Stored columns typed by --type or --date-format COLUMN=…: left as the user said."""
    dialect: Dialect | None = None
    first_rows: tuple[str, list[Any]] | None = None
    """``query`` read in small buffers, for its first rows only (``ahead``: a LIMIT stops sooner)."""


def make_plan(
    conn: duckdb.DuckDBPyConnection,
    kind: Kind,
    files: list[Path],
    inputs: list[Input],
    options: LoadOptions,
    reserved: Container[str],
    rejects: Rejects | None,
    *,
    writing: bool = True,
) -> Plan:
    """Sniff (once per file), name the columns, apply --type and --date-format, and build the reader.
    ``writing``: the reader feeds the load's write (a source's view reads with DuckDB's own batches: its
    questions scan the file on every thread)."""
    if kind == "parquet":
        source, params = parquet_reader_sql(files)
        sniffed = describe(conn, source, params, files)
        originals = list(sniffed)
        safe = safe_column_names(originals, reserved=reserved)
        overrides = map_type_overrides(options.types, originals, safe)
        final = {o: overrides.get(o, t) for o, t in sniffed.items()}
        return _plan(source, params, originals, safe, final, fixed=set(overrides))
    dialect, sniffed = _csv_dialect(conn, files, inputs, options)
    # a line may be as long as the buffer: the user's --max-line-size keeps DuckDB's own buffer
    batch = write_batch(files) if writing and not options.max_line_size else None
    return build_plan(sniffed, dialect, files, options, reserved, rejects, batch=batch)


def build_plan(
    sniffed: dict[str, str],
    dialect: Dialect,
    files: list[Path],
    options: LoadOptions,
    reserved: Container[str],
    rejects: Rejects | None,
    *,
    batch: int | None = None,
) -> Plan:
    """The CSV plan from the sniffed columns; ``batch``: the write's bytes per thread. Pure."""
    originals = list(sniffed)
    cells = dialect.header_cells
    if dialect.column_groups:  # the names under a line of column groups carry them
        cells = grouped_cells(cells or tuple(originals), dialect.column_groups)
    safe = safe_column_names(originals, reserved=reserved, cells=cells)
    overrides = map_type_overrides(options.types, originals, safe)
    formats = map_type_overrides(
        options.column_date_formats, originals, safe, flag="--date-format", upper=False
    )
    # DuckDB guesses BIGNUM for thousands-separated integers; BIGINT is what every tool expects
    bignums = {o: "BIGINT" for o, t in sniffed.items() if t == "BIGNUM"}
    flags = {o: "VARCHAR" for o, t in sniffed.items() if t == "BOOLEAN" and o not in overrides}
    types = bignums | flags | overrides | {o: "VARCHAR" for o in formats}
    source, params = csv_reader_sql(
        files,
        options,
        dialect,
        types=types,
        rejects=(rejects.errors, rejects.scans) if rejects else None,
        batch=batch,
    )
    first_rows = csv_reader_sql(files, options, dialect, types=types, batch=_first_rows_buffer(options))
    as_text = {o: "VARCHAR" for o in originals}
    text_reader = csv_reader_sql(
        files, options._replace(null_tokens=("",)), dialect, types=as_text, lenient=True
    )
    final = {o: types.get(o, t) for o, t in sniffed.items()} | {
        o: _parsed_type(f) for o, f in formats.items()
    }
    fixed = set(overrides) | set(formats)
    guessed = dialect.date_format if options.date_format is None else None
    return _plan(
        source,
        params,
        originals,
        safe,
        final,
        fixed=fixed,
        flags=[s for o, s in zip(originals, safe, strict=True) if o in flags],
        recount=_recount(files, options, dialect, text_reader, as_text),
        text_reader=text_reader,
        date_formats=_day_month(guessed, sniffed, originals, safe, fixed),
        parse=formats,
        dialect=dialect,
        first_source=first_rows,
    )


def _day_month(
    guessed: str | None, sniffed: dict[str, str], originals: list[str], safe: list[str], fixed: set[str]
) -> dict[str, str]:
    """The DATE columns (stored names) DuckDB read with its guessed day/month format (``guessed``, not
    --date-format's nor a year-first one), whose order the load checks; none a user typed. Pure."""
    if not guessed or "%d" not in guessed or "%m" not in guessed or guessed.startswith("%Y"):
        return {}
    return {
        s: guessed for o, s in zip(originals, safe, strict=True) if sniffed[o] == "DATE" and o not in fixed
    }


def _first_rows_buffer(options: LoadOptions) -> int:
    """The buffer of a reading of a file's first rows: small, but never below --max-line-size. Pure."""
    return max(SAMPLE_BUFFER, options.max_line_size or 0)


def _recount(
    files: list[Path],
    options: LoadOptions,
    dialect: Dialect,
    text_reader: tuple[str, list[Any]],
    as_text: dict[str, str],
) -> Recount | None:
    """The readers that count missing-value tokens (``settle.token_notes``), when there are tokens. Pure."""
    tokens = [t for t in options.nulls() if t]
    if not tokens:
        return None
    # small buffers: DuckDB parses a whole buffer's share before a LIMIT stops it (8 MB against 1 MB)
    sample = csv_reader_sql(
        files,
        options._replace(null_tokens=("",)),
        dialect,
        types=as_text,
        lenient=True,
        batch=_first_rows_buffer(options),
    )
    return recount_for(
        *text_reader,
        files,
        dialect.delimiter,
        dialect.quote,
        options.encoding,
        sample=sample,
    )


def _plan(
    source: str,
    params: list[Any],
    originals: list[str],
    safe: list[str],
    final: dict[str, str],
    *,
    fixed: set[str],
    parse: dict[str, str] | None = None,
    first_source: tuple[str, list[Any]] | None = None,
    **rest: Any,
) -> Plan:
    parse = parse or {}
    select = ", ".join(
        f"{_read(o, parse.get(o))} AS {quote_ident(s)}" for o, s in zip(originals, safe, strict=True)
    )
    if first_source is not None:
        rest["first_rows"] = (f"SELECT {select} FROM {first_source[0]}", first_source[1])
    return Plan(
        f"SELECT {select} FROM {source}",
        params,
        originals,
        safe,
        text_columns=[s for o, s in zip(originals, safe, strict=True) if final[o] == "VARCHAR"],
        fixed=[s for o, s in zip(originals, safe, strict=True) if o in fixed],
        **rest,
    )


def _read(original: str, date_format: str | None) -> str:
    """The select expression of one column: as read, or parsed with its own --date-format. Pure."""
    if date_format is None:
        return quote_ident(original)
    literal = "'" + date_format.replace("'", "''") + "'"
    text = quote_ident(original)
    if "%p" in date_format:  # a 12-hour time's 上午/下午 or p. m. read as the load reads them, as AM/PM
        from analytics_agent.db.load.settle.day_halves import am_pm_sql

        text = am_pm_sql(text)
    return f"CAST(strptime({text}, {literal}) AS {_parsed_type(date_format)})"


def _parsed_type(date_format: str) -> str:
    return "TIMESTAMP" if any(f"%{c}" in date_format for c in "HIMSfpz") else "DATE"


def excel_note(dialect: Dialect | None) -> list[str]:
    """The note for Excel's ``sep=;`` first line, skipped: said by a load and by a CSV source alike."""
    if dialect is None or not dialect.excel_delimiter:
        return []
    return [
        f"line 1 ('sep={dialect.excel_delimiter}') is Excel's note of the delimiter, not data: skipped; "
        f"the delimiter is {dialect.delimiter!r}"
    ]


def _csv_dialect(
    conn: duckdb.DuckDBPyConnection, files: list[Path], inputs: list[Input], options: LoadOptions
) -> tuple[Dialect, dict[str, str]]:
    """One dialect for all the files (a quote DuckDB saw in any of them applies to all) and the columns:
    one file's own, or the union of several by name."""
    dialects = [sniff_dialect(conn, f, i.label, options) for f, i in zip(files, inputs, strict=True)]
    first = dialects[0]
    if len(files) == 1:
        return first, first.columns
    if any(d.skip != first.skip for d in dialects):  # one reader skips as many lines in every file
        odd = next(i.label for d, i in zip(dialects, inputs, strict=True) if d.skip != first.skip)
        raise LoadError(
            f"{inputs[0].label} and {odd} do not start alike (one has Excel's 'sep=' line above the "
            "header); load them one at a time"
        )
    if options.skip_bad_rows:
        _same_columns(dialects, inputs)
    if any(d.quote != first.quote or d.escape != first.escape for d in dialects):
        quoted = next(d for d in dialects if d.quote)
        first = first._replace(quote=quoted.quote, escape=quoted.escape)
    # the rows --skip-bad-rows sets aside must not stop the look at the columns either
    source, params = csv_reader_sql(files, options, first, lenient=options.skip_bad_rows)
    return first, describe(conn, source, params, files)


def _same_columns(dialects: list[Dialect], inputs: list[Input]) -> None:
    """--skip-bad-rows reads several files only when their headers name the same columns in the same
    order: DuckDB sets rows aside only when it does not match columns by name (a raw Binder Error), and
    read by position, files whose columns differ would put one column's numbers under another's name."""
    names = [list(d.columns) for d in dialects]
    for other, label in zip(names[1:], [i.label for i in inputs[1:]], strict=True):
        if other != names[0]:
            raise LoadError(
                f"--skip-bad-rows needs files whose headers name the same columns in the same order; "
                f"{label} has {_brief(other)}, {inputs[0].label} has {_brief(names[0])}: load them one at a "
                "time (the others with --append), or leave out --skip-bad-rows"
            )


def _brief(names: list[str], most: int = 6) -> str:
    return ", ".join(names[:most]) + (f" … ({len(names)} columns)" if len(names) > most else "")


def describe(
    conn: duckdb.DuckDBPyConnection, source: str, params: list[Any], files: list[Path]
) -> dict[str, str]:
    """The columns and guessed types of a reader (DuckDB sniffs a sample; nothing converted yet)."""
    try:
        described = conn.execute(f"DESCRIBE SELECT * FROM {source}", params).fetchall()
    except duckdb.Error as exc:
        from analytics_agent.db.load.read.late_bytes import read_refusal  # error path only

        raise read_refusal(str(exc), list(files)) from None
    return {row[0]: row[1] for row in described}


def map_type_overrides(
    overrides: Mapping[str, str],
    originals: Sequence[str],
    safe: Sequence[str],
    *,
    flag: str = "--type",
    upper: bool = True,
) -> dict[str, str]:
    """``--type`` (or ``--date-format COLUMN=…``) may name a column as the file does or as it is stored;
    DuckDB wants the file's name."""
    by_name = {o: o for o in originals} | {s: o for s, o in zip(safe, originals, strict=True)}
    by_lower = {k.lower(): v for k, v in by_name.items()}
    mapped: dict[str, str] = {}
    for column, value in overrides.items():
        original = by_name.get(column) or by_lower.get(column.lower())
        if original is None:
            raise LoadError(
                f"{flag} {column}=…: no column {column!r}{did_you_mean(column, safe)}; columns: {', '.join(safe)}"
            )
        mapped[original] = value.strip().upper() if upper else value
    return mapped


def stored_header(
    dialect: Dialect | None, originals: Sequence[str], safe: Sequence[str]
) -> tuple[list[str], dict[str, str]]:
    """``header_renames`` of the header as the file writes it (``dialect.header_cells``), its names under a
    line of column groups carrying them (``grouped_cells``, said by ``groups_note``)."""
    cells = (dialect.header_cells if dialect else ()) or originals
    if dialect is None or not dialect.column_groups:
        return header_renames(cells, originals, safe)
    groups = dialect.column_groups
    notes, own = header_renames(grouped_cells(cells, groups), originals, safe)
    return groups_note(dialect.skip, groups, safe, dialect.group_lines) + notes, own
