"""The output columns of an ``aggregate`` call: each metric's ``as`` checked, ``per`` made a ratio of two
metrics, repeated default names numbered, ``order_by`` found among the outputs. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, did_you_mean, listing
from analytics_agent.tools.aggregate.query_plan import MetricPlan
from analytics_agent.tools.aggregate.refs import Resolver

_OUTPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def named_outputs(metrics: list[MetricPlan], args: Any, refs: Resolver) -> list[MetricPlan]:
    """Each metric's ``as``: a plain name, unique among the outputs. It may be a column's name (``as:
    "amount"`` for sum of amount) unless a filter names it, which could then mean either."""
    result, taken = [], {*args.group_by, *([args.time_grain] if args.time_grain else [])}
    filtered = {f.column for f in args.filters}
    for m, asked in zip(metrics, args.metrics, strict=True):
        name = getattr(asked, "as_", None)
        if not name or getattr(asked, "per", None):
            result.append(m)
            continue
        if not _OUTPUT_NAME.match(name):
            raise ToolError(f"metrics: as {clipped(repr(name))} must be a plain name (letters, digits, _)")
        if name in taken:
            raise ToolError(f"metrics: as {name!r} is already an output name; choose another")
        if name in filtered and name in refs.column_names:
            raise ToolError(
                f"metrics: as {name!r} is a column too, and a filter names it (the rows' {name}, or "
                "the groups' output?); choose another name"
            )
        taken.add(name)
        result.append(replace(m, alias=name))
    return result


def per_ratios(metrics: list[MetricPlan], asked: Sequence[Any]) -> list[MetricPlan]:
    """A metric with ``per`` (another metric's output name) becomes the ratio of the two: revenue per
    customer is sum(amount) / count_distinct(customer_id), both computed over the same rows."""
    names = [m.alias for m in metrics]
    result = []
    for m, a in zip(metrics, asked, strict=True):
        other = getattr(a, "per", None)
        if not other:
            result.append(m)
            continue
        if other not in names or other == m.alias:
            raise ToolError(
                f"metrics: per {other!r} is not another metric of this call{did_you_mean(other, names)}; "
                f"its metrics: {listing(names)}"
            )
        denominator = metrics[names.index(other)]
        numerator = replace(m, share=False)
        if _part_of(numerator, denominator):  # a fraction: a percent, as pct and share are
            alias = getattr(a, "as_", None) or f"{m.alias}_pct_of_{other}"
            template = "(100.0 * {0} / nullif({1}, 0))"
            parts = (numerator, denominator)
            result.append(MetricPlan("expr", None, alias, share=m.share, parts=parts, template=template))
            continue
        alias = getattr(a, "as_", None) or f"{m.alias}_per_{other}"
        result.append(MetricPlan("ratio", None, alias, share=m.share, ratio=(numerator, denominator)))
    return result


def _part_of(numerator: MetricPlan, denominator: MetricPlan) -> bool:
    """Whether two metrics count or sum the same thing, so one over the other is a fraction (cancelled
    orders per order, sales of one kind per sales) rather than a rate in units (revenue per customer)."""
    plain = all(not x.ratio and not x.parts for x in (numerator, denominator))
    same = (numerator.fn, numerator.sql) == (denominator.fn, denominator.sql)
    return plain and same and numerator.fn in ("count", "sum")


def unique_aliases(metrics: list[MetricPlan]) -> list[MetricPlan]:
    taken: set[str] = set()
    result = []
    for m in metrics:
        alias, n = m.alias, 1
        while alias in taken:
            n += 1
            alias = f"{m.alias}_{n}"
        taken.add(alias)
        result.append(replace(m, alias=alias))
    return result


def find_order_by(text: str | None, outputs: list[str]) -> tuple[str | None, bool]:
    if not text:
        return None, False
    name = text.strip()
    descending = name.startswith("-")
    name = name.lstrip("-").strip()
    if name not in outputs:
        raise ToolError(
            f"order_by: {clipped(repr(name))} is not a result column{did_you_mean(name, outputs)}; result columns: {listing(outputs)}"
        )
    return name, descending
