"""The rows above a totals row that name a group one of its subtotal rows closes (QuickBooks'
``Business Checking (1010)`` over the rows that ``Total for Business Checking (1010)`` sums): no data,
and counted as rows without them (``totals``). Runs inside the load's transaction."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident


def group_headers(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    label: str,
    others: Sequence[str],
    subtotals: Sequence[int],
    row: int,
) -> list[int]:
    """The rowids above ``row`` (the totals row) whose ``label`` cell names a group one of the
    ``subtotals`` rows closes, the name alone there, every one of ``others`` empty."""
    t, col = quote_ident(table), quote_ident(label)
    empty = " AND ".join(f"{quote_ident(c)} IS NULL" for c in others) or "true"
    ids = ", ".join(map(str, subtotals))
    closing = [str(r[0]) for r in conn.execute(f"SELECT {col} FROM {t} WHERE rowid IN ({ids})").fetchall()]
    named = conn.execute(
        f"SELECT rowid, {col} FROM {t} WHERE rowid < {row} AND {col} IS NOT NULL AND {empty}"
    ).fetchall()
    return [
        int(rowid)
        for rowid, name in named
        if str(name).strip() and any(str(name).strip() in c for c in closing)
    ]
