"""Excel's error values among amounts: a pivot table's ``Margin %`` of ``31.3%`` with a ``#DIV/0!`` where
the sales were nil, a lookup's ``Target`` of ``$190,000.00`` with ``#N/A`` where it found none. The plain
numbers' check (``excel_errors``) reads only columns cast reads; a column of amounts with one such value
stayed text, and its note offered ``--null '#DIV/0!'``. The amounts are read with the errors left out
(missing, NULL), and said in the line ``excel_errors`` says them in. Runs inside the load's transaction,
in DuckDB's SQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.excel_errors import ERRORS, errors_note
from analytics_agent.db.rows import first_row

_ERRORS_SQL = ", ".join(f"'{e}'" for e in ERRORS)


def error_columns(probe: Mapping[str, Sequence[str]]) -> list[str]:
    """The columns whose first values hold an Excel error value beside some other value. Pure."""
    if not any(v[:1] == "#" for values in probe.values() for v in values):  # most loads
        return []
    found = []
    for name, values in probe.items():
        errors = sum(1 for v in values if v.strip() in ERRORS)
        if errors and errors < len(values):
            found.append(name)
    return found


def without_errors(probe: Mapping[str, Sequence[str]], columns: Sequence[str]) -> dict[str, list[str]]:
    """``probe`` with the error values of ``columns`` left out: what the amounts' check reads. Pure."""
    return {
        name: [v for v in values if v.strip() not in ERRORS] if name in columns else list(values)
        for name, values in probe.items()
    }


def masked(table: str, columns: Sequence[str]) -> str:
    """SQL: ``table`` (quoted) as a relation whose ``columns`` read their error values as NULL. Pure."""
    parts = ", ".join(
        f"{read_past_errors(quote_ident(c), quote_ident(c))} AS {quote_ident(c)}" for c in columns
    )
    return f"(SELECT * REPLACE ({parts}) FROM {table})"


def read_past_errors(column: str, number: str) -> str:
    """SQL: ``number`` (the amount of the quoted ``column``), NULL for an error value. Pure."""
    return f"CASE WHEN trim({column}) IN ({_ERRORS_SQL}) THEN NULL ELSE {number} END"


def counted_errors(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str]
) -> list[tuple[str, int, list[str]]]:
    """Each of ``columns`` (still text) with how many error values it holds and which, before they are read
    as NULL: what the note says."""
    if not columns:
        return []
    parts = []
    for col in map(quote_ident, columns):
        error = f"trim({col}) IN ({_ERRORS_SQL})"
        parts += [
            f"count(*) FILTER (WHERE {error})",
            f"list(DISTINCT trim({col}) ORDER BY trim({col})) FILTER (WHERE {error})",
        ]
    row = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    return [
        (name, int(row[2 * i]), list(row[2 * i + 1] or [])) for i, name in enumerate(columns) if row[2 * i]
    ]


def amount_errors_note(counted: Sequence[tuple[str, int, list[str]]]) -> list[str]:
    """The one line for the amount columns read past their error values (``counted_errors``). Pure."""
    if not counted:
        return []
    return [errors_note([n for n, _, _ in counted], [f"{n} ({k:,}: {', '.join(s)})" for n, k, s in counted])]
