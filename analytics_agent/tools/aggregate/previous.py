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


def with_previous(grouped: str, keys: Sequence[KeyPlan], metrics: Sequence[MetricPlan]) -> str:
    """Each bucket with the last bucket before it that has rows, within the same other keys: a series
    recorded every few years compares 2015 with 2010, not with an empty 2014 (a baseline of 0 and the
    whole total as change). ``_b`` is the bucket compared with, labelled in ``<time key>_baseline`` so a
    gap is said; before the first bucket of the result the baseline is unknown (NULL)."""
    ti = time_index(keys)
    others = [quote_ident(f"_k{i}") for i in range(len(keys)) if i != ti]
    window = (f"PARTITION BY {', '.join(others)} " if others else "") + f"ORDER BY {quote_ident(f'_k{ti}')}"
    b, k = quote_ident("_b"), quote_ident(f"_k{ti}")
    lags = [(k, b)] + [(quote_ident(m.alias), quote_ident(f"{m.alias}_baseline")) for m in metrics]
    # rows with no date sort last, and have no bucket before them
    cols = [f"CASE WHEN {k} IS NOT NULL THEN lag({x}) OVER w END AS {name}" for x, name in lags]
    lagged = f"SELECT g.*, {', '.join(cols)} FROM ({grouped}) AS g WINDOW w AS ({window})"
    gap = f"{b} <> {_one_grain_before(k, keys[ti].grain)}"
    return f"SELECT *, bool_or({gap}) OVER () AS {quote_ident('_gap')} FROM ({lagged}) AS g"


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
