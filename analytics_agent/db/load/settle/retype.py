"""A text column typed again once the rows that kept it text are gone (a footer's notes and totals,
headers repeated at page breaks), as DuckDB's sniffer would have typed it without them."""

from __future__ import annotations

import re

import duckdb

from analytics_agent.db.catalog import column_types, quote_ident
from analytics_agent.db.rows import first_row


def retype_column(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    column: str,
    *,
    decimal: str | None = None,
    thousands: str | None = None,
) -> list[str]:
    """The column as DuckDB would have typed it without the rows that kept it text (a footer, headers
    repeated at page breaks), once they are deleted: BIGINT or DOUBLE when every
    value left is one (with no leading zero: a code keeps its text), read with the load's ``--decimal``
    and ``--thousands`` as DuckDB's reader would have, else DATE or TIMESTAMP when every
    value left is one as DuckDB writes them (other date forms are the text-date check's)."""
    col, t = quote_ident(column), quote_ident(table)
    if column_types(conn, table).get(column) != "VARCHAR":
        return []
    num, shaped = _as_written(col, decimal, thousands)
    whole, number, day, stamp, present, padded = first_row(
        conn.execute(
            # whole numbers as written: DuckDB's cast rounds '10.50' to the BIGINT 11
            f"SELECT count(CASE WHEN {shaped} AND regexp_full_match(trim({num}), '[+-]?[0-9]+') THEN TRY_CAST({num} AS BIGINT) END), "
            f"count(CASE WHEN {shaped} THEN TRY_CAST({num} AS DOUBLE) END), "
            f"count(TRY_CAST({col} AS DATE)), count(TRY_CAST({col} AS TIMESTAMP)), count({col}), "
            f"count(*) FILTER (WHERE regexp_matches({col}, '^\\s*[+-]?0[0-9]')) FROM {t}"
        )
    )
    if not present:
        return []
    source = col
    if number == present and not padded:
        kind, source = ("BIGINT" if whole == present else "DOUBLE"), num
    elif day == present and stamp == present and not _has_time(conn, table, column):
        kind = "DATE"
    elif stamp == present:
        kind = "TIMESTAMP"
    else:
        return []
    # TRY_CAST: DuckDB rewrites the deleted rows too (the label is still there), within this transaction
    conn.execute(f"ALTER TABLE {t} ALTER {col} TYPE {kind} USING TRY_CAST({source} AS {kind})")
    return [column]


def _as_written(col: str, decimal: str | None, thousands: str | None) -> tuple[str, str]:
    """SQL reading ``col`` with the load's separators as DuckDB's CSV reader does (``1.680,00`` with
    ``--decimal ','`` and ``--thousands '.'``), and the condition a value is written so (``13.01.2024``,
    a date, is not a number with points between thousands); ``col`` and true when neither is given. Pure."""
    if not thousands and (not decimal or decimal == "."):
        return col, "true"
    expression = col
    point = re.escape(decimal or ".")
    pattern = f"[+-]?[0-9]+({point}[0-9]+)?"
    if thousands:
        expression = f"replace({expression}, {_literal(thousands)}, '')"
        pattern = f"[+-]?([0-9]{{1,3}}({re.escape(thousands)}[0-9]{{3}})+|[0-9]+)({point}[0-9]+)?"
    if decimal and decimal != ".":
        expression = f"replace({expression}, {_literal(decimal)}, '.')"
    return expression, f"regexp_full_match(trim({col}), {_literal(pattern)})"


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _has_time(conn: duckdb.DuckDBPyConnection, table: str, column: str) -> bool:
    """Whether a value of the column has a time of day (``2024-03-01 10:00`` casts to DATE too)."""
    col = quote_ident(column)
    return bool(
        first_row(
            conn.execute(f"SELECT count(*) FILTER (WHERE contains({col}, ':')) FROM {quote_ident(table)}")
        )[0]
    )
