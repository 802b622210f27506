"""Turn checked ``aggregate`` arguments into a ``QueryPlan``: every name resolved against the catalog (or
the semantic model), every value's shape checked. A ``ToolError`` names what to fix, with the real names.

The parts live beside it, each with one job: ``metrics`` (one metric), ``outputs`` (output names and
order), ``filters`` (a filter's value), ``periods`` (period and baseline ranges).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, did_you_mean, listing
from analytics_agent.tools.aggregate import spans
from analytics_agent.tools.aggregate.filters import shape_filter
from analytics_agent.tools.aggregate.joins.asked import asked_links
from analytics_agent.tools.aggregate.metrics import NUMERIC, build_expression, build_metric
from analytics_agent.tools.aggregate.outputs import find_order_by, named_outputs, per_ratios, unique_aliases
from analytics_agent.tools.aggregate.periods import plan_periods
from analytics_agent.tools.aggregate.query_plan import (
    PART_GRAINS,
    FilterPlan,
    KeyPlan,
    MetricPlan,
    QueryPlan,
    time_key,
)
from analytics_agent.tools.aggregate.refs import Catalog, Resolver
from analytics_agent.tools.aggregate.sql import output_names
from analytics_agent.tools.aggregate.time import TEMPORAL, day_filter, local
from analytics_agent.tools.args.quick import PREVIOUS
from analytics_agent.tools.results.value_kinds import refuse_nested
from analytics_agent.tools.semantics import Semantics


@dataclass
class Planner:
    catalog: Catalog
    semantics: Semantics = field(default_factory=Semantics)
    zone: str = "UTC"

    def resolver(self, table: str, joins: Sequence[Any] = ()) -> Resolver:
        return Resolver(
            table,
            self.catalog,
            [*self.semantics.relationships, *asked_links(table, joins, self.catalog)],
            self.semantics.dimensions.get(table, {}),
            self.zone,
        )

    def plan(self, args: Any) -> QueryPlan:
        table = args.table
        if table not in self.catalog:
            raise ToolError(
                f"no table {clipped(repr(table))}{did_you_mean(table, self.catalog)}; tables: {listing(self.catalog)}"
            )
        refs = self.resolver(table, getattr(args, "joins", None) or ())
        metrics = per_ratios(
            unique_aliases(named_outputs([self.metric(m, refs) for m in args.metrics], args, refs)),
            args.metrics,
        )
        keys, time_ordered = self._keys(args, refs)
        if not metrics and not keys:
            raise ToolError("metrics: an empty list asks only for the groups; give group_by (or a metric)")
        outputs_so_far = {m.alias for m in metrics}
        filters, having = [], []
        for f in args.filters:
            if f.column in outputs_so_far and f.column not in self.catalog[table]:
                having.append(shape_filter(f.column, f.op, f.value, sql=""))
            else:
                filters.append(self.filter(f.column, f.op, f.value, refs, "filters"))
        keep_from: list[dt.datetime] = []
        compare = plan_periods(args, refs, self._time_column, self.zone, filters, keep_from)
        plan = QueryPlan(
            table=table, metrics=metrics, keys=keys, filters=filters, having=having, joins=refs.joins,
            compare=compare, previous=getattr(args, "baseline", None) == PREVIOUS, limit=args.limit,
            keep_from=keep_from[0] if keep_from else None,
            time_ordered=time_ordered,
        )  # fmt: skip
        check_shares(plan)
        if plan.previous and not any(k.time for k in keys):
            raise ToolError(
                "baseline 'previous' compares each time bucket with the one before: add a time_grain "
                "(or group_by a date part such as order_date.year)"
            )
        order_by, descending = find_order_by(args.order_by, output_names(plan))
        return QueryPlan(**{**plan.__dict__, "order_by": order_by, "descending": descending})

    def metric(self, m: Any, refs: Resolver) -> MetricPlan:
        share = bool(getattr(m, "share", None))
        each_row = bool(getattr(m, "each_row", None))
        if getattr(m, "expr", None):
            # fn beside an expr that already is that aggregate ("sum" and "sum(a * b)") says the same
            # thing twice: a capable model sent it in every relay run, and a refusal cost it a call
            said_twice = m.fn and m.expr.replace(" ", "").lower().startswith(f"{m.fn}(")
            if (m.fn and not said_twice) or m.column or getattr(m, "metric", None):
                raise ToolError("metrics: expr is the whole metric; give it without fn, column or metric")
            return build_expression(m.expr, getattr(m, "where", None), refs, share=share, each_row=each_row)
        if getattr(m, "metric", None):
            if m.fn or m.column:
                raise ToolError(f"metrics: {m.metric} is a named metric; give it alone, without fn or column")
            return self.named(m.metric, refs, share=share, where=getattr(m, "where", None))
        if not m.fn:
            raise ToolError("metrics: each needs fn (or metric, a named one)")
        return build_metric(m.fn, m.column, getattr(m, "where", None), refs, share=share, each_row=each_row)

    def named(
        self, name: str, refs: Resolver, *, share: bool = False, where: str | None = None
    ) -> MetricPlan:
        defn = self.semantics.metrics.get(name)
        if defn is None:
            raise ToolError(f"metrics: no metric {name!r}{did_you_mean(name, self.semantics.metrics)}")
        if defn.table != refs.table:
            raise ToolError(f"metrics: {name} is a metric of {defn.table}; ask with table {defn.table!r}")
        if defn.ratio:
            parts = tuple(self.named(n, refs, where=where) for n in defn.ratio)
            return MetricPlan("ratio", None, name, share=share, ratio=parts)  # type: ignore[arg-type]
        conditions = " and ".join(c for c in (defn.where, where) if c) or None
        plan = build_metric(defn.fn or "", defn.column, conditions, refs, share=share)
        return replace(plan, alias=name, share=share, defined=True)

    def filter(self, column: str, op: str, value: Any, refs: Resolver, where: str) -> FilterPlan:
        if (related := refs.existence(column, op)) is not None:
            return related
        ref = spans.resolve(refs, column, where)
        f = shape_filter(column, op, value, sql=ref.sql, table=ref.table, source=ref.column)
        refs.check_values(ref, value if isinstance(value, list) else [value] if value is not None else [])
        return day_filter(f, ref.type, self.zone)

    def _keys(self, args: Any, refs: Resolver) -> tuple[list[KeyPlan], bool]:
        keys: list[KeyPlan] = []
        time_ordered = False
        numbers: list[bool] = []
        grain = args.time_grain
        if grain:
            ref = refs.resolve(self._time_column(args.time_column, refs), "time_column")
            alias = grain if grain not in args.group_by else f"{ref.column}_{grain}"
            keys.append(
                KeyPlan(alias, time_key(grain, local(ref.sql, ref.type, self.zone)), grain, time=True)
            )
            time_ordered = True
        elif args.time_column and getattr(args, "period", None) is None:
            raise ToolError(
                "time_column says which date column time_grain buckets and period filters: add a time_grain "
                "(day, week, month, ... day_of_week) or a period"
            )
        for name in args.group_by:
            ref = spans.resolve(refs, name, "group_by", bucket=True)
            refuse_nested("group_by", name, ref.type, refs.table, refs.catalog[refs.table])
            grain, key = ref.part or (None, ref.sql)
            dated = bool(grain or TEMPORAL.match(ref.type))
            keys.append(KeyPlan(name, key, grain, time=dated))
            time_ordered = time_ordered or dated
            numbers.append(grain is None and bool(NUMERIC.match(ref.type)))
        # Groups of a number column (hour, year, passenger count) read in their natural order, as time does;
        # with a limit and no order_by the rows stay ranked by the first metric (a limit asks for the top).
        if numbers and all(numbers) and args.limit is None:
            time_ordered = True
        return keys, time_ordered

    def _time_column(self, column: str | None, refs: Resolver) -> str:
        types = self.catalog[refs.table]
        dated = [c for c, t in types.items() if TEMPORAL.match(t)]
        if refs.parts and (not dated or column in refs.parts.columns):
            dated.append(refs.parts.name)
            if column in refs.parts.columns:  # time_column "year": the date its parts make
                column = refs.parts.name
        column = (
            column or self.semantics.time_columns.get(refs.table) or (dated[0] if len(dated) == 1 else None)
        )
        if column is None:
            raise ToolError(
                f"time_grain needs a time_column; date columns of {refs.table}: {listing(dated) or 'none'}"
            )
        ref = refs.resolve(column, "time_column")
        if not TEMPORAL.match(ref.type):
            raise ToolError(
                f"time_column: {column} is {ref.type}, not a date; date columns of {refs.table}: {listing(dated) or 'none'}"
            )
        return column


_ADDITIVE = ("count", "sum", "count_distinct")


def check_shares(plan: QueryPlan) -> None:
    """A share is a group's % of a total its groups add up to (count_distinct: of the true distinct
    count); refused, with the reason, where no such total is computed."""
    shared = [m for m in plan.metrics if m.share]
    if not shared:
        return
    if not plan.keys:
        raise ToolError(
            "metrics: share is each group's % of the total, so it needs group_by (or time_grain); "
            "for the % of rows meeting a condition use fn pct with where"
        )
    if plan.compare or plan.previous:
        raise ToolError(
            "metrics: share is not computed beside a baseline (whose total would it be?); ask the shares "
            "in a call without baseline, one per period"
        )
    for m in shared:
        if _one_sum(m):  # expr "sum(price * quantity)": a sum like any other
            continue
        if m.ratio or m.parts or m.fn not in _ADDITIVE:
            raise ToolError(
                f"metrics: share of {m.alias} would be a % of a sum of {m.fn}s, which is no total; "
                f"share works with fn {', '.join(_ADDITIVE)}"
            )


def _one_sum(m: MetricPlan) -> bool:
    """An expression that is one sum or count and nothing more (``sum(a * b)``), whose groups add up."""
    return m.template == "{0}" and len(m.parts) == 1 and m.parts[0].fn in ("sum", "count")


__all__ = ["NUMERIC", "PART_GRAINS", "Planner", "build_metric"]
