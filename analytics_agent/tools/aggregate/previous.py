"""``baseline: "previous"``: each time bucket of a grouped query against the last bucket before it that
has rows, within the same other keys. Pure: SQL text in, SQL text out (``sql.build_query`` wraps the
grouping level with it and labels the bucket compared with)."""

from __future__ import annotations

from collections.abc import Sequence

from analytics_agent.db.catalog import quote_ident
from analytics_agent.tools.aggregate.query_plan import KeyPlan, MetricPlan, QueryPlan, time_label


def time_index(keys: Sequence[KeyPlan]) -> int:
    """Which key ``previous`` steps along: the first time key (time_grain's, else a date in group_by)."""
    return next(i for i, k in enumerate(keys) if k.time)


_ZERO_WHEN_EMPTY = frozenset({"count", "count_distinct", "sum"})
"""Metrics whose value over no rows is 0: a group with no row in a bucket that has data counted nothing."""


def with_previous(grouped: str, keys: Sequence[KeyPlan], metrics: Sequence[MetricPlan]) -> str:
    """Each bucket with the last bucket before it that has rows in the result, within the same other keys:
    a series recorded every few years compares 2015 with 2010, not with an empty 2014 (a baseline of 0
    and the whole total as change). A group with no row in that bucket, while other groups have some,
    counted nothing there: 0 for counts and sums, NULL for the rest (region A with no sale in February
    compares March with February's 0, not with January). ``_b`` is the bucket compared with, labelled
    in ``<time key>_baseline`` when some bucket's is not the one right before, so a gap is said; before
    the first bucket of the result the baseline is unknown (NULL)."""
    ti = time_index(keys)
    k, b = quote_ident(f"_k{ti}"), quote_ident("_b")
    same = [
        f"p.{quote_ident(f'_k{i}')} IS NOT DISTINCT FROM g.{quote_ident(f'_k{i}')}"
        for i in range(len(keys))
        if i != ti
    ]
    on = " AND ".join([f"p.{k} = g.{b}", *same])
    cols = []
    for m in metrics:
        value = f"p.{quote_ident(m.alias)}"
        if not m.ratio and not m.parts and m.fn in _ZERO_WHEN_EMPTY:
            value = f"coalesce({value}, 0)"
        cols.append(f"CASE WHEN g.{b} IS NOT NULL THEN {value} END AS {quote_ident(f'{m.alias}_baseline')}")
    # rows with no date have no bucket before them
    steps = f"SELECT {k}, lag({k}) OVER (ORDER BY {k}) AS {b} FROM (SELECT DISTINCT {k} FROM cur WHERE {k} IS NOT NULL)"
    stepped = f"SELECT c.*, s.{b} FROM cur AS c LEFT JOIN steps AS s ON s.{k} = c.{k}"
    gap = f"g.{b} <> {_one_grain_before(f'g.{k}', keys[ti].grain)}"
    return (
        f"WITH cur AS ({grouped}), steps AS ({steps}) SELECT g.*, {', '.join(cols)}, "
        f"bool_or({gap}) OVER () AS {quote_ident('_gap')} FROM ({stepped}) AS g LEFT JOIN cur AS p ON {on}"
    )


def baseline_label(k: KeyPlan) -> str:
    """The bucket compared with, when some bucket's is not the one right before (else NULL: dropped)."""
    b = quote_ident("_b")
    label = time_label(k.grain, b) if k.grain else b
    return f"CASE WHEN {quote_ident('_gap')} THEN {label} END AS {quote_ident(f'{k.alias}_baseline')}"


def baseline_labels(plan: QueryPlan) -> list[str]:
    """The name of the column naming each baseline bucket (with ``previous``; dropped when no gap)."""
    timed = [k for k in plan.keys if k.time]
    return [f"{timed[0].alias}_baseline"] if plan.previous and timed else []


def _one_grain_before(key: str, grain: str | None) -> str:
    step = {"week": "INTERVAL 7 DAY", "quarter": "INTERVAL 3 MONTH", "decade": "INTERVAL 10 YEAR"}.get(
        grain or ""
    )
    if grain in ("day", "month", "year"):
        step = f"INTERVAL 1 {grain.upper()}"
    if step is None:  # a numbered part (hour, weekday, month of year), or a day
        return f"{key} - 1"
    return f"CAST({key} - {step} AS TIMESTAMP)"
