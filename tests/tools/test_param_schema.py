"""What a client is told is what validates: every schema rendered without pydantic (a declared tool's from
its parameter specs, ``aggregate``'s from its catalog) equals, key for key and in the same order, the schema
``clean_schema`` reads from the pydantic model that checks the same tool's arguments."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analytics_agent.tools.aggregate.tool import Aggregate
from analytics_agent.tools.args.models import arguments_model
from analytics_agent.tools.args.params import params_schema
from analytics_agent.tools.args.schema import clean_schema
from analytics_agent.tools.args.spec import ParamSpec
from analytics_agent.tools.catalog.tools import DescribeTable, ListTables
from analytics_agent.tools.semantics import MetricDef, Semantics
from analytics_agent.tools.sqlfile.parse import parse_sql_tool


def same(told: dict[str, Any], model: Any) -> None:
    expected = clean_schema(model)
    assert told == expected
    assert json.dumps(told) == json.dumps(expected)  # the same order too: the same bytes on the wire


def test_every_tool_of_the_sample_database_tells_its_models_schema(workspace):
    for tool in workspace.registry:
        same(tool.json_schema(), tool.arguments)
        assert workspace.registry.schema(tool.name) == tool.json_schema()


names = st.sampled_from(["a", "city", "top_n", "title", "type"])
texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
bounds = st.one_of(
    st.none(), st.tuples(st.integers(-5, 5), st.integers(5, 50)).map(lambda b: tuple(map(float, b)))
)


@st.composite
def param_specs(draw: st.DrawFn, name: str) -> ParamSpec:
    kind = draw(st.sampled_from(["string", "integer", "number", "date", "period", "enum", "pattern"]))
    fields: dict[str, Any] = {}
    if kind in ("integer", "number"):
        low_high = draw(bounds)
        if low_high:
            fields["minimum"], fields["maximum"] = low_high
    elif kind == "string":
        fields["max_length"] = draw(st.one_of(st.none(), st.integers(1, 300)))
    elif kind == "enum":
        fields["choices"] = tuple(draw(st.lists(texts, min_size=1, max_size=4, unique=True)))
    elif kind == "pattern":
        fields["pattern"] = draw(st.sampled_from(["^[a-z]+$", "^[A-Z]{2}-[0-9]{3,5}$"]))
    spec = ParamSpec(name, kind, draw(st.one_of(st.just(""), texts)), **fields)  # type: ignore[arg-type]
    default = draw(st.sampled_from(["required", "null", "value"]))
    if default == "null":
        return ParamSpec(**{**spec.__dict__, "default": None})
    if default == "value":
        value = {
            "integer": st.integers(-5, 50),
            "number": st.floats(-5, 50),
            "date": st.just("2026-10-24"),
            "period": st.just("2026-10-01..2026-10-31"),
            "enum": st.sampled_from(spec.choices or ("x",)),
        }.get(kind, texts)
        return ParamSpec(**{**spec.__dict__, "default": draw(value)})
    return spec


@st.composite
def tool_params(draw: st.DrawFn) -> tuple[ParamSpec, ...]:
    chosen = draw(st.lists(names, max_size=4, unique=True))
    return tuple(draw(param_specs(name)) for name in chosen)


@given(tool_params(), st.lists(texts, min_size=1, max_size=3, unique=True), st.booleans())
def test_any_declared_parameters_are_told_as_their_model_says(params, resolved, resolve):
    # choices read from the data (enum(from TABLE.COLUMN)) replace the declared ones
    enums = [p.name for p in params if p.type == "enum"]
    choices = {enums[0]: tuple(resolved)} if resolve and enums else {}
    same(params_schema(params, choices), arguments_model("probe", params, choices))


def test_user_tool_headers_of_every_kind_are_told_as_their_model_says():
    spec = parse_sql_tool(
        "-- name: probe\n-- description: Every kind of parameter.\n"
        "-- param s: string | Text.\n-- param s5: string(5) = 'ab' | Short text.\n"
        "-- param i: integer(1, 50) = 10 | How many.\n-- param j: integer = null | Any whole number.\n"
        "-- param n: number(0, 1) = 0.5 | A share.\n-- param d: date = 2026-10-24 | A day.\n"
        "-- param p: period | Days.\n-- param q: period = null | More days.\n"
        "-- param e: enum(a, b) = b | One of two.\n-- param one: enum(only) | A single choice.\n"
        "-- param f: enum(from t.c) = null | From the data.\n-- param r: pattern(^[A-Z]{2}$) | A code.\n"
        "SELECT $s, $s5, $i, $j, $n, $d, $p_start, $p_end, $q_start, $q_end, $e, $one, $f, $r"
    )
    for choices in ({"f": ("x",)}, {"f": ("x", "y", "z")}):  # resolved when the tool loads
        same(params_schema(spec.params, choices), arguments_model("probe", spec.params, choices))


@pytest.mark.parametrize("tables", [[], ["orders"], ["a", "b", "c"]])
def test_catalog_tools_tell_their_models_schema(tables):
    same(DescribeTable(tables).json_schema(), DescribeTable(tables).arguments)
    same(ListTables().json_schema(), ListTables().arguments)


@pytest.mark.parametrize("count", [0, 1, 3, 40, 41])
@pytest.mark.parametrize("metrics", [(), ("revenue",), ("revenue", "avg_order_value")])
def test_aggregate_tells_its_models_schema_for_every_shape_of_catalog(count, metrics):
    catalog = {f"t{i:02d}": {"id": "INTEGER"} for i in reversed(range(count))}
    semantics = Semantics(metrics={m: MetricDef(name=m, table="t00", line=1, fn="count") for m in metrics})
    tool = Aggregate(catalog, semantics=semantics)
    same(tool.json_schema(), tool.arguments)
