"""Running totals among a ledger's records: a general ledger's year-to-date row after each month's total
(Kingdee's ``本期合计`` then ``本年累计``), whose debit and credit are the sums of every record of the year
so far. Loaded as rows, a sum over the table counted each month's records again once for every month
after it. A row counts only when its label says a running total and, in a number column, each one's
number is the one before it plus the records between, to the cent (a ledger starting mid-year carries
its first one in from months the file does not hold; a new year starts the sum again). Runs inside the
load's transaction, on the query ``group_sums`` builds."""

from __future__ import annotations

import itertools
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident


def running_groups(
    conn: duckdb.DuckDBPyConnection, grouped: str, numbers: list[str]
) -> list[tuple[Any, ...]]:
    """Per running-total row of ``grouped`` (``group_sums``' query: ``run`` marks such a row, ``rgrp``
    counts them before a row), in order: its group, rowid, label, then each number column's sum over the
    records since the one before and the row's own value."""
    parts = ", ".join(
        f"coalesce(sum({quote_ident(n)}) FILTER (WHERE NOT sub AND NOT run), 0), "
        f"coalesce(max({quote_ident(n)}) FILTER (WHERE run), 0)"
        for n in numbers
    )
    # each running row closes its group (``rgrp`` counts those before a row): the rows after the last close none
    return conn.execute(
        f"SELECT rgrp, max(r) FILTER (WHERE run), max(lab) FILTER (WHERE run), {parts} "
        f"FROM ({grouped}) GROUP BY rgrp HAVING bool_or(run) ORDER BY rgrp"
    ).fetchall()


def chained_columns(runs: list[tuple[Any, ...]], at: int) -> int | None:
    """How many steps of ``runs`` (``running_groups``) number column ``at`` checks: each row after the
    first is the one before plus the records between, or those records alone (a new year); None when one
    is not, or 0 when there are no running rows. Pure."""
    if not runs:
        return 0
    sums = [(float(g[3 + 2 * at]), float(g[4 + 2 * at])) for g in runs]
    steps = 0
    for (_, before), (moved, after) in itertools.pairwise(sums):
        if abs(before + moved - after) >= 0.005 and abs(moved - after) >= 0.005:
            return None
        steps += 1
    if len(sums) < 2 or not any(abs(after) >= 0.005 for _, after in sums):
        return None
    return steps
