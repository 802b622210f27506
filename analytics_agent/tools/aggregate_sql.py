"""Build the one SELECT behind ``aggregate``. Pure: a checked plan in, SQL text and bound values out.

Every identifier here has already been checked against the catalog and is quoted with ``quote_ident``;
every value a model sent travels as a ``?`` parameter. Keywords (functions, grains, operators) come from
fixed tables in this module, never from the request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analytics_agent.db.catalog import quote_ident

METRIC_SQL = {
    "count": "count({col})",
    "sum": "sum({col})",
    "avg": "avg({col})",
    "min": "min({col})",
    "max": "max({col})",
    "count_distinct": "count(DISTINCT {col})",
}
COMPARISONS = {"=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
GRAINS = ("day", "week", "month", "quarter", "year")


@dataclass(frozen=True)
class MetricPlan:
    fn: str
    column: str | None
    alias: str


@dataclass(frozen=True)
class FilterPlan:
    column: str
    op: str
    value: Any = None


@dataclass(frozen=True)
class QueryPlan:
    table: str
    metrics: Sequence[MetricPlan]
    group_by: Sequence[str] = ()
    filters: Sequence[FilterPlan] = ()
    time_column: str | None = None
    time_grain: str | None = None
    time_alias: str | None = None
    time_is_date: bool = True
    time_ordered: bool = False
    """Group keys include a date: order by the keys (a time series reads in time order)."""
    order_by: str | None = None
    descending: bool = False
    limit: int | None = None


def metric_alias(fn: str, column: str | None) -> str:
    return fn if column is None else f"{fn}_{column}"


def where_clause(filters: Sequence[FilterPlan]) -> tuple[str, list[Any]]:
    """``WHERE …`` (or nothing) and its values, in order."""
    parts: list[str] = []
    params: list[Any] = []
    for f in filters:
        col = quote_ident(f.column)
        if f.op in COMPARISONS:
            parts.append(f"{col} {COMPARISONS[f.op]} ?")
            params.append(f.value)
        elif f.op == "in":
            parts.append(f"{col} IN ({', '.join('?' for _ in f.value)})")
            params.extend(f.value)
        elif f.op == "between":
            parts.append(f"{col} BETWEEN ? AND ?")
            params.extend(f.value)
        elif f.op == "like":  # case-insensitive: what a person asking "names containing pro" means
            parts.append(f"{col} ILIKE ?")
            params.append(f.value)
        elif f.op == "is_null":
            parts.append(f"{col} IS NULL")
        elif f.op == "not_null":
            parts.append(f"{col} IS NOT NULL")
        else:
            raise ValueError(f"unknown operator {f.op!r}")
    return (" WHERE " + " AND ".join(parts) if parts else ""), params


def build_query(plan: QueryPlan) -> tuple[str, list[Any]]:
    """The full SELECT (with LIMIT when the plan has one) and its bound values."""
    select: list[str] = []
    if plan.time_grain and plan.time_column:
        trunc = f"date_trunc('{plan.time_grain}', {quote_ident(plan.time_column)})"
        if plan.time_is_date:
            trunc = f"CAST({trunc} AS DATE)"
        select.append(f"{trunc} AS {quote_ident(plan.time_alias or plan.time_grain)}")
    select.extend(quote_ident(c) for c in plan.group_by)
    keys = len(select)
    for m in plan.metrics:
        col = "*" if m.column is None else quote_ident(m.column)
        select.append(f"{METRIC_SQL[m.fn].format(col=col)} AS {quote_ident(m.alias)}")
    where, params = where_clause(plan.filters)
    sql = f"SELECT {', '.join(select)} FROM {quote_ident(plan.table)}{where}"
    if keys:
        sql += " GROUP BY " + ", ".join(str(i) for i in range(1, keys + 1))
    order = _order(plan, keys)
    if order:
        sql += " ORDER BY " + order
    if plan.limit is not None:
        sql += f" LIMIT {int(plan.limit)}"
    return sql, params


def _order(plan: QueryPlan, keys: int) -> str:
    """The asked order, else time ascending, else the first metric largest first; group keys break ties."""
    terms: list[str] = []
    if plan.order_by:
        terms.append(f"{quote_ident(plan.order_by)} {'DESC' if plan.descending else 'ASC'} NULLS LAST")
    elif plan.time_grain or plan.time_ordered:
        pass  # the keys below, in time order
    elif keys:
        terms.append(f"{quote_ident(plan.metrics[0].alias)} DESC NULLS LAST")
    terms.extend(f"{i} ASC" for i in range(1, keys + 1))
    return ", ".join(terms) if keys or plan.order_by else ""
