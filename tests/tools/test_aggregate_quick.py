"""``aggregate``'s quick argument check (``aggregate.quick``) only accepts what its pydantic model accepts,
with the same values and the same JSON: whatever it settles, the model would have settled the same way;
the rest goes to the model, which words every error. Its keys, enums and limits are read here from the
model itself, so a rule added to the model alone shows up as a difference."""

from __future__ import annotations

import json
import typing
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from analytics_agent.errors import ArgumentError
from analytics_agent.tools.aggregate.arguments import arguments_for
from analytics_agent.tools.aggregate.query_plan import GRAINS, METRIC_FNS
from analytics_agent.tools.aggregate.quick import LIST_LIMITS, TOP_KEYS, quick_arguments
from analytics_agent.tools.aggregate.schema import MAX_IN_VALUES, MAX_TABLE_ENUM, OPS, TEXT_LIMITS
from analytics_agent.tools.aggregate.tool import Aggregate
from analytics_agent.tools.args.models import validate_arguments
from analytics_agent.tools.results.shaping import MAX_ROWS
from analytics_agent.tools.semantics import MetricDef, Semantics
from tests.normalized_db import build_normalized_db

SMALL = {"orders": {"status": "VARCHAR", "freight": "DOUBLE"}, "customers": {"city": "VARCHAR"}}
BIG = {f"t{i:02}": {"a": "INTEGER"} for i in range(MAX_TABLE_ENUM + 1)}  # too many for an enum: any text
CATALOGS = {"small": SMALL, "big": BIG, "none": {}}
NAMED = ("revenue", "order_count")


@cache
def model(catalog: str, named: bool) -> Any:
    return arguments_for(CATALOGS[catalog], NAMED if named else ())


def _fields(m: Any) -> dict[str, Any]:
    return {f.alias or name: f for name, f in m.model_fields.items()}


def _item_model(m: Any, name: str) -> Any:
    return typing.get_args(m.model_fields[name].annotation)[0]


def _max_len(f: Any) -> int | None:
    return next((c.max_length for c in f.metadata if hasattr(c, "max_length")), None)


def _literal(annotation: Any) -> tuple[Any, ...]:
    """The values of a ``Literal`` inside an annotation (``Literal[...] | None`` included)."""
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    return tuple(v for a in typing.get_args(annotation) for v in _literal(a))


# ----- the quick check's rules, read from the model --------------------------------------------------


def test_the_quick_check_knows_the_models_keys_and_limits() -> None:
    m = model("small", True)
    top = _fields(m)
    assert set(top) == TOP_KEYS
    assert {name: _max_len(top[name]) for name in LIST_LIMITS} == LIST_LIMITS
    metric, condition = _fields(_item_model(m, "metrics")), _fields(_item_model(m, "filters"))
    assert {k: _max_len(f) for k, f in metric.items() if _max_len(f)} == TEXT_LIMITS
    assert _literal(metric["fn"].annotation) == METRIC_FNS
    assert _literal(metric["metric"].annotation) == NAMED
    assert _literal(condition["op"].annotation) == OPS
    assert _literal(top["time_grain"].annotation) == GRAINS
    assert _literal(top["table"].annotation) == tuple(sorted(SMALL))
    assert _literal(model("big", False).model_fields["table"].annotation) == ()  # any text
    limit = typing.get_args(top["limit"].annotation)[0]
    bounds = {type(c).__name__: c for c in typing.get_args(limit)[1].metadata}
    assert (bounds["Ge"].ge, bounds["Le"].le, bounds["Strict"].strict) == (1, MAX_ROWS, True)


# ----- generated arguments: the quick check settles only what the model settles alike ------------------

_texts = st.one_of(
    st.sampled_from(["orders", "customers", "Orders", "status", "freight", "", " status", "\ud800", "t07"]),
    st.text(max_size=8),
)
_odd = st.one_of(st.none(), st.booleans(), st.integers(-2, 60), st.floats(allow_nan=True), st.just([]))
_near = st.one_of(_texts, _odd)


def _long(limit: int) -> st.SearchStrategy[str]:
    return st.integers(limit - 2, limit + 1).map(lambda n: "x" * n)


_metric = st.fixed_dictionaries(
    {},
    optional={
        "fn": st.one_of(st.sampled_from([*METRIC_FNS, "Sum", "total"]), _odd),
        "column": _near,
        "metric": st.one_of(st.sampled_from([*NAMED, "Revenue"]), _odd),
        "expr": st.one_of(_long(TEXT_LIMITS["expr"]), st.just("sum(freight)"), _odd),
        "where": st.one_of(_long(TEXT_LIMITS["where"]), st.just("status = 'placed'"), _odd),
        "share": st.one_of(st.booleans(), st.sampled_from(["true", 1, 0, None])),
        "each_row": st.one_of(st.booleans(), st.sampled_from(["false", 1, None])),
        "per": _near,
        "as": st.one_of(_long(TEXT_LIMITS["as"]), _texts, _odd),
        "as_": _texts,
        "extra": _texts,
    },
)
_scalar = st.one_of(
    _texts,
    st.integers(),
    st.floats(),
    st.booleans(),
    st.sampled_from([2**70, -(2**64), 1.0, 0.0, -0.0, float("inf")]),
)
_filter = st.fixed_dictionaries(
    {},
    optional={
        "column": _near,
        "op": st.one_of(st.sampled_from([*OPS, "==", "IN", "Between"]), _odd),
        "value": st.one_of(
            st.none(),
            _scalar,
            st.lists(_scalar, max_size=3),
            st.integers(MAX_IN_VALUES - 1, MAX_IN_VALUES + 1).map(lambda n: list(range(n))),
            st.dictionaries(_texts, _scalar, max_size=1),
        ),
        "extra": _texts,
    },
)
_join = st.fixed_dictionaries({}, optional={"column": _near, "to": _near, "on": _texts})
_periods = st.sampled_from(
    ["2026-10-01..2026-10-31", "2026-10-31..2026-10-01", "2026-10-01 .. 2026-10-31", " 2026-10-01..2026-10-31",
     "2026-02-01..2026-02-30", "2026-10-01", "previous", "Previous", "2026-10-01..2026-10-01", "２０２６-10-01..2026-10-31"]
)  # fmt: skip


def _some(items: st.SearchStrategy[Any], most: int) -> st.SearchStrategy[Any]:
    return st.one_of(st.lists(items, max_size=most + 1), st.lists(_near, max_size=2), _odd, _texts)


arguments = st.fixed_dictionaries(
    {"table": st.one_of(st.sampled_from(["orders", "customers", "t03"]), _near)},
    optional={
        "metrics": _some(_metric, LIST_LIMITS["metrics"]),
        "group_by": _some(_near, LIST_LIMITS["group_by"]),
        "filters": _some(_filter, LIST_LIMITS["filters"]),
        "joins": _some(_join, LIST_LIMITS["joins"]),
        "time_column": _near,
        "time_grain": st.one_of(st.sampled_from([*GRAINS, "Month", "fortnight"]), _odd),
        "period": st.one_of(_periods, _odd),
        "baseline": st.one_of(_periods, _odd),
        "order_by": _near,
        "limit": st.one_of(st.integers(-1, MAX_ROWS + 1), st.sampled_from([True, 5.0, "5", None])),
        "extra": _near,
    },
)

# mostly valid: each part the everyday shape, or at the edge of a limit, so both sides of the check show
_name = st.sampled_from(["orders", "customers", "status", "freight", "city", "t03"])
_plain_metric = st.fixed_dictionaries(
    {"fn": st.sampled_from(METRIC_FNS)},
    optional={
        "column": _name,
        "as": st.one_of(_name, _long(TEXT_LIMITS["as"])),
        "where": st.one_of(st.just("status = 'placed'"), _long(TEXT_LIMITS["where"])),
        "share": st.one_of(st.booleans(), st.none()),
    },
) | st.fixed_dictionaries({"metric": st.sampled_from(NAMED)}, optional={"share": st.booleans()})
_plain_value = st.one_of(
    st.none(), _name, st.integers(-(2**70), 2**70), st.floats(), st.booleans(),
    st.lists(st.one_of(_name, st.integers(), st.floats(allow_nan=False)), max_size=MAX_IN_VALUES + 1),
)  # fmt: skip
_plain_filter = st.fixed_dictionaries(
    {"column": _name, "op": st.sampled_from(OPS)}, optional={"value": _plain_value}
)
plain = st.fixed_dictionaries(
    {"table": st.sampled_from(["orders", "customers", "t03"])},
    optional={
        "metrics": st.lists(_plain_metric, max_size=LIST_LIMITS["metrics"] + 1),
        "group_by": st.lists(_name, max_size=LIST_LIMITS["group_by"] + 1),
        "filters": st.lists(_plain_filter, max_size=LIST_LIMITS["filters"] + 1),
        "joins": st.lists(
            st.fixed_dictionaries({"column": _name, "to": _name}), max_size=LIST_LIMITS["joins"] + 1
        ),
        "time_column": st.one_of(_name, st.none()),
        "time_grain": st.one_of(st.sampled_from(GRAINS), st.none()),
        "period": st.one_of(_periods, st.none()),
        "baseline": st.one_of(_periods, st.none()),
        "order_by": st.one_of(_name, st.none()),
        "limit": st.one_of(st.integers(0, MAX_ROWS + 1), st.none()),
    },
)


def _same(quick: Any, model_value: Any) -> None:
    """Equal, type for type, as the planner reads them: attributes of a model, items of a list."""
    if hasattr(type(model_value), "model_fields"):
        for name in type(model_value).model_fields:
            _same(getattr(quick, name), getattr(model_value, name))
        return
    assert type(quick) is type(model_value), (quick, model_value)
    if isinstance(model_value, list | tuple):
        assert len(quick) == len(model_value)
        for q, m in zip(quick, model_value, strict=True):
            _same(q, m)
    else:
        assert quick == model_value or (quick != quick and model_value != model_value)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(arguments, plain), st.sampled_from(list(CATALOGS)), st.booleans())
def test_what_the_quick_check_settles_the_model_settles_the_same(
    data: dict[str, Any], catalog: str, named: bool
) -> None:
    quick = quick_arguments(data, sorted(CATALOGS[catalog]), NAMED if named else ())
    try:
        checked = validate_arguments(model(catalog, named), data)
    except ArgumentError:
        assert quick is None, f"the quick check accepted what the model refuses: {data!r}"
        event("refused by both")
        return
    event("settled quickly" if quick is not None else "accepted by the model only")
    if quick is None:
        return  # a value the model coerces: it decides, as it always did
    args, as_json = quick
    _same(args, checked)
    assert not named or all(m.metric == c.metric for m, c in zip(args.metrics, checked.metrics, strict=True))
    dumped = checked.model_dump(mode="json")
    assert json.dumps(as_json) == json.dumps(dumped)  # same keys, order, types (1 is not 1.0)


# ----- what the quick check is for ------------------------------------------------------------------

EVERYDAY = [
    {"table": "orders"},
    {"table": "orders", "group_by": ["status"], "metrics": [{"fn": "sum", "column": "freight"}]},
    {"table": "orders", "metrics": [{"fn": "count"}, {"fn": "avg", "column": "freight", "as": "avg_freight"}],
     "time_grain": "month", "period": "2026-01-01..2026-06-30", "order_by": "month", "limit": 12},
    {"table": "orders", "filters": [{"column": "status", "op": "in", "value": ["placed", "shipped"]},
                                    {"column": "freight", "op": ">", "value": 10.5}],
     "metrics": [{"fn": "pct", "where": "status = 'returned'", "share": None}], "group_by": None},
    {"table": "orders", "joins": [{"column": "customer_id", "to": "customers"}], "group_by": ["customers.city"],
     "time_grain": "month", "baseline": "previous"},
    {"table": "orders", "metrics": [{"metric": "revenue"}], "baseline": "2025-01-01..2025-12-31",
     "period": "2026-01-01..2026-12-31"},
]  # fmt: skip


@pytest.mark.parametrize("data", EVERYDAY)
def test_everyday_calls_are_settled_without_the_model(data: dict[str, Any]) -> None:
    quick = quick_arguments(data, sorted(SMALL), NAMED)
    assert quick is not None
    checked = validate_arguments(model("small", True), data)
    _same(quick[0], checked)
    assert quick[1] == checked.model_dump(mode="json")


def test_a_call_on_your_own_table_builds_no_model_and_a_mistake_gets_the_models_words(
    tmp_path: Path,
) -> None:
    import duckdb

    db = tmp_path / "own.duckdb"
    build_normalized_db(db)
    with duckdb.connect(str(db), read_only=True) as con:
        from analytics_agent.db.catalog import read_catalog

        tool = Aggregate(read_catalog(con))
        prepared = tool.prepare({"table": "orders", "group_by": ["status"], "metrics": [{"fn": "count"}]})
        assert "arguments" not in tool.__dict__  # no pydantic model was built
        rows = prepared.run(con.cursor()).value
        expected = con.execute("SELECT status, count(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()
        assert sorted(rows.rows) == sorted(expected)  # type: ignore[union-attr]
        with pytest.raises(ArgumentError, match=r"metrics\.0\.fn: Input should be one of"):
            tool.prepare({"table": "orders", "metrics": [{"fn": "total"}]})
        assert "arguments" in tool.__dict__  # the mistake went to the model


def test_a_broken_semantic_file_is_still_named_when_a_metric_is_asked_for() -> None:
    """A named metric asked for where none survived the file: the model's refusal, reworded with the file's
    problems (the quick check refuses the unknown ``metric`` key, so the model words it)."""
    semantics = Semantics(problems=("orders.semantic.yaml:4: metrics.revenue: unknown key 'colum'",))
    tool = Aggregate(SMALL, semantics=semantics)
    with pytest.raises(ArgumentError, match=r"orders\.semantic\.yaml:4"):
        tool.prepare({"table": "orders", "metrics": [{"metric": "revenue"}]})
    defined = Semantics(metrics={"revenue": MetricDef("revenue", "orders", 1, fn="sum", column="freight")})
    assert Aggregate(SMALL, semantics=defined).prepare(
        {"table": "orders", "metrics": [{"metric": "revenue"}]}
    )
