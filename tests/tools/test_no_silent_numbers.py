"""No silent wrong number (issue 20): the groups of a result are the groups of the table after ``filters``,
whatever the metrics' own conditions; ``baseline: previous`` is the calendar bucket before; values keep
enough digits to be rounded once, right. Property tests draw tables, conditions, filters and groupings and
compare with queries written by hand."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analytics_agent.db.values import to_jsonable
from analytics_agent.workspace.workspace import Workspace


def call(ws: Workspace, args: dict[str, Any]) -> dict[str, Any]:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert not out.is_error, out.text
    return json.loads(out.text)


def make_db(path: Path, rows: list[tuple[Any, ...]]) -> Path:
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE t (g VARCHAR, k INTEGER, x INTEGER, d DATE)")
        if rows:
            conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", rows)
    return path


@pytest.fixture
def sales(tmp_path: Path) -> Path:
    rows = [("north", 1, 3, dt.date(2024, 1, 5)), ("north", 1, None, dt.date(2024, 3, 5))]
    rows += [("south", 2, 4, dt.date(2024, 1, 7)), ("south", 2, 5, dt.date(2024, 3, 9))]
    return make_db(tmp_path / "sales.duckdb", rows)


def test_a_group_with_no_row_meeting_the_only_metrics_condition_shows_zero(sales):
    with Workspace.open(sales) as ws:
        got = call(ws, {"table": "t", "group_by": ["g"], "metrics": [{"fn": "count", "where": "x is null"}]})
    assert sorted(got["rows"]) == [["north", 1], ["south", 0]]


def test_groups_with_fewer_than_n_matching_rows_include_those_with_none(sales):
    with Workspace.open(sales) as ws:
        got = call(ws, {"table": "t", "group_by": ["g"], "metrics": [{"fn": "count", "where": "x is null"}],
                        "filters": [{"column": "count_if_x", "op": "<", "value": 1}]})  # fmt: skip
    assert got["rows"] == [["south", 0]]


def test_previous_is_the_last_bucket_with_rows_and_says_which_across_a_gap(sales):
    with Workspace.open(sales) as ws:
        got = call(
            ws, {"table": "t", "time_grain": "month", "baseline": "previous", "metrics": [{"fn": "count"}]}
        )
    # March against January (February has no rows: not a baseline of 0), and the result names January
    assert got["columns"][:3] == ["month", "month_baseline", "count"]
    assert got["rows"] == [["2024-01", None, 2, None, None, None], ["2024-03", "2024-01", 2, 2, 0, 0]]


def test_previous_of_an_average_across_a_gap_is_the_last_average(sales):
    with Workspace.open(sales) as ws:
        got = call(ws, {"table": "t", "time_grain": "month", "baseline": "previous",
                        "metrics": [{"fn": "avg", "column": "x"}]})  # fmt: skip
    assert got["rows"][1][:4] == ["2024-03", "2024-01", 5, 3.5]


@pytest.mark.parametrize(
    ("value", "to_two_places"),
    [(23.724999, 23.72), (10.004999, 10.0), (12.344999, 12.34), (23.764999, 23.76), (23.7149, 23.71)],
)
def test_a_value_rounded_again_to_two_places_rounds_as_the_true_value_does(value, to_two_places):
    shown = to_jsonable(value)
    assert round(shown, 2) == to_two_places == round(value, 2)


def test_values_keep_seven_significant_digits_and_drop_float_noise():
    assert to_jsonable(23.71495) == 23.71495
    assert to_jsonable(1 / 3) == 0.3333333
    assert to_jsonable(0.1 + 0.2) == 0.3
    assert to_jsonable(1234567.891234) == 1234567.89


# --- property tests -----------------------------------------------------------------------------------

GROUPS = st.sampled_from(["a", "b", "c", None])
DAYS = st.dates(min_value=dt.date(2024, 1, 1), max_value=dt.date(2024, 8, 31))
ROWS = st.lists(
    st.tuples(GROUPS, st.integers(1, 3), st.one_of(st.none(), st.integers(-5, 5)), DAYS), max_size=25
)
OPS = ["=", "!=", "<", "<=", ">", ">=", "is_null", "not_null"]


@st.composite
def terms(draw: st.DrawFn) -> tuple[str, str, Any]:
    column = draw(st.sampled_from(["x", "k"]))
    op = draw(st.sampled_from(OPS))
    value = None if op in ("is_null", "not_null") else draw(st.integers(-5, 5))
    return column, op, value


def as_where(term: tuple[str, str, Any]) -> str:
    """The condition as a metric's ``where`` text."""
    column, op, value = term
    return as_text(term) if op != "!=" else f"{column} <> {value}"


def as_text(term: tuple[str, str, Any]) -> str:
    """The condition as hand-written SQL (the metric's ``where`` text is ``as_where``)."""
    column, op, value = term
    if op in ("is_null", "not_null"):
        return f"{column} is {'not ' if op == 'not_null' else ''}null"
    if op == "!=":  # a row with no value is "not 5" too: "x is distinct from 5" in SQL
        return f"{column} is distinct from {value}"
    return f"{column} {op} {value}"


def _rows(cursor: duckdb.DuckDBPyConnection, sql: str) -> list[list[Any]]:
    return [list(to_jsonable(list(r))) for r in cursor.execute(sql).fetchall()]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=ROWS,
    condition=terms(),
    filters=st.lists(terms(), max_size=2),
    group_by=st.sampled_from([["g"], ["k"], ["g", "k"]]),
)
def test_groups_are_the_groups_after_filters_whatever_the_conditions(
    tmp_path_factory, rows, condition, filters, group_by
):
    path = make_db(tmp_path_factory.mktemp("p") / "t.duckdb", rows)
    cond, text = as_text(condition), as_where(condition)
    args = {
        "table": "t",
        "group_by": group_by,
        "metrics": [{"fn": "count", "where": text}, {"fn": "sum", "column": "x", "where": text}],
        "filters": [{"column": c, "op": op, **({} if v is None else {"value": v})} for c, op, v in filters],
        "limit": 50,
    }
    keys = ", ".join(group_by)
    where = " AND ".join(f"({as_text(f)})" for f in filters) or "TRUE"
    expected_sql = (
        f"SELECT {keys}, count(CASE WHEN {cond} THEN 1 END), sum(CASE WHEN {cond} THEN x END) "
        f"FROM t WHERE {where} GROUP BY {keys}"
    )
    with Workspace.open(path) as ws:
        got = ws.executor.execute("aggregate", json.dumps(args))
        expected = _rows(ws.cursor(), expected_sql)
    if not expected:  # no row passes the filters: said so, not an empty answer that looks real
        assert got.is_error or json.loads(got.text)["rows"] == []
        return
    assert not got.is_error, got.text
    assert sorted(json.loads(got.text)["rows"], key=repr) == sorted(expected, key=repr)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS, filters=st.lists(terms(), max_size=1), by_group=st.booleans())
def test_previous_is_a_lag_over_the_buckets_with_rows(tmp_path_factory, rows, filters, by_group):
    path = make_db(tmp_path_factory.mktemp("p") / "t.duckdb", rows)
    args = {
        "table": "t",
        "time_grain": "month",
        "baseline": "previous",
        "group_by": ["g"] if by_group else [],
        "metrics": [{"fn": "count"}],
        "filters": [{"column": c, "op": op, **({} if v is None else {"value": v})} for c, op, v in filters],
        "limit": 50,
    }
    where = " AND ".join(f"({as_text(f)})" for f in filters) or "TRUE"
    group = "g" if by_group else "NULL::VARCHAR"
    # the months each group has rows in; LAG over them, and the month it lags to
    expected_sql = f"""
        WITH counted AS (SELECT date_trunc('month', d) AS m, {group} AS g, count(*) AS n
                         FROM t WHERE {where} GROUP BY 1, 2)
        SELECT strftime(m, '%Y-%m'), {"g, " if by_group else ""}n, lag(n) OVER w,
               strftime(lag(m) OVER w, '%Y-%m'), lag(m) OVER w = m - INTERVAL 1 MONTH
        FROM counted WINDOW w AS (PARTITION BY g ORDER BY m)"""
    with Workspace.open(path) as ws:
        got = ws.executor.execute("aggregate", json.dumps(args))
        expected = _rows(ws.cursor(), expected_sql)
    if not expected:
        assert got.is_error or json.loads(got.text)["rows"] == []
        return
    assert not got.is_error, got.text
    result = json.loads(got.text)
    named = [dict(zip(result["columns"], r, strict=True)) for r in result["rows"]]
    width = 4 if by_group else 3
    wanted = [("month", *(("g",) if by_group else ()), "count", "count_baseline")]
    assert sorted((tuple(r[c] for c in wanted[0]) for r in named), key=repr) == sorted(
        (tuple(e[:width]) for e in expected), key=repr
    )
    if "month_baseline" in result["columns"]:  # some bucket's baseline is not the month before: named
        got_labels = [(r["month"], r["month_baseline"]) for r in named]
        assert sorted(got_labels, key=repr) == sorted(((e[0], e[width]) for e in expected), key=repr)
    else:  # every baseline is the month before
        assert all(e[-1] in (True, None) for e in expected)
