"""Did-you-mean for the words a model writes for aggregate's choices (issue 20): synonyms that no
spelling distance finds ('mean' for avg), close spellings, and never a far name. Each refusal is one
line that also lists the valid choices."""

from __future__ import annotations

import json
from typing import Any

import pytest

from analytics_agent.suggest import did_you_mean
from analytics_agent.workspace.workspace import Workspace


def refused(ws: Workspace, args: dict[str, Any]) -> str:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert out.is_error, out.text
    assert "\n" not in out.text.strip()
    return out.text


@pytest.mark.parametrize(
    ("fn", "meant"),
    [("average", "avg"), ("mean", "avg"), ("total", "sum"), ("distinct_count", "count_distinct"),
     ("nunique", "count_distinct"), ("maximum", "max"), ("std", "stddev"), ("percentage", "pct"),
     ("cont", "count")],
)  # fmt: skip
def test_an_aggregate_function_by_another_name_is_named(sample_db, fn, meant):
    with Workspace.open(sample_db) as ws:
        text = refused(ws, {"table": "orders", "metrics": [{"fn": fn, "column": "amount"}]})
        expr = refused(ws, {"table": "orders", "metrics": [{"expr": f"{fn}(amount)"}]})
    assert f"did you mean {meant!r}?" in text and "'count_distinct'" in text
    assert "functions: count, sum, avg" in expr
    assert (f"did you mean {meant!r}?" in expr) == (meant != "pct")  # pct is no function of expressions


@pytest.mark.parametrize(
    ("op", "meant"),
    [("greater_than", ">"), ("=>", ">="), ("gte", ">="), ("==", "="), ("eq", "="), ("<>", "!="),
     ("not in", "not_in"), ("contains", "like"), ("isnull", "is_null")],
)  # fmt: skip
def test_a_filter_operator_by_another_name_is_named(sample_db, op, meant):
    with Workspace.open(sample_db) as ws:
        text = refused(
            ws,
            {"table": "orders", "metrics": [{"fn": "count"}],
             "filters": [{"column": "amount", "op": op, "value": 3}]},
        )  # fmt: skip
    assert f"did you mean {meant!r}?" in text and "'between'" in text


@pytest.mark.parametrize(
    ("condition", "meant"),
    [
        ("amount => 3", ">="),
        ("amount == 3", "="),
        ("amount greater_than 3", ">"),
        ("city contains 'P'", "like"),
    ],
)
def test_an_operator_in_a_condition_by_another_name_is_named(sample_db, condition, meant):
    with Workspace.open(sample_db) as ws:
        text = refused(ws, {"table": "orders", "metrics": [{"fn": "count", "where": condition}]})
    assert f"did you mean {meant!r}?" in text and "operators: = != <" in text


def test_a_grain_by_another_name_is_named(sample_db):
    with Workspace.open(sample_db) as ws:
        grain = refused(ws, {"table": "orders", "metrics": [{"fn": "count"}], "time_grain": "monthly"})
        part = refused(ws, {"table": "orders", "metrics": [{"fn": "count"}], "group_by": ["day.quarterly"]})
        weekday = refused(ws, {"table": "orders", "metrics": [{"fn": "count"}], "group_by": ["day.weekday"]})
    assert "did you mean 'month'?" in grain and "'month_of_year'" in grain
    assert "did you mean 'quarter'?" in part
    assert "did you mean 'day_of_week'?" in weekday


def test_far_words_get_no_hint():
    for word in ("xyzzy", "revenue", "damage"):
        assert did_you_mean(word, ["count", "sum", "avg", "min", "max", "count_distinct"]) == ""
    assert did_you_mean("mean", ["name", "year"]) == ""  # a synonym only where its target is a choice
