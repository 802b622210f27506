"""Turn checked ``aggregate`` arguments into a ``QueryPlan``: every name resolved against the catalog (or
the semantic model), every value's shape checked. A ``ToolError`` names what to fix, with the real names.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, did_you_mean, listing
from analytics_agent.tools.aggregate.conditions import OtherColumn, parse_condition
from analytics_agent.tools.aggregate.refs import Catalog, Resolver
from analytics_agent.tools.aggregate.sql import (
    NUMERIC_FNS,
    PART_GRAINS,
    TRUNC_GRAINS,
    ColumnOperand,
    FilterPlan,
    KeyPlan,
    MetricPlan,
    QueryPlan,
    metric_alias,
    output_names,
    time_key,
)
from analytics_agent.tools.aggregate.time import TEMPORAL, day_filter, day_range, local
from analytics_agent.tools.arguments import PREVIOUS
from analytics_agent.tools.date_parts import PartsDate
from analytics_agent.tools.semantics import Semantics
from analytics_agent.tools.value_kinds import COUNT_ONLY_FNS, kind_family, refuse_nested

NUMERIC = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT|FLOAT|DOUBLE|REAL|DECIMAL)", re.I)


@dataclass
class Planner:
    catalog: Catalog
    semantics: Semantics = field(default_factory=Semantics)
    zone: str = "UTC"

    def resolver(self, table: str) -> Resolver:
        return Resolver(
            table,
            self.catalog,
            self.semantics.relationships,
            self.semantics.dimensions.get(table, {}),
            self.zone,
        )

    def plan(self, args: Any) -> QueryPlan:
        table = args.table
        if table not in self.catalog:
            raise ToolError(
                f"no table {clipped(repr(table))}{did_you_mean(table, self.catalog)}; tables: {listing(self.catalog)}"
            )
        refs = self.resolver(table)
        metrics = _per(
            _unique(_named_outputs([self.metric(m, refs) for m in args.metrics], args, refs)), args.metrics
        )
        keys, time_ordered = self._keys(args, refs)
        outputs_so_far = {m.alias for m in metrics}
        filters, having = [], []
        for f in args.filters:
            if f.column in outputs_so_far and f.column not in self.catalog[table]:
                having.append(_shape(f.column, f.op, f.value, sql=""))
            else:
                filters.append(self.filter(f.column, f.op, f.value, refs, "filters"))
        keep_from: list[dt.datetime] = []
        compare = self._periods(args, refs, filters, keep_from)
        plan = QueryPlan(
            table=table, metrics=metrics, keys=keys, filters=filters, having=having, joins=refs.joins,
            compare=compare, previous=getattr(args, "baseline", None) == PREVIOUS, limit=args.limit,
            keep_from=keep_from[0] if keep_from else None,
            time_ordered=time_ordered,
        )  # fmt: skip
        if not keys and any(m.share for m in metrics):
            raise ToolError(
                "metrics: share is each group's % of the total, so it needs group_by (or time_grain); "
                "for the % of rows meeting a condition use fn pct with where"
            )
        order_by, descending = _order_by(args.order_by, output_names(plan))
        return QueryPlan(**{**plan.__dict__, "order_by": order_by, "descending": descending})

    def metric(self, m: Any, refs: Resolver) -> MetricPlan:
        share = bool(getattr(m, "share", None))
        if getattr(m, "expr", None):
            if m.fn or m.column or getattr(m, "metric", None):
                raise ToolError("metrics: expr is the whole metric; give it without fn, column or metric")
            return build_expression(m.expr, getattr(m, "where", None), refs, share=share)
        if getattr(m, "metric", None):
            if m.fn or m.column:
                raise ToolError(f"metrics: {m.metric} is a named metric; give it alone, without fn or column")
            return self.named(m.metric, refs, share=share, where=getattr(m, "where", None))
        if not m.fn:
            raise ToolError("metrics: each needs fn (or metric, a named one)")
        return build_metric(m.fn, m.column, getattr(m, "where", None), refs, share=share)

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
        return MetricPlan(plan.fn, plan.column, name, plan.sql, plan.where, share, defined=True)

    def filter(self, column: str, op: str, value: Any, refs: Resolver, where: str) -> FilterPlan:
        ref = refs.resolve(column, where)
        f = _shape(column, op, value, sql=ref.sql, table=ref.table, source=ref.column)
        refs.check_values(ref, value if isinstance(value, list) else [value] if value is not None else [])
        return day_filter(f, ref.type, self.zone)

    def _keys(self, args: Any, refs: Resolver) -> tuple[list[KeyPlan], bool]:
        keys: list[KeyPlan] = []
        time_ordered = False
        grain = args.time_grain
        if grain:
            ref = refs.resolve(self._time_column(args.time_column, refs), "time_column")
            alias = grain if grain not in args.group_by else f"{ref.column}_{grain}"
            keys.append(KeyPlan(alias, time_key(grain, local(ref.sql, ref.type, self.zone)), grain))
            time_ordered = True
        elif args.time_column and getattr(args, "period", None) is None:
            raise ToolError(
                "time_column says which date column time_grain buckets and period filters: add a time_grain "
                "(day, week, month, ... day_of_week) or a period"
            )
        for name in args.group_by:
            ref = refs.resolve(name, "group_by")
            refuse_nested("group_by", name, ref.type, refs.table, refs.catalog[refs.table])
            grain, key = ref.part or (None, ref.sql)
            keys.append(KeyPlan(name, key, grain))
            time_ordered = time_ordered or bool(grain or TEMPORAL.match(ref.type))
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

    def _periods(
        self, args: Any, refs: Resolver, filters: list[FilterPlan], keep_from: list[dt.datetime]
    ) -> tuple[FilterPlan, FilterPlan] | None:
        period, baseline = getattr(args, "period", None), getattr(args, "baseline", None)
        if baseline == PREVIOUS:
            if not args.time_grain:
                raise ToolError(
                    "baseline 'previous' compares each time bucket with the one before: add a time_grain"
                )
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
        column = self._time_column(args.time_column, refs)
        ref = refs.resolve(column, "time_column")
        if refs.parts and column == refs.parts.name:
            _whole_parts(refs.parts, [p for p in (period, baseline) if p is not None])
        if getattr(args, "baseline", None) == PREVIOUS and args.time_grain in TRUNC_GRAINS:
            # the first bucket of the period is compared with the one before it, which lies outside the
            # period: read one bucket more, and show only the period's own
            first = bucket_start(period[0], args.time_grain)
            period = (bucket_start(first - dt.timedelta(days=1), args.time_grain), period[1])
            keep_from.append(dt.datetime.combine(first, dt.time()))
        ranges = [
            FilterPlan(column, "range", day_range(p[0], p[1], ref.type, self.zone), sql=ref.sql)
            for p in (period, baseline) if p is not None
        ]  # fmt: skip
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


def _whole_parts(parts: PartsDate, periods: Sequence[tuple[Any, Any]]) -> None:
    """A date made of years (or months) cannot take part of one: 2015-01-15..2015-03-31 would count all
    of January. Refused, with the whole ones to ask for."""
    for first, last in periods:
        after = last + dt.timedelta(days=1)
        whole = {
            "year": first.month == first.day == 1 and after.month == after.day == 1,
            "month": first.day == 1 and after.day == 1,
        }.get(parts.grain, True)
        if not whole:
            unit = "years" if parts.grain == "year" else "months"
            raise ToolError(
                f"period: {parts.name} comes from {', '.join(parts.columns)}, so a period holds whole {unit} "
                f"(e.g. {first.year}-01-01..{last.year}-12-31)"
                if parts.grain == "year"
                else f"period: {parts.name} comes from {', '.join(parts.columns)}, so a period holds whole {unit} "
                f"(e.g. {first:%Y-%m}-01..{last:%Y-%m}-<last day>)"
            )


def build_metric(
    fn: str, column: str | None, where: str | None, refs: Resolver, *, share: bool = False
) -> MetricPlan:
    """One aggregate over a column of the table (or a related one), with its own condition if any."""
    conditions = tuple(
        _condition_term(t, refs) for t in (parse_condition(where, where="metrics.where") if where else [])
    )
    if fn == "pct" and not conditions:
        raise ToolError('metrics: pct needs where, the condition to count, e.g. "arr_delay > 15"')
    if column is None:
        if fn not in ("count", "pct"):
            raise ToolError(f"metrics: {fn} needs a column")
        return MetricPlan(fn, None, _conditional(fn, None, conditions), None, conditions, share)
    if column not in refs.column_names and _EXPRESSION_MARK.search(column):  # "a - b", "name, year"
        if fn == "pct":
            raise ToolError("metrics: pct counts rows meeting where; give it a plain column or none")
        plan = build_expression(f"{fn}({column})", where, refs, share=share)
        leaf = plan.parts[0]
        return replace(leaf, alias=_conditional(fn, column, leaf.where), share=share)
    ref = refs.resolve(column, "metrics")
    if fn not in COUNT_ONLY_FNS:
        refuse_nested(f"metrics: {fn}", column, ref.type, refs.table, refs.catalog[refs.table])
    if fn in NUMERIC_FNS and not NUMERIC.match(ref.type):
        numeric = [c for c, t in refs.catalog[refs.table].items() if NUMERIC.match(t)]
        raise ToolError(
            f"metrics: {fn} needs a numeric column; {column} is {ref.type}; "
            f"numeric columns of {refs.table}: {listing(numeric) or 'none'}"
        )
    return MetricPlan(fn, column, _conditional(fn, column, conditions), ref.sql, conditions, share)


_EXPRESSION_MARK = re.compile(r"[-+*/(),]")
_OUTPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def build_expression(text: str, where: str | None, refs: Resolver, *, share: bool = False) -> MetricPlan:
    """A metric from arithmetic over aggregates (``sum(a * b) / sum(b)``): each aggregate becomes a part
    computed like any metric (with the metric's own condition), the arithmetic joins them."""
    from analytics_agent.tools.aggregate.expressions import Col, columns, parse_expression, render
    from analytics_agent.tools.aggregate.sql import AGGREGATES

    tree = parse_expression(text, tuple(AGGREGATES), where="metrics.expr")
    parts: list[MetricPlan] = []

    def part(node: Any) -> str:
        if isinstance(node, Col):
            raise ToolError(
                f"metrics.expr: {node.name} must sit inside an aggregate, e.g. sum({node.name}) or avg({node.name})"
            )
        parts.append(_aggregate_part(node, where, refs))
        return "{" + str(len(parts) - 1) + "}"

    template = render(tree, part)
    if not parts:
        raise ToolError("metrics.expr: no aggregate in it; e.g. sum(price * quantity) / sum(quantity)")
    for name in columns(tree):
        refs.resolve(name, "metrics.expr")
    return MetricPlan(
        "expr", text, "expr", share=share, parts=tuple(parts), template=template.replace("{{", "{")
    )


def _aggregate_part(node: Any, where: str | None, refs: Resolver) -> MetricPlan:
    """One aggregate of an expression: over a column (checked like any metric's), over arithmetic of
    numeric columns, or count_distinct over several columns (a storm is a name within a year)."""
    from analytics_agent.tools.aggregate.expressions import Agg, Col, columns, render

    if not isinstance(node, Agg):
        raise ToolError("metrics.expr: only aggregates, columns inside them, numbers and + - * /")
    if any(isinstance(a, Agg) or _has_agg(a) for a in node.args):
        raise ToolError(f"metrics.expr: {node.fn}(...) cannot hold another aggregate")
    if not node.args:
        if node.fn != "count":
            raise ToolError(f"metrics.expr: {node.fn} needs a column, e.g. {node.fn}(amount)")
        return build_metric("count", None, where, refs)
    if len(node.args) == 1 and isinstance(node.args[0], Col):
        return build_metric(node.fn, node.args[0].name, where, refs)
    conditions = tuple(
        _condition_term(t, refs) for t in (parse_condition(where, where="metrics.where") if where else [])
    )
    label = ", ".join(_text(a) for a in node.args)
    if len(node.args) > 1:
        if node.fn != "count_distinct" or not all(isinstance(a, Col) for a in node.args):
            raise ToolError(
                "metrics: several columns go only in count_distinct(a, b): the distinct combinations"
            )
        cols = [refs.resolve(a.name, "metrics").sql for a in node.args if isinstance(a, Col)]
        present = " AND ".join(f"{c} IS NOT NULL" for c in cols)
        sql = f"CASE WHEN {present} THEN row({', '.join(cols)}) END"
        return MetricPlan(node.fn, label, metric_alias(node.fn, label), sql, conditions)
    for name in columns(node.args[0]):
        ref = refs.resolve(name, "metrics")
        if not NUMERIC.match(ref.type):
            raise ToolError(f"metrics: arithmetic needs numeric columns; {name} is {ref.type}")

    def column_sql(leaf: Any) -> str:
        if not isinstance(leaf, Col):  # an aggregate inside was refused above
            raise ToolError("metrics: only columns, numbers and + - * / inside an aggregate")
        return refs.resolve(leaf.name, "metrics").sql

    sql = render(node.args[0], column_sql)
    return MetricPlan(node.fn, label, metric_alias(node.fn, label), sql, conditions)


def _has_agg(node: Any) -> bool:
    from analytics_agent.tools.aggregate.expressions import Agg, Bin, Neg

    if isinstance(node, Agg):
        return True
    if isinstance(node, Neg):
        return _has_agg(node.arg)
    if isinstance(node, Bin):
        return _has_agg(node.left) or _has_agg(node.right)
    return False


def _text(node: Any) -> str:
    """An expression written back compactly, for a default output name."""
    from analytics_agent.tools.aggregate.expressions import Bin, Col, Neg, Num

    if isinstance(node, Col):
        return node.name
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Neg):
        return f"-{_text(node.arg)}"
    if isinstance(node, Bin):
        return f"{_text(node.left)} {node.op} {_text(node.right)}"
    return str(node.fn)


def _named_outputs(metrics: list[MetricPlan], args: Any, refs: Resolver) -> list[MetricPlan]:
    """Each metric's ``as``: a plain name, unique, not a column of the table (a filter on it must mean
    the output)."""
    result, taken = [], {*args.group_by}
    for m, asked in zip(metrics, args.metrics, strict=True):
        name = getattr(asked, "as_", None)
        if not name or getattr(asked, "per", None):
            result.append(m)
            continue
        if not _OUTPUT_NAME.match(name):
            raise ToolError(f"metrics: as {clipped(repr(name))} must be a plain name (letters, digits, _)")
        if name in taken or name in refs.column_names:
            raise ToolError(f"metrics: as {name!r} is already a column or output name; choose another")
        taken.add(name)
        result.append(replace(m, alias=name))
    return result


def _condition_term(t: Any, refs: Resolver) -> FilterPlan:
    ref = refs.resolve(t.column, "metrics.where")
    if isinstance(t.value, OtherColumn):
        return _column_comparison(t, ref, refs)
    refs.check_values(ref, t.value if isinstance(t.value, list) else [t.value] if t.value is not None else [])
    return _shape(t.column, t.op, t.value, sql=ref.sql, table=ref.table, source=ref.column)


def _column_comparison(t: Any, ref: Any, refs: Resolver) -> FilterPlan:
    """``dec > jan``: two columns of the same row, of comparable kinds (numbers, text, or dates)."""
    try:
        other = refs.resolve(t.value.name, "metrics.where")
    except ToolError as exc:
        raise ToolError(
            f"{exc}; a name right of {t.op!r} is a column: write a text value in single quotes "
            f"({t.column} {t.op} '{clipped(t.value.name)}')"
        ) from None
    if kind_family(ref.type) != kind_family(other.type):
        raise ToolError(
            f"metrics.where: cannot compare {t.column} ({ref.type}) with {t.value.name} ({other.type}); "
            "compare numbers with numbers, text with text, dates with dates"
        )
    return FilterPlan(t.column, t.op, ColumnOperand(other.sql), sql=ref.sql)


def _per(metrics: list[MetricPlan], asked: Sequence[Any]) -> list[MetricPlan]:
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
        alias = getattr(a, "as_", None) or f"{m.alias}_per_{other}"
        result.append(MetricPlan("ratio", None, alias, share=m.share, ratio=(numerator, denominator)))
    return result


def _conditional(fn: str, column: str | None, conditions: Sequence[FilterPlan]) -> str:
    base = metric_alias(fn, column)
    if not conditions or fn == "pct":
        return base if not conditions else f"pct_{conditions[0].column}"
    return f"{base}_if_{conditions[0].column}"


def _unique(metrics: list[MetricPlan]) -> list[MetricPlan]:
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


def _shape(column: str, op: str, value: Any, *, sql: str, table: str = "", source: str = "") -> FilterPlan:
    """Check a filter's value fits its operator."""
    if op in ("is_null", "not_null"):
        return FilterPlan(column, op, sql=sql, table=table, source=source)
    if op in ("in", "not_in") and not (isinstance(value, list) and value):
        raise ToolError(f'filters: {column} {op} needs a non-empty list value, e.g. ["a", "b"]')
    if op == "between" and not (isinstance(value, list) and len(value) == 2):
        raise ToolError(f"filters: {column} between needs a list of two values [low, high]")
    if op not in ("in", "not_in", "between") and (value is None or isinstance(value, list)):
        raise ToolError(f"filters: {column} {op} needs one value (not a list)")
    if op == "like" and not isinstance(value, str):
        raise ToolError('filters: like needs a text pattern with % wildcards, e.g. "%pro%"')
    return FilterPlan(column, op, value, sql=sql, table=table, source=source)


def _order_by(text: str | None, outputs: list[str]) -> tuple[str | None, bool]:
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


__all__ = ["PART_GRAINS", "Planner", "build_metric"]
