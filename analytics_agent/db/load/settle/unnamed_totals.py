"""A last row of totals that no known label names: loaded as a record, every sum over the table counts
the rows twice, without a word. The numbers say it: two or more of them are each the sum, to the cent, of
two or more non-zero values above. Runs inside the load's transaction (``totals`` asks, for such a last
row only)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.settle.total_sums import aggregated, numbers_of
from analytics_agent.db.rows import first_row


def blank_label_sums(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    row: int,
    last: Mapping[str, Any],
    text_columns: Sequence[str],
) -> tuple[str, list[str]] | None:
    """A last row (rowid ``row``) with no label at all, its text cells empty (a Google Analytics export ends
    in one: ``,"708,308",48.33%,…``): the column its label would be in and the columns it sums, when two or
    more are sums; its rates, weighted by columns the file does not hold, need be no aggregate. The label's
    column is the first text column empty in that row alone (what a query leaves out with ``not_null``);
    None when there is none."""
    sums = aggregated(conn, table, dict(last), numbers_of(last), f"rowid < {row}", loose=True)
    if len(sums) < 2:
        return None
    parts = ", ".join(f"count(*) - count({quote_ident(c)})" for c in text_columns)
    empty = first_row(conn.execute(f"SELECT {parts} FROM {quote_ident(table)}"))
    label = next((c for c, n in zip(text_columns, empty, strict=True) if n == 1), None)
    return None if label is None else (label, sums)


def unnamed_sums(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    row: int,
    last: Mapping[str, Any],
    text_columns: Sequence[str],
) -> tuple[str, list[str]] | None:
    """A last row labelled in words ``total_labels`` does not know (Hungarian ``Mindösszesen: 60 csomag``
    before it was listed, German ``Alles zusammen``): the text column holding its label and the columns it
    sums, when two or more are sums and every other number an aggregate too (strict, unlike a blank
    label's: text says nothing here); else None."""
    label = next((c for c in text_columns if isinstance(last.get(c), str) and str(last[c]).strip()), None)
    if label is None:
        return None
    sums = aggregated(conn, table, dict(last), numbers_of(last), f"rowid < {row}")
    return (label, sums) if len(sums) >= 2 else None
