"""``aggregate``'s arguments read without pydantic, for the shapes a model sends every day.

Importing pydantic and building ``aggregate``'s four models costs a ``tools call aggregate`` on a table of
your own about a third of its CPU (docs/performance.md). So, as ``args.quick`` does for the ``.sql`` tools,
``quick_arguments`` only *accepts*: when every key is known and every value plainly valid (the right JSON
type, an enum's exact value, within the limits ``aggregate.schema`` holds for both), it returns what the
arguments model would: the same values as attributes (``QuickArguments``, read by the planner as it reads
the model) and the same ``model_dump(mode="json")``. Anything else (a mistake, a value pydantic would
coerce, a key the model may refuse) returns None and goes to the model, which stays the one source of
every error message. ``tests/tools/test_aggregate_quick.py`` checks "the same as the model" on generated
arguments and reads the field names, enums and limits from the model itself.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from typing import Any

from analytics_agent.tools.aggregate.query_plan import GRAINS, METRIC_FNS
from analytics_agent.tools.aggregate.schema import (
    MAX_FILTERS,
    MAX_GROUP_BY,
    MAX_IN_VALUES,
    MAX_JOINS,
    MAX_METRICS,
    MAX_TABLE_ENUM,
    OPS,
    TEXT_LIMITS,
)
from analytics_agent.tools.args.quick import PREVIOUS, encodable, iso_period
from analytics_agent.tools.results.shaping import MAX_ROWS

Period = tuple[dt.date, dt.date]
TOP_KEYS = frozenset(
    ("table", "metrics", "group_by", "filters", "joins", "time_column", "time_grain", "period", "baseline",
     "order_by", "limit")
)  # fmt: skip
LIST_LIMITS = {"metrics": MAX_METRICS, "group_by": MAX_GROUP_BY, "filters": MAX_FILTERS, "joins": MAX_JOINS}
_METRIC_TEXT = ("column", "expr", "where", "per", "as")
_METRIC_FLAGS = ("share", "each_row")
_FILTER_KEYS = frozenset(("column", "op", "value"))
_JOIN_KEYS = frozenset(("column", "to"))


class _Refused(Exception):
    """Not plainly valid: the pydantic model decides (and words the error)."""


class QuickMetric:
    """One metric, as the model's ``Metric``. (Plain classes: as frozen dataclasses the four cost this
    module's import about 3 ms of a call's start, measured under load.)"""

    __slots__ = ("as_", "column", "each_row", "expr", "fn", "metric", "per", "share", "where")

    def __init__(
        self,
        fn: str | None = None,
        column: str | None = None,
        metric: str | None = None,
        expr: str | None = None,
        where: str | None = None,
        share: bool | None = None,
        each_row: bool | None = None,
        per: str | None = None,
        as_: str | None = None,
    ) -> None:
        self.fn, self.column, self.metric, self.expr, self.where = fn, column, metric, expr, where
        self.share, self.each_row, self.per, self.as_ = share, each_row, per, as_


class QuickFilter:
    __slots__ = ("column", "op", "value")

    def __init__(self, column: str, op: str, value: Any = None) -> None:
        self.column, self.op, self.value = column, op, value


class QuickJoin:
    __slots__ = ("column", "to")

    def __init__(self, column: str, to: str) -> None:
        self.column, self.to = column, to


class QuickArguments:
    """The attributes of the arguments model's instance, with the same values."""

    __slots__ = (
        "baseline", "filters", "group_by", "joins", "limit", "metrics", "order_by", "period", "table",
        "time_column", "time_grain",
    )  # fmt: skip

    def __init__(
        self,
        table: str,
        metrics: list[QuickMetric],
        group_by: list[str],
        filters: list[QuickFilter],
        joins: list[QuickJoin],
        time_column: str | None = None,
        time_grain: str | None = None,
        period: Period | None = None,
        baseline: Period | str | None = None,
        order_by: str | None = None,
        limit: int | None = None,
    ) -> None:
        self.table = table
        self.metrics = metrics
        self.group_by = group_by
        self.filters = filters
        self.joins = joins
        self.time_column = time_column
        self.time_grain = time_grain
        self.period = period
        self.baseline = baseline
        self.order_by = order_by
        self.limit = limit


def quick_arguments(
    data: dict[str, Any], tables: Sequence[str], metric_names: Sequence[str] = ()
) -> tuple[QuickArguments, dict[str, Any]] | None:
    """(the arguments, their ``model_dump(mode="json")``) when plainly valid for a catalog of ``tables``
    and the semantic model's ``metric_names``; None when the pydantic model must decide."""
    if any(key not in TOP_KEYS for key in data):
        return None
    given = {k: v for k, v in data.items() if v is not None or k == "table"}  # null: the default
    try:
        table = _text(given.get("table"))
        if 0 < len(tables) <= MAX_TABLE_ENUM and table not in tables:
            raise _Refused
        metrics = (
            [_metric(m, metric_names) for m in _items(given["metrics"], LIST_LIMITS["metrics"])]
            if "metrics" in given
            else [QuickMetric(fn="count")]
        )
        args = QuickArguments(
            table=table,
            metrics=metrics,
            group_by=[_text(g) for g in _items(given.get("group_by", []), LIST_LIMITS["group_by"])],
            filters=[_filter(f) for f in _items(given.get("filters", []), LIST_LIMITS["filters"])],
            joins=[_join(j) for j in _items(given.get("joins", []), LIST_LIMITS["joins"])],
            time_column=_maybe_text(given.get("time_column")),
            time_grain=_maybe_choice(given.get("time_grain"), GRAINS),
            period=_period(given.get("period")),
            baseline=PREVIOUS if given.get("baseline") == PREVIOUS else _period(given.get("baseline")),
            order_by=_maybe_text(given.get("order_by")),
            limit=_limit(given.get("limit")),
        )
    except _Refused:
        return None
    return args, _as_json(args, bool(metric_names))


def _as_json(args: QuickArguments, named: bool) -> dict[str, Any]:
    """What ``model_dump(mode="json")`` gives, key order included (a metric has ``metric`` only when the
    semantic model names some, as the model does)."""
    return {
        "table": args.table,
        "metrics": [_metric_json(m, named) for m in args.metrics],
        "group_by": list(args.group_by),
        "filters": [
            {"column": f.column, "op": f.op, "value": list(f.value) if isinstance(f.value, list) else f.value}
            for f in args.filters
        ],
        "joins": [{"column": j.column, "to": j.to} for j in args.joins],
        "time_column": args.time_column,
        "time_grain": args.time_grain,
        "period": _period_text(args.period),
        "baseline": args.baseline if args.baseline == PREVIOUS else _period_text(args.baseline),  # type: ignore[arg-type]
        "order_by": args.order_by,
        "limit": args.limit,
    }


def _metric_json(m: QuickMetric, named: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"fn": m.fn, "column": m.column}
    if named:
        out["metric"] = m.metric
    out.update(expr=m.expr, where=m.where, share=m.share, each_row=m.each_row, per=m.per, as_=m.as_)
    return out


def _period_text(period: Period | None) -> str | None:
    return None if period is None else f"{period[0].isoformat()}..{period[1].isoformat()}"


def _items(raw: Any, most: int) -> list[Any]:
    if type(raw) is not list or len(raw) > most:
        raise _Refused
    return raw


def _metric(raw: Any, metric_names: Sequence[str]) -> QuickMetric:
    allowed = (
        {"fn", "metric", *_METRIC_TEXT, *_METRIC_FLAGS}
        if metric_names
        else {"fn", *_METRIC_TEXT, *_METRIC_FLAGS}
    )
    if type(raw) is not dict or any(key not in allowed for key in raw):
        raise _Refused
    texts = {key: _maybe_text(raw.get(key), TEXT_LIMITS.get(key)) for key in _METRIC_TEXT}
    flags = {key: _maybe_flag(raw.get(key)) for key in _METRIC_FLAGS}
    return QuickMetric(
        fn=_maybe_choice(raw.get("fn"), METRIC_FNS),
        metric=_maybe_choice(raw.get("metric"), tuple(metric_names)),
        column=texts["column"], expr=texts["expr"], where=texts["where"], per=texts["per"], as_=texts["as"],
        share=flags["share"], each_row=flags["each_row"],
    )  # fmt: skip


def _filter(raw: Any) -> QuickFilter:
    if type(raw) is not dict or any(key not in _FILTER_KEYS for key in raw):
        raise _Refused
    op = raw.get("op")
    if type(op) is not str or op not in OPS:
        raise _Refused
    return QuickFilter(column=_text(raw.get("column")), op=op, value=_filter_value(raw.get("value")))


def _filter_value(raw: Any) -> Any:
    if raw is None:
        return None
    if type(raw) is list:
        return [_scalar(v) for v in _items(raw, MAX_IN_VALUES)]
    return _scalar(raw)


def _scalar(raw: Any) -> str | int | float:
    """A text or a number as JSON gives it (no bool: pydantic would coerce it to 1 or 0)."""
    if type(raw) is str:
        return _text(raw)
    if type(raw) is int or (type(raw) is float and math.isfinite(raw)):
        return raw
    raise _Refused


def _join(raw: Any) -> QuickJoin:
    if type(raw) is not dict or set(raw) != _JOIN_KEYS:
        raise _Refused
    return QuickJoin(column=_text(raw["column"]), to=_text(raw["to"]))


def _text(raw: Any, limit: int | None = None) -> str:
    if type(raw) is not str or (limit is not None and len(raw) > limit) or not encodable(raw):
        raise _Refused
    return raw


def _maybe_text(raw: Any, limit: int | None = None) -> str | None:
    return None if raw is None else _text(raw, limit)


def _maybe_choice(raw: Any, choices: tuple[str, ...]) -> str | None:
    if raw is None:
        return None
    if type(raw) is not str or raw not in choices:
        raise _Refused
    return raw


def _maybe_flag(raw: Any) -> bool | None:
    if raw is None or type(raw) is bool:
        return raw
    raise _Refused


def _period(raw: Any) -> Period | None:
    if raw is None:
        return None
    period = iso_period(raw)
    if period is None:
        raise _Refused
    return period


def _limit(raw: Any) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int or not 1 <= raw <= MAX_ROWS:
        raise _Refused
    return raw
