"""A filter's value checked against its operator (``in`` takes a list, ``like`` a pattern, ...). Pure."""

from __future__ import annotations

from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.query_plan import FilterPlan


def shape_filter(
    column: str, op: str, value: Any, *, sql: str, table: str = "", source: str = ""
) -> FilterPlan:
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
