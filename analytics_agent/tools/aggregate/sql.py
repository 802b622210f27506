"""Build the one SELECT behind ``aggregate``. Pure: a checked plan in, SQL text and bound values out.

Every identifier has been checked against the catalog and arrives quoted (``quote_ident``) inside the
plan's expressions; every value a model sent travels as a named ``$pN`` parameter. Keywords (functions,
grains, operators) come from fixed tables in this module, never from the request.

The query has two levels. The inner one groups: keys, metrics (each with its own ``FILTER`` when it is
conditional or part of a period comparison), shares of the total as window sums over the groups (so a
share is of every group, before any group condition). The outer one labels time keys compactly, keeps the
groups the ``having`` conditions ask for, derives changes, orders and limits. A grouped period comparison
groups only the rows of its periods and takes its groups from a DISTINCT of the keys (``every_group``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from analytics_agent.db.catalog import quote_ident
from analytics_agent.tools.aggregate.every_group import every_group, reads_joins
from analytics_agent.tools.aggregate.joins.fanout import counted_once, share_counted_once
from analytics_agent.tools.aggregate.previous import baseline_label, time_index, with_previous
from analytics_agent.tools.aggregate.query_plan import (
    AGGREGATES,
    COMPARISONS,
    ColumnOperand,
    FilterPlan,
    KeyPlan,
    MetricPlan,
    Params,
    QueryPlan,
    time_label,
)


def condition(f: FilterPlan, params: Params) -> str:
    col = f.sql or quote_ident(f.column)
    if f.op == "!=":  # NULL is "not 'CA'" too: a plain <> would drop the rows without a value
        right = f.value.sql if isinstance(f.value, ColumnOperand) else params.add(f.value)
        return f"{col} IS DISTINCT FROM {right}"
    if f.op in COMPARISONS:
        right = f.value.sql if isinstance(f.value, ColumnOperand) else params.add(f.value)
        return f"{col} {COMPARISONS[f.op]} {right}"
    if f.op == "in":
        return f"{col} IN ({', '.join(params.add(v) for v in f.value)})"
    if f.op == "not_in":  # as for !=: a row with no value is not in the list
        return f"({col} NOT IN ({', '.join(params.add(v) for v in f.value)}) OR {col} IS NULL)"
    if f.op == "between":
        return f"{col} BETWEEN {params.add(f.value[0])} AND {params.add(f.value[1])}"
    if f.op == "range":  # [start, end): a day range on a timestamp, in the business zone
        low, high = f.value
        parts = ([f"{col} >= {params.add(low)}"] if low is not None else []) + (
            [f"{col} < {params.add(high)}"] if high is not None else []
        )
        return " AND ".join(parts) or "TRUE"
    if f.op == "like":  # case-insensitive: what a person asking "names containing pro" means
        return f"{col} ILIKE {params.add(f.value)}"
    if f.op in ("exists", "not_exists"):  # rows of another table referring to this row (refs.existence)
        child, column = f.value
        negated = "NOT " if f.op == "not_exists" else ""
        return (
            f"{negated}EXISTS (SELECT 1 FROM {quote_ident(child)} AS c WHERE c.{quote_ident(column)} = {col})"
        )
    if f.op == "is_null":
        return f"{col} IS NULL"
    if f.op == "not_null":
        return f"{col} IS NOT NULL"
    raise ValueError(f"unknown operator {f.op!r}")


def conjunction(filters: Sequence[FilterPlan], params: Params) -> str:
    return " AND ".join(f"({condition(f, params)})" for f in filters)


def where_clause(filters: Sequence[FilterPlan], params: Params) -> str:
    text = conjunction(filters, params)
    return f" WHERE {text}" if text else ""


def from_clause(plan: QueryPlan) -> str:
    sql = f"{quote_ident(plan.table)} AS t"
    for j in plan.joins:
        sql += (
            f" LEFT JOIN {quote_ident(j.table)} AS {j.alias} ON {j.source}.{quote_ident(j.column)} = "
            f"{j.alias}.{quote_ident(j.key)}"
        )
    return sql


def metric_sql(m: MetricPlan, params: Params, extra: str = "") -> str:
    """One aggregate; ``extra`` is a further condition (a comparison period) ANDed into its FILTER."""
    if m.ratio:
        num, den = (metric_sql(part, params, extra) for part in m.ratio)
        return f"CAST({num} AS DOUBLE) / nullif({den}, 0)"
    if m.parts:
        return m.template.format(*(metric_sql(part, params, extra) for part in m.parts))
    own = conjunction(m.where, params)
    col = m.sql or "*"
    if m.fn == "pct":  # % of the rows (with a value in column, if given) where the condition is known
        known = " AND ".join(x for x in (pct_known(m), extra) if x)
        if m.grain:
            return share_counted_once(m.grain, col, own, known)
        num_cond = " AND ".join(x for x in (own, known) if x)
        den = f"count({col})" + (f" FILTER (WHERE {known})" if known else "")
        return f"100.0 * count({col}) FILTER (WHERE {num_cond}) / nullif({den}, 0)"
    cond = " AND ".join(x for x in (own, extra) if x)
    if m.grain:
        return counted_once(m.fn, col, m.grain, cond)
    text = AGGREGATES[m.fn].format(col=col)
    return f"{text} FILTER (WHERE {cond})" if cond else text


def pct_known(m: MetricPlan) -> str:
    """Where a pct's condition is known: every column it compares has a value. A row with an empty one is
    unknown, neither yes nor no (a late flight is not "on time" because its delay is missing), so it is left
    out of the denominator and counted in ``<name>_unknown``; ``is null`` terms are known on every row."""
    columns = [f.sql or quote_ident(f.column) for f in m.where if f.op not in ("is_null", "not_null")]
    columns += [f.value.sql for f in m.where if isinstance(f.value, ColumnOperand)]
    return " AND ".join(f"{c} IS NOT NULL" for c in dict.fromkeys(columns))


def _unknown(m: MetricPlan, extra: str = "") -> list[tuple[str, str]]:
    """A pct's column counting the rows its condition cannot judge (none when it reads no column)."""
    known = pct_known(m) if m.fn == "pct" else ""
    if not known:
        return []
    cond = " AND ".join(x for x in (f"NOT ({known})", extra) if x)
    return [(f"count({m.sql or '*'}) FILTER (WHERE {cond})", quote_ident(f"{m.alias}_unknown"))]


def unknown_names(plan: QueryPlan) -> list[str]:
    """The output names of the pct metrics' unknown counts (dropped from a result where all are 0)."""
    return [f"{m.alias}_unknown" for m in plan.metrics if m.fn == "pct" and pct_known(m)]


def build_query(plan: QueryPlan, *, one_pass: bool = False) -> tuple[str, dict[str, Any]]:
    """The full SELECT (with LIMIT when the plan has one) and its bound values. ``one_pass``: a grouped
    period comparison groups every row, which its many groups make cheaper than ``every_group`` (the
    tool decides: ``few_groups``); tests compare the two."""
    params = Params()
    outer = [_label(k, i) for i, k in enumerate(plan.keys)]
    # Grouped, a metric's own condition (or a comparison period) stays in its FILTER: moved into WHERE it
    # would drop the groups with no matching row, which must show 0, not vanish.
    metrics, shared = _hoisted(plan.metrics) if not plan.keys else (list(plan.metrics), ())
    periods = ("", "")
    if plan.compare:
        periods = tuple(condition(f, params) for f in plan.compare)  # type: ignore[assignment]
    columns: list[tuple[str, str]] = []
    for m in metrics:
        inner_cols, outer_cols = _metric_columns(m, params, periods, previous=plan.previous)
        if m.share and plan.keys:
            inner_cols, outer_cols = _with_share(plan, m, params, inner_cols, outer_cols)
        columns += inner_cols
        outer += outer_cols
    sql = _grouped(plan, columns, [*plan.filters, *shared], params, periods, one_pass=one_pass)
    if plan.previous:
        sql = with_previous(sql, plan.keys, metrics)
        ti = time_index(plan.keys)
        outer.insert(ti + 1, baseline_label(plan.keys[ti]))
        if plan.keep_from is not None:
            sql += f" WHERE g.{quote_ident(f'_k{ti}')} >= {params.add(plan.keep_from)}"
    having = conjunction(
        [FilterPlan(h.column, h.op, h.value, sql=quote_ident(h.column)) for h in plan.having], params
    )
    sql = f"SELECT {', '.join(outer)} FROM ({sql}) AS g" + (f" WHERE {having}" if having else "")
    ranked = _ranked_by(plan)
    if plan.limit is not None and ranked:
        # "the top 1" when three share the top value is all three: a cut inside a tie would name one of
        # them as if it stood alone (the rows show the tie; past MAX_ROWS the result says it was cut)
        sql += f" QUALIFY rank() OVER (ORDER BY {ranked}) <= {int(plan.limit)}"
    order = _order(plan)
    if order:
        sql += " ORDER BY " + order
    if plan.limit is not None:
        sql += f" LIMIT {int(plan.limit)}" if not ranked else f" LIMIT {MAX_TIED_ROWS}"
    return sql, params.values


def _grouped(
    plan: QueryPlan,
    columns: Sequence[tuple[str, str]],
    filters: Sequence[FilterPlan],
    params: Params,
    periods: tuple[str, str],
    *,
    one_pass: bool,
) -> str:
    """The grouping level: keys as ``_k0``..., then the metric columns. A comparison reads only the rows
    of its periods: ungrouped by a WHERE; grouped through ``every_group`` (every group is kept), unless a
    key or filter reads a joined table, whose DISTINCT would join every row (slower than one pass:
    1488 against 1260 ms, 10M orders by customers.segment)."""
    keys = [k.sql for k in plan.keys]
    either = _either_period(*plan.compare, periods) if plan.compare else []
    kept = _where_text(filters, params)
    if either and keys and not one_pass and not plan.previous and not reads_joins([*keys, kept]):
        return every_group(
            keys, columns, table=quote_ident(plan.table), source=from_clause(plan), kept=kept,
            periods=_where_text(either, params),
        )  # fmt: skip
    where = " AND ".join(x for x in (kept, "" if keys else _where_text(either, params)) if x)
    inner = [f"{k} AS {quote_ident(f'_k{i}')}" for i, k in enumerate(keys)]
    sql = f"SELECT {', '.join([*inner, *(f'{e} AS {a}' for e, a in columns)])} FROM {from_clause(plan)}"
    sql += f" WHERE {where}" if where else ""
    if keys:
        sql += " GROUP BY " + ", ".join(str(i) for i in range(1, len(keys) + 1))
    return sql


def _where_text(filters: Sequence[FilterPlan], params: Params) -> str:
    """Row filters ANDed; the "one period or the other" of ``_either_period`` is already SQL."""
    return " AND ".join(f"({f.sql})" if f.op == "or" else f"({condition(f, params)})" for f in filters)


MAX_TIED_ROWS = 1_000
"""Rows a limit with ties may keep (more than any result shows: past its cap the result says it was cut)."""


def _ranked_by(plan: QueryPlan) -> str:
    """The order term of a limit that ranks rows by an output (a metric), where ties can straddle the cut;
    empty when rows are ordered by a key (time or a group), whose values do not repeat."""
    key_aliases = {k.alias for k in plan.keys}
    if plan.order_by:
        if plan.order_by in key_aliases:
            return ""
        return f"{quote_ident(plan.order_by)} {'DESC' if plan.descending else 'ASC'} NULLS LAST"
    if plan.time_ordered or not plan.keys:
        return ""
    if not plan.metrics:  # only the groups: in the keys' order, no ties to rank
        return ""
    return f"{quote_ident(plan.metrics[0].alias)} DESC NULLS LAST"


def _either_period(period: FilterPlan, baseline: FilterPlan, texts: tuple[str, str]) -> list[FilterPlan]:
    """Rows of either period (each a ``range`` [start, end)): the smallest range holding both, which lets
    DuckDB skip row groups, plus "one or the other" when there is a gap between them."""
    (p_low, p_high), (b_low, b_high) = period.value, baseline.value
    hull = FilterPlan(period.column, "range", [min(p_low, b_low), max(p_high, b_high)], sql=period.sql)
    if p_low <= b_high and b_low <= p_high:  # touching or overlapping: the hull is exactly both
        return [hull]
    return [hull, FilterPlan("period", "or", sql=f"({texts[0]}) OR ({texts[1]})")]


def leaves(m: MetricPlan) -> list[MetricPlan]:
    parts = m.ratio or m.parts
    return [leaf for part in parts for leaf in leaves(part)] if parts else [m]


def _without_where(m: MetricPlan) -> MetricPlan:
    ratio = tuple(_without_where(p) for p in m.ratio) if m.ratio else None
    parts = tuple(_without_where(p) for p in m.parts)
    return replace(m, where=(), ratio=ratio, parts=parts)  # type: ignore[arg-type]


def _hoisted(metrics: Sequence[MetricPlan]) -> tuple[list[MetricPlan], tuple[FilterPlan, ...]]:
    """When every metric reads only rows meeting the same condition (revenue and paid orders: not cancelled
    or returned), say it once in WHERE, as a person would: DuckDB then filters once, not per aggregate.
    Not for pct, whose condition picks its numerator only."""
    parts = [leaf for m in metrics for leaf in leaves(m)]
    first = parts[0].where
    if not first or any(leaf.fn == "pct" or leaf.where != first for leaf in parts):
        return list(metrics), ()
    return [_without_where(m) for m in metrics], first


def _label(k: KeyPlan, i: int) -> str:
    inner = quote_ident(f"_k{i}")
    text = time_label(k.grain, inner) if k.grain else inner
    return f"{text} AS {quote_ident(k.alias)}"


def _metric_columns(
    m: MetricPlan, params: Params, periods: tuple[str, str], *, previous: bool = False
) -> tuple[list[tuple[str, str]], list[str]]:
    """The grouping level's columns of a metric (expression, quoted name) and the outer level's."""
    alias = quote_ident(m.alias)
    unknown = _unknown(m, periods[0])
    if previous:  # the bucket before is joined in afterwards (previous.with_previous)
        return [(metric_sql(m, params), alias), *unknown], [*_changes(m.alias), *(a for _, a in unknown)]
    if not periods[0]:
        return [(metric_sql(m, params), alias), *unknown], [alias, *(a for _, a in unknown)]
    base = quote_ident(f"{m.alias}_baseline")
    inner = [(metric_sql(m, params, periods[0]), alias), (metric_sql(m, params, periods[1]), base), *unknown]
    return inner, [*_changes(m.alias), *(a for _, a in unknown)]


def share_name(plan: QueryPlan, m: MetricPlan) -> str:
    """``<name>_share``, or ``<name>_share_in_<time key>`` when it is a % within each time bucket."""
    within = _share_within(plan)
    return f"{m.alias}_share" + (f"_in_{within[0].alias}" if within else "")


def _share_within(plan: QueryPlan) -> list[KeyPlan]:
    """The time keys a share is taken within: each bucket's groups add up to 100 %, when there are other
    groups (by time alone, each bucket's share is of the whole)."""
    timed = [k for k in plan.keys if k.time]
    return timed if len(timed) < len(plan.keys) else []


def _with_share(
    plan: QueryPlan, m: MetricPlan, params: Params, inner: list[tuple[str, str]], outer: list[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """A metric's columns with its share after it. A sum or count is of the groups' sum (a window over
    them, before any group condition); a distinct count, or a measure of a related table counted once per
    row (``joins.fanout``), is of the same measure over all the rows, since one value or one order may be
    in many groups (a customer buying in two regions, an order with lines in two categories)."""
    name = quote_ident(share_name(plan, m))
    within = _share_within(plan)
    if m.fn == "count_distinct" or any(leaf.grain for leaf in leaves(m)):
        on = [f"{k.sql} = g.{quote_ident(f'_k{plan.keys.index(k)}')}" for k in within]
        total = metric_sql(m, params)
        where = " AND ".join([*(f"({condition(f, params)})" for f in plan.filters), *on])
        total = f"(SELECT {total} FROM {from_clause(plan)}" + (f" WHERE {where})" if where else ")")
        share = f"100.0 * {quote_ident(m.alias)} / nullif({total}, 0) AS {name}"
        return inner, [*outer[:1], share, *outer[1:]]
    expr = metric_sql(m, params)
    over = "PARTITION BY " + ", ".join(k.sql for k in within) if within else ""
    share_col = (f"100.0 * {expr} / nullif(sum({expr}) OVER ({over}), 0)", name)
    return [*inner[:1], share_col, *inner[1:]], [*outer[:1], name, *outer[1:]]


def _changes(name: str) -> list[str]:
    """A metric, its baseline, the change and the % change, in the outer query."""
    alias, base = quote_ident(name), quote_ident(f"{name}_baseline")
    change, pct = quote_ident(f"{name}_change"), quote_ident(f"{name}_change_pct")
    return [
        alias,
        base,
        f"{alias} - {base} AS {change}",
        f"100.0 * ({alias} - {base}) / nullif({base}, 0) AS {pct}",
    ]


def output_names(plan: QueryPlan) -> list[str]:
    """The result's column names, in order (for order_by and having checks)."""
    names = [k.alias for k in plan.keys]
    if plan.previous and any(k.time for k in plan.keys):
        ti = time_index(plan.keys)
        names.insert(ti + 1, f"{plan.keys[ti].alias}_baseline")
    for m in plan.metrics:
        names.append(m.alias)
        if plan.compare or plan.previous:
            names += [f"{m.alias}_baseline", f"{m.alias}_change", f"{m.alias}_change_pct"]
        elif m.share and plan.keys:
            names.append(share_name(plan, m))
        if m.fn == "pct" and pct_known(m):
            names.append(f"{m.alias}_unknown")
    return names


def _order(plan: QueryPlan) -> str:
    """The asked order, else time ascending, else the first metric largest first; keys break ties."""
    keys = [quote_ident(f"_k{i}") for i in range(len(plan.keys))]
    terms: list[str] = []
    if plan.order_by:
        # a time key orders by its value, not its label: Mon before Fri, Jan before Apr
        by = {k.alias: keys[i] for i, k in enumerate(plan.keys) if k.grain}.get(plan.order_by)
        terms.append(f"{by or quote_ident(plan.order_by)} {'DESC' if plan.descending else 'ASC'} NULLS LAST")
    elif plan.time_ordered:
        pass  # the keys below, in time order
    elif keys and plan.metrics:
        terms.append(f"{quote_ident(plan.metrics[0].alias)} DESC NULLS LAST")
    terms.extend(f"{k} ASC" for k in keys)
    return ", ".join(terms)
