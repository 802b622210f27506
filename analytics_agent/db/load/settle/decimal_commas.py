"""Text columns of numbers written with a decimal comma (``1.234,50``), and the ``--decimal`` and
``--thousands`` options that read them, offered only where they lose no other column's numbers (a note of
the load, ``odd_values``). Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.load.settle.first_rows import PROBE_ROWS, SAMPLE_ROWS, first_rows
from analytics_agent.db.rows import first_row

DECIMAL_COMMA = r"[+-]?(\d{1,3}(\.\d{3})+,\d+|\d+,(\d{1,2}|\d{4,}))"
"""A number only a decimal comma reads: 1.234,50, 2,00 or 0,5 (1,234 could be a thousand: not counted)."""
_GROUPED_COMMA = r"[+-]?\d{1,3}(\.\d{3})+,\d+"
"""Thousands grouped with points, then a decimal comma. --thousands '.' is offered only when a value shows
both and every value with a point passes the load's own check of that option (``separators.grouping``)."""
_COMMA_NUMBER = r"[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?"


def grouped_notes(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], rows: int | None
) -> list[str]:
    """With ``--decimal ','`` and no ``--thousands``: the text columns whose every value (of the first
    ``SAMPLE_ROWS``) is a decimal-comma number, some grouped with points (``1.680,00``), which DuckDB then
    reads as text; one line naming ``--thousands '.'``."""
    if not columns:
        return []
    parts = []
    for col in map(quote_ident, columns):
        parts += [
            f"count({col}) > 0 AND count({col}) = count(*) FILTER (WHERE regexp_full_match(trim({col}), '{_COMMA_NUMBER}'))",
            f"min({col}) FILTER (WHERE regexp_full_match(trim({col}), '{_GROUPED_COMMA}'))",
        ]
    found = first_row(
        conn.execute(f"SELECT {', '.join(parts)} FROM {first_rows(table, columns, SAMPLE_ROWS, rows)}")
    )
    named = [(name, found[2 * i + 1]) for i, name in enumerate(columns) if found[2 * i] and found[2 * i + 1]]
    if not named:
        return []
    return [
        f"{', '.join(n for n, _ in named)} stayed text: their values group thousands with '.', like "
        f"{named[0][1]!r}; add --thousands '.' to read them as numbers"
    ]


def comma_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: Sequence[str],
    rows: int | None,
    comma_read: Sequence[str] = (),
) -> list[str]:
    """One note for the columns of numbers written with a decimal comma: a value of theirs, and the
    options that read them. ``--decimal`` and ``--thousands`` apply to every column, so none is offered
    when another column holds numbers with a decimal point (they would turn to text), and
    ``--thousands '.'`` only when a value groups its thousands with points and every point does so (it
    would read 5.25 as 525)."""
    if not columns:
        return []
    if points_in_use(conn, table, rows=rows, ignore=comma_read):
        return []
    from analytics_agent.db.load.settle.separators import grouping  # only for a column of decimal commas

    parts = [
        f"min({c}) FILTER (WHERE regexp_full_match({c}, '{DECIMAL_COMMA}')), "
        f"bool_or(regexp_full_match({c}, '{_GROUPED_COMMA}')), "
        f"bool_and(regexp_full_match({c}, '{grouping('.', ',')}')) FILTER (WHERE contains({c}, '.'))"
        for c in map(quote_ident, columns)
    ]
    found = first_row(
        conn.execute(f"SELECT {', '.join(parts)} FROM {first_rows(table, columns, PROBE_ROWS, rows)}")
    )
    grouped = any(found[1::3]) and all(ok is not False for ok in found[2::3])
    thousands = " --thousands '.'" if grouped else ""
    which = (
        f"{columns[0]} stayed text: its values are"
        if len(columns) == 1
        else (f"{', '.join(columns)} stayed text: their values are")
    )
    return [
        f"{which} numbers with a decimal comma, like {found[0]!r}; add --decimal ','{thousands} to read "
        "them as numbers"
    ]


def points_in_use(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    column: str | None = None,
    *,
    rows: int | None = None,
    ignore: Sequence[str] = (),
) -> bool:
    """Whether the table has a column of numbers with a decimal point, or ``column`` a value with a point
    among its first ``SAMPLE_ROWS``: ``--decimal ','`` would turn them to text (it applies to every column)."""
    own = ""
    if column is not None:
        col = quote_ident(column)
        own = f" OR (SELECT bool_or(contains({col}, '.')) FROM {first_rows(table, [column], SAMPLE_ROWS, rows)})"
    found = first_row(
        conn.execute(
            "SELECT EXISTS (SELECT 1 FROM duckdb_columns() WHERE database_name = current_database() AND "
            "schema_name = 'main' AND table_name = ? AND NOT list_contains(?::VARCHAR[], column_name) AND "
            f"(data_type IN ('DOUBLE', 'FLOAT') OR data_type LIKE 'DECIMAL%')){own}",
            [table, list(ignore)],
        )
    )[0]
    return bool(found)
