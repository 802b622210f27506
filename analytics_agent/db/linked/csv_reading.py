"""The reading ``sources add`` pinned for CSV files, applied in the source's view. SQL text, no loader.

``read`` (the ``read_csv`` settings), ``columns`` (the file's name -> the stored name) and ``amounts`` (the
columns a load stores as numbers, and how they read) are plain data in ``sources.toml``; here they become
the view: the reader with its settings, the renames, and each amount checked and read as a number
(``amount_forms.checked_value_sql``: a value that does not read stops the query, naming it). A source of
many files (a glob or folder) pins its column types by name; a file that brings columns the pinned
reading does not have (another delimiter, no header, a new export's layout) is named in one line instead
of becoming columns of NULLs beside the others.
"""

from __future__ import annotations

from typing import Any

import duckdb

from analytics_agent.db.amount_forms import checked_value_sql, spellings
from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.linked.spec import Source
from analytics_agent.errors import SourceError


def reader_sql(source: Source, reader: str, pattern: str, hive: bool, *, skip: tuple[str, ...] = ()) -> str:
    """``read_csv('pattern', …pinned settings)`` (or ``read_parquet``); ``skip``: settings left out."""
    settings = {k: v for k, v in (source.get("read") or {}).items() if k not in skip}
    pinned = "".join(f", {k} = {sql_literal(v)}" for k, v in settings.items())
    return f"{reader}({sql_literal(pattern)}, hive_partitioning = {'true' if hive else 'false'}{pinned})"


def pinned_view(conn: duckdb.DuckDBPyConnection, source: Source, reader: str, pattern: str) -> str:
    """What the source's view selects from: ``reader`` checked to fit, renamed, its amounts read."""
    types = (source.get("read") or {}).get("types")
    if isinstance(types, dict) and types:
        _check_fit(conn, source, reader, pattern, set(types))
    target = reader
    if source.get("columns"):  # the names a load stores (``sources add`` wrote them)
        renames = ", ".join(f"{quote_ident(o)} AS {quote_ident(s)}" for o, s in source.get("columns").items())
        target = f"(SELECT * RENAME ({renames}) FROM {target})"
    amounts: dict[str, Any] = source.get("amounts") or {}
    if amounts:
        read = ", ".join(f"{_amount_sql(source, c, a)} AS {quote_ident(c)}" for c, a in amounts.items())
        target = f"(SELECT * REPLACE ({read}) FROM {target})"
    return target


def _amount_sql(source: Source, column: str, reading: dict[str, str]) -> str:
    unit, mark = reading.get("unit"), reading["decimal"]
    written = f"{unit}, " if unit else ""
    said = (
        f"source {source.name}: {column} holds {{}}, not an amount as its values were when the source was "
        f"added ({written}decimal {'point' if mark == '.' else 'comma'}); fix the file or add the source "
        "again with --replace"
    )
    currencies = spellings(reading.get("currency"))
    return checked_value_sql(quote_ident(column), mark, unit == "%", currencies, said)


def _check_fit(
    conn: duckdb.DuckDBPyConnection, source: Source, reader: str, pattern: str, pinned: set[str]
) -> None:
    """Refuse, naming the first such file, files whose columns are not among the pinned ones: read by
    name beside the others, each would add columns holding only NULLs and leave its rows' values out."""
    found = [r[0] for r in conn.execute(f"DESCRIBE SELECT * FROM {reader}").fetchall()]
    if set(found) <= pinned:  # one bind, which DuckDB makes anyway: the usual case costs nothing more
        return
    files = [r[0] for r in conn.execute("SELECT file FROM glob(?) ORDER BY file", [pattern]).fetchall()]
    for file in files:
        # the file's own columns: the types of columns it may lack are left out (DuckDB refuses them)
        one = reader_sql(source, "read_csv", file, False, skip=("types", "union_by_name"))
        names = [r[0] for r in conn.execute(f"DESCRIBE SELECT * FROM {one}").fetchall()]
        new = [n for n in names if n not in pinned]
        if new:
            shown = ", ".join(repr(n) for n in new[:3]) + (
                f" and {len(new) - 3} more" if len(new) > 3 else ""
            )
            raise SourceError(
                f"source {source.name}: {file} does not fit the reading pinned when the source was added "
                f"(columns {shown} are not the source's); move it out, or add the source again with "
                "--replace to read the files as they are now"
            )


def sql_literal(value: object) -> str:
    """A pinned reader setting as SQL (a view takes no bound parameters); spec.check_reading let only
    text, numbers, true/false, lists of text and mappings of text through."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(sql_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{sql_literal(k)}: {sql_literal(v)}" for k, v in value.items()) + "}"
    return "'" + str(value).replace("'", "''") + "'"
