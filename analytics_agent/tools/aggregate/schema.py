"""``aggregate``'s JSON Schema, what every client is told, rendered without pydantic. Pure.

The arguments model that validates a call (``aggregate.arguments``) is pydantic's; rendering its schema
needs pydantic loaded and four models built, more CPU than the MCP server's whole first ``tools/list``
answer spends otherwise (docs/performance.md). So the told schema is written here once more, with the
limits and names both share, and ``tests/tools/test_param_schema.py`` pins it equal, key for key and in
order, to the schema ``schema.clean_schema`` reads from the model, for catalogs of every shape (no table,
one, many, more than the enum holds; with and without named metrics). Tables (and named metrics) are
enums; columns are plain strings, since an enum of every column would cost its tokens in every request.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from analytics_agent.tools.aggregate.query_plan import GRAINS, METRIC_FNS
from analytics_agent.tools.args.params import enum_schema
from analytics_agent.tools.results.shaping import MAX_ROWS

MAX_TABLE_ENUM = 40
MAX_IN_VALUES = 50
MAX_METRICS, MAX_GROUP_BY, MAX_FILTERS, MAX_JOINS = 6, 8, 8, 4
"""Told in the description (``doc``), checked by the arguments model."""
TEXT_LIMITS = {"expr": 300, "where": 500, "as": 40}
"""The longest text a metric's ``expr``, ``where`` and ``as`` may be (a guard, not told; checked by the model
and by ``aggregate.quick``)."""
OPS = ("=", "!=", "<", "<=", ">", ">=", "in", "not_in", "between", "like", "is_null", "not_null")
_SCALARS = [{"type": "string"}, {"type": "number"}]
FILTER_VALUE_SCHEMA = {"anyOf": [*_SCALARS, {"items": {"anyOf": _SCALARS}, "type": "array"}]}
"""A filter's value: a scalar or a list of them. An anyOf, not a type list: Ollama and Gemini reject
``"type": [...]`` (docs/portable-schemas.md)."""
_TEXT = {"type": "string"}


def told_schema(tables: Sequence[str], metric_names: Sequence[str] = ()) -> dict[str, Any]:
    """The clean schema for a catalog of ``tables`` (sorted) and the semantic model's ``metric_names``.
    Every property the model leaves optional is told without its default or null branch, and without
    the item counts and lengths it still checks (not worth a token)."""
    table = enum_schema(tables) if 0 < len(tables) <= MAX_TABLE_ENUM else dict(_TEXT)
    named = {"metric": enum_schema(metric_names)} if metric_names else {}
    metric = {
        "fn": enum_schema(METRIC_FNS),
        "column": dict(_TEXT),
        **named,
        **{name: dict(_TEXT) for name in ("expr", "where")},
        **{name: {"type": "boolean"} for name in ("share", "each_row")},
        **{name: dict(_TEXT) for name in ("per", "as")},
    }
    condition = {"column": dict(_TEXT), "op": enum_schema(OPS), "value": copy.deepcopy(FILTER_VALUE_SCHEMA)}
    link = {name: dict(_TEXT) for name in ("column", "to")}
    properties = {
        "table": table,
        "metrics": _array({"properties": metric, "type": "object"}),
        "group_by": _array(dict(_TEXT)),
        "filters": _array({"properties": condition, "required": ["column", "op"], "type": "object"}),
        "joins": _array({"properties": link, "required": ["column", "to"], "type": "object"}),
        "time_column": dict(_TEXT),
        "time_grain": enum_schema(GRAINS),
        **{name: dict(_TEXT) for name in ("period", "baseline", "order_by")},
        "limit": {"maximum": MAX_ROWS, "type": "integer"},
    }
    return {"properties": properties, "required": ["table"], "type": "object"}


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"items": items, "type": "array"}
