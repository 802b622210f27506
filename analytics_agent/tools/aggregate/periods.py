"""``period`` and ``baseline`` of an ``aggregate`` call as day ranges of its time column, in the business
zone. Pure."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.query_plan import TRUNC_GRAINS, FilterPlan
from analytics_agent.tools.aggregate.refs import Resolver
from analytics_agent.tools.aggregate.time import day_range
from analytics_agent.tools.args.quick import PREVIOUS
from analytics_agent.tools.date_parts import PartsDate


def plan_periods(
    args: Any,
    refs: Resolver,
    time_column: Callable[[str | None, Resolver], str],
    zone: str,
    filters: list[FilterPlan],
    keep_from: list[dt.datetime],
) -> tuple[FilterPlan, FilterPlan] | None:
    """``period`` alone becomes a day-range filter (added to ``filters``); with ``baseline`` the two
    ranges to compare; ``baseline: previous`` reads every row before the period too (the period's first
    bucket start put in ``keep_from``), so its first bucket has the last bucket with rows to compare with."""
    period, baseline = getattr(args, "period", None), getattr(args, "baseline", None)
    if baseline == PREVIOUS:  # a time key is checked with the keys (time_grain or a date in group_by)
        baseline = None
    elif period is None and baseline is None:
        return None
    elif period is None:
        raise ToolError("baseline needs a period to compare with it")
    elif baseline is not None and args.time_grain:
        raise ToolError(
            "a period comparison is per group, not per time bucket: drop time_grain (or baseline), "
            "or use baseline 'previous' for each bucket against the one before"
        )
    if period is None:
        return None
    column = time_column(args.time_column, refs)
    ref = refs.resolve(column, "time_column")
    if refs.parts and column == refs.parts.name:
        whole_parts(refs.parts, [p for p in (period, baseline) if p is not None])
    ranges = [
        FilterPlan(column, "range", list(day_range(p[0], p[1], ref.type, zone)), sql=ref.sql)
        for p in (period, baseline) if p is not None
    ]  # fmt: skip
    if getattr(args, "baseline", None) == PREVIOUS and args.time_grain in TRUNC_GRAINS:
        # the period's first bucket is compared with the last bucket before it that has rows, however
        # long before (a census every few years): read every earlier row, show only the period's buckets
        first = bucket_start(period[0], args.time_grain)
        ranges[0] = replace(ranges[0], value=[None, ranges[0].value[1]])
        keep_from.append(dt.datetime.combine(first, dt.time()))
    if baseline is None:
        filters.append(ranges[0])
        return None
    return ranges[0], ranges[1]


def bucket_start(day: dt.date, grain: str) -> dt.date:
    """The first day of the bucket of ``grain`` holding ``day`` (ISO weeks start on Monday)."""
    if grain == "week":
        return day - dt.timedelta(days=day.weekday())
    if grain == "month":
        return day.replace(day=1)
    if grain == "quarter":
        return day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
    if grain == "year":
        return day.replace(month=1, day=1)
    if grain == "decade":
        return dt.date(day.year // 10 * 10, 1, 1)
    return day


def whole_parts(parts: PartsDate, periods: Sequence[tuple[Any, Any]]) -> None:
    """A date made of years (or months) cannot take part of one: 2015-01-15..2015-03-31 would count all
    of January. Refused, with the whole ones to ask for."""
    for first, last in periods:
        after = last + dt.timedelta(days=1)
        whole = {
            "year": first.month == first.day == 1 and after.month == after.day == 1,
            "month": first.day == 1 and after.day == 1,
            "quarter": first.day == after.day == 1 and first.month % 3 == after.month % 3 == 1,
        }.get(parts.grain, True)
        if not whole:
            unit = {"year": "years", "quarter": "quarters"}.get(parts.grain, "months")
            raise ToolError(
                f"period: {parts.name} comes from {', '.join(parts.columns)}, so a period holds whole {unit} "
                f"(e.g. {first.year}-01-01..{last.year}-12-31)"
                if parts.grain == "year"
                else f"period: {parts.name} comes from {', '.join(parts.columns)}, so a period holds whole {unit} "
                f"(e.g. {first:%Y-%m}-01..{last:%Y-%m}-<last day>)"
            )
