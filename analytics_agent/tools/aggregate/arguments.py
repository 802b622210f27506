"""``aggregate``'s arguments model: what validates a call. Its JSON Schema, what every client is told, is
rendered without pydantic by ``aggregate.schema``; ``tests/tools/test_param_schema.py`` pins the two equal
for catalogs of every shape.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, WithJsonSchema, create_model

from analytics_agent.tools.aggregate.query_plan import GRAINS, METRIC_FNS
from analytics_agent.tools.aggregate.refs import Catalog
from analytics_agent.tools.aggregate.schema import (
    FILTER_VALUE_SCHEMA,
    MAX_FILTERS,
    MAX_GROUP_BY,
    MAX_IN_VALUES,
    MAX_JOINS,
    MAX_METRICS,
    MAX_TABLE_ENUM,
    OPS,
    TEXT_LIMITS,
)
from analytics_agent.tools.args.models import Baseline, Period, ToolArguments, one_of
from analytics_agent.tools.results.shaping import MAX_ROWS

Scalar = str | int | float
# Told to the model compactly (JSON "number" covers integers); validated as the precise Python union.
FilterValue = Annotated[
    Scalar | Annotated[list[Scalar], Field(max_length=MAX_IN_VALUES)], WithJsonSchema(FILTER_VALUE_SCHEMA)
]


def arguments_for(catalog: Catalog, metric_names: tuple[str, ...] = ()) -> type[ToolArguments]:
    """The arguments model. Tables (and named metrics) are enums; columns are plain strings, since an
    enum of every column would cost its tokens in every request: each name is checked against the chosen
    table at run time, with "did you mean" (describe_table lists them)."""
    tables = sorted(catalog)
    table_t: Any = one_of(tuple(tables)) if 0 < len(tables) <= MAX_TABLE_ENUM else str
    named: dict[str, Any] = {}
    if metric_names:
        named["metric"] = (one_of(metric_names) | None, _lean_field(None))
    metric: Any = create_model(
        "Metric",
        __base__=ToolArguments,
        fn=(one_of(METRIC_FNS) | None, _lean_field(None)),
        column=(str | None, _lean_field(None)),
        **named,
        expr=(str | None, _lean_field(None, max_length=TEXT_LIMITS["expr"])),
        where=(str | None, _lean_field(None, max_length=TEXT_LIMITS["where"])),
        share=(bool | None, _lean_field(None)),
        each_row=(bool | None, _lean_field(None)),
        per=(str | None, _lean_field(None)),
        as_=(str | None, _lean_field(None, alias="as", max_length=TEXT_LIMITS["as"])),
    )
    condition: Any = create_model(
        "Filter",
        __base__=ToolArguments,
        column=(str, ...),
        op=(one_of(OPS), ...),
        value=(FilterValue | None, _lean_field(None)),
    )
    link: Any = create_model(
        "Join",
        __base__=ToolArguments,
        column=(str, ...),
        to=(str, ...),
    )
    return create_model(
        "AggregateArguments",
        __base__=ToolArguments,
        table=(table_t, ...),
        metrics=(
            list[metric],
            _lean_field(lambda: [metric(fn="count")], max_length=MAX_METRICS),
        ),
        group_by=(list[str], _lean_field(list, max_length=MAX_GROUP_BY)),
        filters=(list[condition], _lean_field(list, max_length=MAX_FILTERS)),
        joins=(list[link], _lean_field(list, max_length=MAX_JOINS)),
        time_column=(str | None, _lean_field(None)),
        time_grain=(one_of(GRAINS) | None, _lean_field(None)),
        period=(Period | None, _lean_field(None)),
        baseline=(Baseline | None, _lean_field(None)),
        order_by=(str | None, _lean_field(None)),
        limit=(Annotated[int, Field(strict=True, ge=1, le=MAX_ROWS)] | None, _lean_field(None)),
    )


def _lean_field(default: Any, **kwargs: Any) -> Any:
    """A field whose JSON Schema says only what a model needs: no null branch or default (leaving it out
    means the default; strict mode adds the null branch back), no item counts (still validated)."""
    if callable(default):
        return Field(default_factory=default, json_schema_extra=_lean, **kwargs)
    return Field(default, json_schema_extra=_lean, **kwargs)


def _lean(schema: dict[str, Any]) -> None:
    branches = [b for b in schema.pop("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1:
        schema.update(branches[0])
    elif branches:
        schema["anyOf"] = branches
    for key in ("default", "minItems", "maxItems", "maxLength", "minimum"):  # validated, not worth a token
        schema.pop(key, None)
