"""The fan-out rule: a measure of a table reached through links counts each of that table's rows once per
group. Pure: SQL fragments in, SQL text out.

Asked from order lines, ``sum(orders.total)`` meets each order once per line: a plain sum counts an order
with three lines three times. A repeated row leaves min, max and a distinct count as they are; every other
aggregate is taken over the distinct rows of the measure's table in the group, each identified by its
unique key (the key the last link of its path joins on): a symmetric aggregate, as Looker and Malloy do it.
DuckDB collects the group's distinct (key, value) pairs, and the aggregate runs over their values. A row
whose key is NULL met no row of that table (the LEFT JOIN found none), so it has no value to count.
"""

from __future__ import annotations

from collections.abc import Sequence

from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.joins.graph import Path

REPEAT_SAFE = frozenset({"min", "max", "count_distinct"})
"""Aggregates a row met twice does not change."""

_OVER_LIST = {
    "sum": "list_sum({v})",
    "avg": "list_avg({v})",
    "median": "list_median({v})",
    "stddev": "list_stddev_samp({v})",
    "p90": "list_aggregate({v}, 'quantile_cont', 0.9)",
    "p95": "list_aggregate({v}, 'quantile_cont', 0.95)",
    "p99": "list_aggregate({v}, 'quantile_cont', 0.99)",
    "count": "coalesce(list_count({v}), 0)",
}


def fans_out(fn: str, grain: str) -> bool:
    """Whether ``fn`` over a column whose rows are identified by ``grain`` (empty: the queried table's
    own rows) needs counting once per row."""
    return bool(grain) and fn not in REPEAT_SAFE


def counted_once(fn: str, value: str, grain: str, condition: str = "") -> str:
    """``fn`` over ``value`` with each row of its table (``grain``, its unique key) counted once, over the
    rows meeting ``condition``."""
    cond = " AND ".join(x for x in (f"{grain} IS NOT NULL", condition) if x)
    pairs = f"list(DISTINCT {{'k': {grain}, 'v': {value}}}) FILTER (WHERE {cond})"
    return _OVER_LIST[fn].format(v=f"[e.v FOR e IN {pairs}]")


def share_counted_once(grain: str, value: str, condition: str, base: str) -> str:
    """``pct`` over a related table's rows: of its distinct rows with a value in the group (meeting
    ``base``: a comparison period), the % also meeting ``condition``."""
    present = " AND ".join(x for x in (f"{value} IS NOT NULL", base) if x)
    hit = " AND ".join(x for x in (present, condition) if x)
    return (
        f"100.0 * count(DISTINCT {grain}) FILTER (WHERE {hit}) / "
        f"nullif(count(DISTINCT {grain}) FILTER (WHERE {present}), 0)"
    )


def row_grain(columns: Sequence[tuple[str, Path]]) -> str:
    """The key that tells apart the rows an arithmetic of ``columns`` (each its table's key and path, an
    empty key for the queried table's own column) takes its values from: the queried table's rows (empty)
    when one column is its own, else the related table nearest to it on one path (``orders.total *
    orders.customers.discount`` has a value per order). Columns from tables on separate paths have no
    common row: refused."""
    if not columns or any(not grain for grain, _ in columns):
        return ""
    nearest = min(columns, key=lambda c: len(c[1]))
    if all(path[: len(nearest[1])] == nearest[1] for _, path in columns):
        return nearest[0]
    tables = sorted({path[-1].target for _, path in columns})
    raise ToolError(
        f"metrics: arithmetic over {' and '.join(tables)} together has no row of its own (neither is "
        "reached through the other), so its sum would repeat; aggregate each on its own and combine them "
        "in expr, e.g. sum(a) / sum(b)"
    )
