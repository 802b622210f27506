"""One metric of ``aggregate`` planned: an aggregate over a checked column (or a related one) with its own
condition, or arithmetic over aggregates (``sum(a * b) / sum(b)``). Pure: names are resolved through the
``Resolver``, whose value checks are its only reads."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.suggest import clipped, listing
from analytics_agent.tools.aggregate import spans
from analytics_agent.tools.aggregate.conditions import OtherColumn, parse_condition
from analytics_agent.tools.aggregate.filters import shape_filter
from analytics_agent.tools.aggregate.joins.fanout import fans_out, row_grain
from analytics_agent.tools.aggregate.query_plan import (
    NUMERIC_FNS,
    ColumnOperand,
    FilterPlan,
    MetricPlan,
    metric_alias,
    span_text,
)
from analytics_agent.tools.aggregate.refs import Resolver
from analytics_agent.tools.aggregate.time import TEMPORAL
from analytics_agent.tools.results.value_kinds import COUNT_ONLY_FNS, kind_family, refuse_nested

NUMERIC = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT|FLOAT|DOUBLE|REAL|DECIMAL)", re.I)


def build_metric(
    fn: str,
    column: str | None,
    where: str | None,
    refs: Resolver,
    *,
    share: bool = False,
    each_row: bool = False,
) -> MetricPlan:
    """One aggregate over a column of the table (or a related one), with its own condition if any.
    A related table's column counts each of that table's rows once per group, unless ``each_row``: once
    per row of the queried table (a lookup: the seats of each flight's plane)."""
    conditions = tuple(
        condition_term(t, refs) for t in (parse_condition(where, where="metrics.where") if where else [])
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
        plan = build_expression(f"{fn}({column})", where, refs, share=share, each_row=each_row)
        leaf = plan.parts[0]
        return replace(leaf, alias=_conditional(fn, column, leaf.where), share=share)
    ref = refs.resolve(column, "metrics")
    if fn not in COUNT_ONLY_FNS:
        refuse_nested(f"metrics: {fn}", column, ref.type, refs.table, refs.catalog[refs.table])
    if fn in NUMERIC_FNS and not NUMERIC.match(ref.type):
        numeric = [c for c, t in refs.catalog[refs.table].items() if NUMERIC.match(t)]
        # a yes/no flag (Billable Yes/No loads as BOOLEAN): its share or count of true is a pct or a count
        flag = (
            f'; for the share of rows where it is true: {{"fn": "pct", "where": "{column} = true"}}, '
            f'for their number: {{"fn": "count", "where": "{column} = true"}}'
            if ref.type == "BOOLEAN"
            else ""
        )
        raise ToolError(
            f"metrics: {fn} needs a numeric column; {column} is {ref.type}; "
            f"numeric columns of {refs.table}: {listing(numeric) or 'none'}{flag}"
        )
    grain = ref.grain if fans_out(fn, ref.grain) and not each_row else ""
    return MetricPlan(
        fn, column, _conditional(fn, column, conditions), ref.sql, conditions, share, grain=grain
    )


_EXPRESSION_MARK = re.compile(r"[-+*/(),]")


def build_expression(
    text: str, where: str | None, refs: Resolver, *, share: bool = False, each_row: bool = False
) -> MetricPlan:
    """A metric from arithmetic over aggregates (``sum(a * b) / sum(b)``): each aggregate becomes a part
    computed like any metric (with the metric's own condition), the arithmetic joins them."""
    from analytics_agent.tools.aggregate.expressions import Col, columns, parse_expression, render
    from analytics_agent.tools.aggregate.query_plan import AGGREGATES

    tree = parse_expression(text, tuple(AGGREGATES), where="metrics.expr")
    parts: list[MetricPlan] = []

    def part(node: Any) -> str:
        if isinstance(node, Col):
            raise ToolError(
                f"metrics.expr: {node.name} must sit inside an aggregate, e.g. sum({node.name}) or avg({node.name})"
            )
        parts.append(_aggregate_part(node, where, refs, each_row))
        return "{" + str(len(parts) - 1) + "}"

    template = render(tree, part)
    if not parts:
        raise ToolError("metrics.expr: no aggregate in it; e.g. sum(price * quantity) / sum(quantity)")
    for name in columns(tree):
        refs.resolve(name, "metrics.expr")
    return MetricPlan(
        "expr", text, "expr", share=share, parts=tuple(parts), template=template.replace("{{", "{")
    )


def _aggregate_part(node: Any, where: str | None, refs: Resolver, each_row: bool) -> MetricPlan:
    """One aggregate of an expression: over a column (checked like any metric's), over arithmetic of
    numeric columns, or count_distinct over several columns (a storm is a name within a year)."""
    from analytics_agent.tools.aggregate.expressions import Agg, Col, Span, columns, render

    if not isinstance(node, Agg):
        raise ToolError("metrics.expr: only aggregates, columns inside them, numbers and + - * /")
    if any(isinstance(a, Agg) or _has_agg(a) for a in node.args):
        raise ToolError(f"metrics.expr: {node.fn}(...) cannot hold another aggregate")
    if not node.args:
        if node.fn != "count":
            raise ToolError(f"metrics.expr: {node.fn} needs a column, e.g. {node.fn}(amount)")
        return build_metric("count", None, where, refs)
    if len(node.args) == 1 and isinstance(node.args[0], Col):
        return build_metric(node.fn, node.args[0].name, where, refs, each_row=each_row)
    conditions = tuple(
        condition_term(t, refs) for t in (parse_condition(where, where="metrics.where") if where else [])
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
    arg = _as_spans(node.args[0], refs)
    names = columns(arg)
    used = [refs.resolve(name, "metrics") for name in names]
    plain = set(_plain_columns(arg))
    for name, ref in zip(names, used, strict=True):
        if name in plain and not NUMERIC.match(ref.type):
            raise ToolError(
                f"metrics: arithmetic needs numeric columns; {name} is {ref.type} "
                "(time between two dates: days(a - b), hours, months, years)"
            )
    grain = "" if each_row else row_grain([(ref.grain, ref.via) for ref in used])

    def column_sql(leaf: Any) -> str:
        if isinstance(leaf, Span):
            return spans.resolve(refs, _text(leaf), "metrics").sql
        if not isinstance(leaf, Col):  # an aggregate inside was refused above
            raise ToolError("metrics: only columns, numbers and + - * / inside an aggregate")
        return refs.resolve(leaf.name, "metrics").sql

    sql = render(arg, column_sql)
    grain = grain if fans_out(node.fn, grain) else ""
    return MetricPlan(node.fn, label, metric_alias(node.fn, label), sql, conditions, grain=grain)


def _as_spans(node: Any, refs: Resolver) -> Any:
    """``ship_date - order_date`` of two date columns is the days between them (a ``Span``)."""
    from analytics_agent.tools.aggregate.expressions import Bin, Col, Neg, Span

    if isinstance(node, Neg):
        return Neg(_as_spans(node.arg, refs))
    if not isinstance(node, Bin):
        return node
    if node.op == "-" and isinstance(node.left, Col) and isinstance(node.right, Col):
        kinds = [refs.resolve(c.name, "metrics").type for c in (node.left, node.right)]
        if all(TEMPORAL.match(k) for k in kinds):
            return Span("days", node.left, node.right)
    return Bin(node.op, _as_spans(node.left, refs), _as_spans(node.right, refs))


def _plain_columns(node: Any) -> list[str]:
    """The columns arithmetic reads as numbers (not the dates inside a span)."""
    from analytics_agent.tools.aggregate.expressions import Bin, Col, Neg

    if isinstance(node, Col):
        return [node.name]
    if isinstance(node, Neg):
        return _plain_columns(node.arg)
    if isinstance(node, Bin):
        return _plain_columns(node.left) + _plain_columns(node.right)
    return []


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
    from analytics_agent.tools.aggregate.expressions import Bin, Col, Neg, Num, Span

    if isinstance(node, Col):
        return node.name
    if isinstance(node, Span):
        return span_text(node.unit, node.later.name, node.earlier.name)
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Neg):
        return f"-{_text(node.arg)}"
    if isinstance(node, Bin):
        return f"{_text(node.left)} {node.op} {_text(node.right)}"
    return str(node.fn)


def condition_term(t: Any, refs: Resolver) -> FilterPlan:
    if (related := refs.existence(t.column, t.op)) is not None:  # "orders is null": with no order
        return related
    ref = spans.resolve(refs, t.column, "metrics.where")
    if isinstance(t.value, OtherColumn):
        return _column_comparison(t, ref, refs)
    refs.check_values(ref, t.value if isinstance(t.value, list) else [t.value] if t.value is not None else [])
    return shape_filter(t.column, t.op, t.value, sql=ref.sql, table=ref.table, source=ref.column)


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


def _conditional(fn: str, column: str | None, conditions: Sequence[FilterPlan]) -> str:
    base = metric_alias(fn, column)
    if not conditions or fn == "pct":
        return base if not conditions else f"pct_{conditions[0].column}"
    return f"{base}_if_{conditions[0].column}"
