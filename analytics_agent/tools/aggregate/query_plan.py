"""The checked plan ``build_query`` turns into SQL, and the fixed vocabulary that SQL is made of: aggregate
functions, comparison operators, time grains and their labels. Pure.

Everything here is either a plan a request was checked into (identifiers resolved against the catalog and
quoted, values still to be bound) or a fixed table of keywords; nothing in it comes from a request's text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

AGGREGATES = {
    "count": "count({col})",
    "sum": "sum({col})",
    "avg": "avg({col})",
    "min": "min({col})",
    "max": "max({col})",
    "count_distinct": "count(DISTINCT {col})",
    "median": "median({col})",
    "stddev": "stddev_samp({col})",
    "p90": "quantile_cont({col}, 0.9)",
    "p95": "quantile_cont({col}, 0.95)",
    "p99": "quantile_cont({col}, 0.99)",
}
METRIC_FNS = (*AGGREGATES, "pct")
NUMERIC_FNS = frozenset(AGGREGATES) - {"count", "min", "max", "count_distinct"}
COMPARISONS = {"=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
SPAN_UNITS = ("days", "hours", "months", "years")
"""Units of the time between two dates, ``days(ship_date - order_date)`` (``spans``)."""
TRUNC_GRAINS = ("day", "week", "month", "quarter", "year", "decade")
PART_GRAINS = ("day_of_week", "hour", "month_of_year")
GRAINS = (*TRUNC_GRAINS, *PART_GRAINS)
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
PART_LABELS = {"day_of_week": WEEKDAYS, "month_of_year": MONTHS}
_LABELS = {
    "day": "strftime({k}, '%Y-%m-%d')",
    "week": "strftime({k}, '%G-W%V')",
    "month": "strftime({k}, '%Y-%m')",
    "quarter": "strftime({k}, '%Y') || '-Q' || quarter({k})",
    "year": "CAST(year({k}) AS VARCHAR)",
    "decade": "CAST(year({k}) AS VARCHAR) || 's'",
    "day_of_week": "[" + ", ".join(f"'{d}'" for d in WEEKDAYS) + "][{k}]",
    "hour": "{k}",
    "month_of_year": "[" + ", ".join(f"'{m}'" for m in MONTHS) + "][{k}]",
}
_PARTS = {"day_of_week": "isodow({x})", "hour": "hour({x})", "month_of_year": "month({x})"}


@dataclass(frozen=True)
class FilterPlan:
    """``column op value`` where ``sql`` is the quoted expression the column name resolved to."""

    column: str
    op: str
    value: Any = None
    sql: str = ""
    table: str = ""
    """The table ``source`` lives in (for "did you mean" on values); empty for derived expressions."""
    source: str = ""


@dataclass(frozen=True)
class ColumnOperand:
    """A comparison's right side that is another checked column (``dec > jan``), not a bound value."""

    sql: str


@dataclass(frozen=True)
class MetricPlan:
    fn: str
    column: str | None
    alias: str
    sql: str | None = None
    where: tuple[FilterPlan, ...] = ()
    share: bool = False
    ratio: tuple[MetricPlan, MetricPlan] | None = None
    """A named ratio metric: numerator / denominator, each a metric of its own."""
    parts: tuple[MetricPlan, ...] = ()
    template: str = ""
    """An expression metric: ``template`` is its arithmetic with ``{0}``, ``{1}`` ... for each part."""
    grain: str = ""
    """The SQL of the key of the table ``sql`` reads when a row of it can meet many rows of the queried
    table: the aggregate counts each of its rows once (``joins.fanout``)."""
    defined: bool = False
    """From the semantic file: its condition's values are the user's choice (a status that has not occurred
    yet), so a value no row holds is not refused as a misspelling."""


@dataclass(frozen=True)
class KeyPlan:
    alias: str
    sql: str
    grain: str | None = None
    time: bool = False
    """A time bucket or date: a share is each other group's % within it."""


@dataclass(frozen=True)
class Join:
    alias: str
    table: str
    column: str
    key: str
    verified: bool = True
    """False: the key looked unique on a sample; checked in full before the first query joins to it."""
    source: str = "t"
    """The alias of the table whose ``column`` it joins on: the queried table, or the join before it."""
    path: tuple[Any, ...] = ()
    """The links (``Relationship``) from the queried table to this one: one join per path."""


@dataclass(frozen=True)
class QueryPlan:
    table: str
    metrics: Sequence[MetricPlan]
    keys: Sequence[KeyPlan] = ()
    filters: Sequence[FilterPlan] = ()
    having: Sequence[FilterPlan] = ()
    joins: Sequence[Join] = ()
    compare: tuple[FilterPlan, FilterPlan] | None = None
    """(period, baseline) ranges on the time column: each metric for both, with change and % change."""
    previous: bool = False
    """Each time bucket (the first key) against the one before it, per value of the other keys."""
    keep_from: Any = None
    """With ``previous`` and a period: the first bucket shown (the one before it was read for its baseline)."""
    order_by: str | None = None
    descending: bool = False
    limit: int | None = None
    time_ordered: bool = False
    """Rows in key order when no order_by is given: a time key, or number keys only (without a limit)."""


@dataclass
class Params:
    """Named parameters, so fragments can be built in any order and a period reused in many FILTERs."""

    values: dict[str, Any] = field(default_factory=dict)

    def add(self, value: Any) -> str:
        name = f"p{len(self.values)}"
        self.values[name] = value
        return f"${name}"


def metric_alias(fn: str, column: str | None) -> str:
    """``fn_column``; an expression's operators and blanks become ``_`` (avg of "a - b": avg_a_b)."""
    if column is None:
        return fn
    import re

    return f"{fn}_{re.sub(r'[^0-9A-Za-z_.]+', '_', column).strip('_')}"


def time_key(grain: str, local: str) -> str:
    """The inner group expression of a grain over a local-time expression."""
    if grain in _PARTS:
        return _PARTS[grain].format(x=local)
    return f"date_trunc('{grain}', {local})"


def time_label(grain: str, key: str) -> str:
    """How a grain's key is shown: compact text ('2013-07', 'Sat'), the hour as a number."""
    return _LABELS[grain].format(k=key)


def span_text(unit: str, later: str, earlier: str) -> str:
    """The canonical name of the time between two dates (an output name, and a condition term's name)."""
    return f"{unit.lower()}({_quoted(later)} - {_quoted(earlier)})"


def _quoted(name: str) -> str:
    import re

    plain = re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?", name)
    return name if plain else '"' + name.replace('"', '""') + '"'
