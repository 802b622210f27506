"""The odd values of text columns that are mostly numbers or dates: how many there are, and the three
commonest (``odd_values``'s notes). Runs inside the load's transaction, in DuckDB's SQL.

A small table's odd values are read as they are, in one ungrouped query, and counted here: a ``GROUP BY``
and an ordered ``list`` per column cost 3.5-4.5 ms of CPU on three columns of 366 rows (``weather.csv``,
a fortieth of its load), the lists 0.9 ms. There are few of them: the columns were picked because nine
in ten of their values fit a type (``odd_values._MOSTLY``), counted over the whole of a table of at most
``odd_values.SAMPLE_ROWS`` rows. A bigger table, or an odd value longer than ``LONGEST_LISTED``, is
counted by DuckDB as before.
"""

from __future__ import annotations

from collections import Counter

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

LONGEST_LISTED = 200
"""The longest odd value read into Python; a longer one leaves the counting to DuckDB (the values are never
all copied into Python then)."""


def odd_counts(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    kinds: dict[str, str],
    rows: int | None,
    *,
    listed_up_to: int,
    decimal: str | None = None,
) -> list[tuple[int, list[str]]]:
    """For each column (-> the type most of its values fit, in order): its values that do not cast to
    that type, and the three commonest of them (most first; among as many, the least first, as DuckDB
    orders text: by code point). ``rows``: the table's row count when known; up to ``listed_up_to`` rows
    the values are listed and counted here (``_listed``), else counted in DuckDB (``_grouped``). ``decimal``:
    the load's ``--decimal`` (``cast_sql``)."""
    if rows is not None and rows <= listed_up_to:
        listed = _listed(conn, table, kinds, decimal)
        if listed is not None:
            return listed
    return _grouped(conn, table, kinds, decimal)


def cast_sql(col: str, kind: str, decimal: str | None = None) -> str:
    """``TRY_CAST`` of a quoted column to ``kind``; a number with ``--decimal ','`` as that option reads it
    (``1.234,5``): DuckDB's cast knows only the point, and every such number would count as odd."""
    if kind == "DOUBLE" and decimal == ",":
        return f"TRY_CAST(replace(replace({col}, '.', ''), ',', '.') AS DOUBLE)"
    return f"TRY_CAST({col} AS {kind})"


def odd_sql(col: str, kind: str, decimal: str | None = None) -> str:
    """A value of a quoted column that does not read as ``kind`` (``cast_sql``)."""
    return f"{col} IS NOT NULL AND {cast_sql(col, kind, decimal)} IS NULL"


def _listed(
    conn: duckdb.DuckDBPyConnection, table: str, kinds: dict[str, str], decimal: str | None
) -> list[tuple[int, list[str]]] | None:
    """The odd values of each column listed and counted here; None when one is longer than
    ``LONGEST_LISTED`` (no longer one is read)."""
    parts = []
    for name, kind in kinds.items():
        col, odd = quote_ident(name), odd_sql(quote_ident(name), kind, decimal)
        parts += [
            f"bool_or(strlen({col}) > {LONGEST_LISTED}) FILTER (WHERE {odd})",
            f"list({col}) FILTER (WHERE {odd} AND strlen({col}) <= {LONGEST_LISTED})",
        ]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}"))
    if any(found[0::2]):
        return None
    counted = []
    for values in found[1::2]:
        commonest = sorted(Counter(values or []).items(), key=lambda pair: (-pair[1], pair[0]))
        counted.append((len(values or []), [value for value, _ in commonest[:3]]))
    return counted


def _grouped(
    conn: duckdb.DuckDBPyConnection, table: str, kinds: dict[str, str], decimal: str | None
) -> list[tuple[int, list[str]]]:
    """The count and the three commonest odd values of each column, all columns in one query (a query each
    cost more than its scan on a small table)."""
    parts = []
    for name, kind in kinds.items():
        col = quote_ident(name)
        parts.append(
            f"(SELECT {{'n': sum(n), 'odd': list(v ORDER BY n DESC, v)[1:3]}} FROM (SELECT {col} AS v, count(*) AS n "
            f"FROM {quote_ident(table)} WHERE {odd_sql(col, kind, decimal)} GROUP BY 1))"
        )
    return [
        (int(found["n"]), found["odd"]) for found in first_row(conn.execute(f"SELECT {', '.join(parts)}"))
    ]
