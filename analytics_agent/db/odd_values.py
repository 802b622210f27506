"""Text columns that are numbers or dates but for a few odd values: which values, and the option that
reads them (a note of the load). Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row

SAMPLE_ROWS = 20_000  # DuckDB sniffs types from about this many; odd values past it fail the load instead
PROBE_ROWS = 4_000
"""Rows cast first (see ``odd_value_notes``). ``TRY_CAST`` of a value that fails is the dearest part of
the check: a text column of a big table fails both casts on every sampled value."""
_MOSTLY = 0.9
_NUMBER_WITH_SEPARATORS = re.compile(r"^[+-]?\d{1,3}([,.' ]\d{3})+([.,]\d+)?$")


def odd_value_notes(conn: duckdb.DuckDBPyConnection, table: str, text_columns: Sequence[str]) -> list[str]:
    """One line per text column whose values are numbers or dates except for a few: which values, and
    the option that reads them. Counted over the first ``SAMPLE_ROWS`` rows; the first ``PROBE_ROWS``
    first, which settle a small table, and rule out a column failing both casts on more values than a
    tenth of any sample (then not "mostly" numbers or dates, whatever the rest holds)."""
    if not text_columns:
        return []
    rows, probed = _cast_counts(conn, table, text_columns, PROBE_ROWS)
    counts = probed
    if rows >= PROBE_ROWS:  # a bigger table: the sample's own counts, for the columns not ruled out
        undecided = [
            c
            for c in text_columns
            if 10 * min(probed[c][0] - probed[c][1], probed[c][0] - probed[c][2]) <= SAMPLE_ROWS
        ]
        counts = _cast_counts(conn, table, undecided, SAMPLE_ROWS)[1] if undecided else {}
    odd: dict[str, str] = {}
    for name, (present, numbers, dates) in counts.items():
        fitting = max(numbers, dates)
        if present and _MOSTLY * present <= fitting < present:
            odd[name] = "DOUBLE" if numbers >= dates else "DATE"
    return _odd_notes(conn, table, odd)


def _cast_counts(
    conn: duckdb.DuckDBPyConnection, table: str, columns: Sequence[str], limit: int
) -> tuple[int, dict[str, tuple[int, int, int]]]:
    """The rows read of the first ``limit``, and per column its values, those that cast to DOUBLE and
    those that cast to DATE."""
    selects = ["count(*)"]
    for name in columns:
        col = quote_ident(name)
        selects += [f"count({col})", f"count(TRY_CAST({col} AS DOUBLE))", f"count(TRY_CAST({col} AS DATE))"]
    wanted = ", ".join(quote_ident(name) for name in columns)
    rows, *counts = first_row(
        conn.execute(
            f"SELECT {', '.join(selects)} FROM (SELECT {wanted} FROM {quote_ident(table)} LIMIT {limit})"
        )
    )
    return int(rows), {
        name: (counts[3 * i], counts[3 * i + 1], counts[3 * i + 2]) for i, name in enumerate(columns)
    }


def _odd_notes(conn: duckdb.DuckDBPyConnection, table: str, kinds: dict[str, str]) -> list[str]:
    """The note of each column (-> the type most of its values fit): how many values do not fit, and the
    three commonest; all columns in one query (a query each cost more than its scan on a small table)."""
    if not kinds:
        return []
    parts = []
    for name, kind in kinds.items():
        col = quote_ident(name)
        parts.append(
            f"(SELECT {{'n': sum(n), 'odd': list(v ORDER BY n DESC, v)[1:3]}} FROM (SELECT {col} AS v, count(*) AS n "
            f"FROM {quote_ident(table)} WHERE {col} IS NOT NULL AND TRY_CAST({col} AS {kind}) IS NULL GROUP BY 1))"
        )
    notes = []
    for name, found in zip(kinds, first_row(conn.execute(f"SELECT {', '.join(parts)}")), strict=True):
        count, odd = int(found["n"]), found["odd"]
        values = "value" if count == 1 else "values"
        notes.append(
            f"{name} stayed text because of {count:,} {values} like {', '.join(map(repr, odd))}; "
            f"{odd_value_fix(odd)}"
        )
    return notes


def odd_value_fix(odd: Sequence[str]) -> str:
    """The option that reads such values. Pure."""
    if all(_NUMBER_WITH_SEPARATORS.match(v) for v in odd):
        separator = next((c for c in odd[0] if c in ",.' "), ",")
        return f"add --thousands {separator!r} if {separator!r} separates thousands"
    if all(len(v) <= 12 for v in odd):
        flags = " ".join(f"--null {v!r}" for v in odd)
        return f"add {flags} if {'they mean' if len(odd) > 1 else 'it means'} missing"
    return "fix them, or keep the column as text"
