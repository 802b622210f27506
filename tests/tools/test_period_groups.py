"""A grouped period comparison reads only the rows of its two periods (``every_group``) and answers exactly
as grouping every row did: the same groups (one with no row in either period too), the same values and
types (0 for counts, NULL for sums and ratios, an expression's arithmetic over those), the same order.

The property test draws tables (groups, NULLs, dates inside, outside and between the periods, a related
table), plans them through the real ``aggregate`` tool, and runs both queries on a real DuckDB file: the
tool's, and the one-pass grouping (``build_query(plan, one_pass=True)``, the query before)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from analytics_agent.db.catalog import drop_profile, read_catalog, store_profile
from analytics_agent.db.relationships import Relationship
from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.every_group import few_groups
from analytics_agent.tools.aggregate.query_plan import KeyPlan
from analytics_agent.tools.aggregate.sql import build_query
from analytics_agent.tools.aggregate.tool import Aggregate
from analytics_agent.tools.semantics import MetricDef, Semantics
from analytics_agent.workspace.workspace import Workspace

SEMANTICS = Semantics(
    relationships=[Relationship("t", "c", "u", "c")],
    metrics={
        "rev": MetricDef("rev", "t", 1, fn="sum", column="x", where="h <> 3"),
        "n": MetricDef("n", "t", 2, fn="count"),
        "rev_per_n": MetricDef("rev_per_n", "t", 3, ratio=("rev", "n")),
    },
)


def make_db(path: Path, rows: list[tuple[Any, ...]]) -> Path:
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE u (c VARCHAR, region VARCHAR)")
        conn.execute("INSERT INTO u VALUES ('p', 'east'), ('q', 'west'), ('r', NULL)")
        conn.execute(
            "CREATE TABLE t (g VARCHAR, h INTEGER, x INTEGER, y DOUBLE, c VARCHAR, d DATE, ts TIMESTAMP)"
        )
        if rows:
            conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        store_profile(conn, "t")  # as a load stores it: its text columns' values tell few groups
    return path


def tool_for(path: Path) -> tuple[duckdb.DuckDBPyConnection, Aggregate]:
    conn = duckdb.connect(str(path))
    return conn, Aggregate(read_catalog(conn), semantics=SEMANTICS)


# --- the answer, pinned by hand -----------------------------------------------------------------------


@pytest.fixture
def sales(tmp_path: Path) -> Path:
    rows = [
        ("north", 1, 3, 1.5, "p", dt.date(2024, 3, 5), None),  # period
        ("north", 1, 4, None, "q", dt.date(2024, 1, 5), None),  # baseline
        ("south", 2, 5, 2.0, "p", dt.date(2024, 2, 9), None),  # between the two: in neither
        ("west", 3, 6, 1.0, None, dt.date(2023, 6, 1), None),  # before both
        ("west", 3, 7, 1.0, None, None, None),  # no date
    ]
    return make_db(tmp_path / "sales.duckdb", rows)


def test_a_group_with_no_row_in_either_period_shows_zero_and_null_not_nothing(sales):
    args = {"table": "t", "group_by": ["g"], "time_column": "d",
            "metrics": [{"fn": "count"}, {"fn": "sum", "column": "x"}, {"expr": "count() + 1"}],
            "period": "2024-03-01..2024-03-31", "baseline": "2024-01-01..2024-01-31"}  # fmt: skip
    with Workspace.open(sales) as ws:
        out = ws.executor.execute("aggregate", json.dumps(args))
    assert not out.is_error, out.text
    rows = json.loads(out.text)["rows"]
    # count, sum and count() + 1, each: period, baseline, change, % change; count() + 1 over no rows is 1
    assert rows == [
        ["north", 1, 1, 0, 0, 3, 4, -1, -25, 2, 2, 0, 0],
        ["south", 0, 0, 0, None, None, None, None, None, 1, 1, 0, 0],
        ["west", 0, 0, 0, None, None, None, None, None, 1, 1, 0, 0],
    ]


def test_the_periods_filter_the_grouped_rows_and_a_distinct_of_the_keys_keeps_the_groups(sales):
    args = {"table": "t", "group_by": ["g"], "time_column": "d", "filters": [{"column": "h", "op": "<", "value": 3}],
            "period": "2024-03-01..2024-03-31", "baseline": "2024-01-01..2024-01-31"}  # fmt: skip
    conn, tool = tool_for(sales)
    with conn:
        plan = tool.plan(tool.arguments.model_validate(args))
        sql, params = build_query(plan)
        one_pass, values = build_query(plan, one_pass=True)
        assert 'SELECT DISTINCT t."g" AS "_k0" FROM "t" AS t WHERE (t."h" < $' in sql
        assert 'WHERE ((t."h" < $' in sql and 't."d" >= $' in sql.split("GROUP BY")[0].rsplit("WHERE", 1)[1]
        assert conn.execute(sql, params).fetchall() == conn.execute(one_pass, values).fetchall()
        assert [r[0] for r in conn.execute(sql, params).fetchall()] == ["north", "south"]


def test_a_key_or_filter_from_a_related_table_keeps_the_one_pass_grouping(sales):
    conn, tool = tool_for(sales)
    base = {
        "table": "t",
        "time_column": "d",
        "period": "2024-03-01..2024-03-31",
        "baseline": "2024-01-01..2024-01-31",
    }
    with conn:
        for extra in ({"group_by": ["u.region"]}, {"group_by": ["g"], "filters": [{"column": "u.region", "op": "not_null"}]}):  # fmt: skip
            plan = tool.plan(tool.arguments.model_validate({**base, **extra}))
            assert build_query(plan) == build_query(plan, one_pass=True)
        # a related column only in a metric: the groups need no join, the periods' rows get it
        plan = tool.plan(tool.arguments.model_validate(
            {**base, "group_by": ["g"], "metrics": [{"fn": "count", "where": "u.region = 'east'"}]}
        ))  # fmt: skip
        sql, params = build_query(plan)
        assert 'SELECT DISTINCT t."g" AS "_k0" FROM "t" AS t)' in sql and 'LEFT JOIN "u" AS r1' in sql
        one_pass, values = build_query(plan, one_pass=True)
        assert conn.execute(sql, params).fetchall() == conn.execute(one_pass, values).fetchall()


@pytest.mark.parametrize(
    ("group_by", "periods_only"),
    [
        (["g"], True),
        (["g", "d.day_of_week"], True),
        (["h"], False),
        (["d.month"], False),
        (["x", "g"], False),
    ],
)
def test_the_tool_reads_only_the_periods_when_its_groups_are_known_to_be_few(sales, group_by, periods_only):
    args = {"table": "t", "group_by": group_by, "time_column": "d",
            "period": "2024-03-01..2024-03-31", "baseline": "2024-01-01..2024-01-31"}  # fmt: skip
    conn, tool = tool_for(sales)
    with conn:
        model = tool.arguments.model_validate(args)
        plan = tool.plan(model)
        ran = tool.run(conn.cursor(), model)
        assert ran.sql == build_query(plan, one_pass=not periods_only)[0]
        drop_profile(conn, "t")  # no stored profile: nothing says the groups are few
        fresh = Aggregate(read_catalog(conn), semantics=SEMANTICS)
        assert fresh.run(conn.cursor(), model).sql == build_query(plan, one_pass=True)[0]


def test_few_groups_are_the_product_of_listed_values_and_date_parts_with_null():
    listed = {"city": 10, "channel": 3, "brand": 50}
    key = lambda name, grain=None: KeyPlan(name, f't."{name}"' if not grain else "isodow(t.d)", grain)  # noqa: E731
    assert few_groups([key("city"), key("channel")], listed)  # 11 * 4
    assert few_groups([key("channel"), key("wd", "day_of_week"), key("h", "hour")], listed)  # 4 * 8 * 25
    assert not few_groups([key("brand"), key("city"), key("channel")], listed)  # 51 * 11 * 4 > 1,000
    assert not few_groups([key("customer_id")], listed)  # not listed: may be millions
    assert not few_groups([KeyPlan("city", 'r1."city"')], listed)  # a related table's column of that name


# --- property: the same rows as grouping every row ----------------------------------------------------

DAYS = st.dates(min_value=dt.date(2023, 11, 1), max_value=dt.date(2024, 8, 31))
ROWS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c", None]),
        st.one_of(st.none(), st.integers(1, 3)),
        st.one_of(st.none(), st.integers(-5, 5)),
        st.one_of(st.none(), st.sampled_from([0.5, -1.25, 3.0, 0.1])),
        st.sampled_from(["p", "q", "r", "s", None]),  # s: in no row of u
        st.one_of(st.none(), DAYS),
        st.one_of(st.none(), st.datetimes(dt.datetime(2023, 11, 1), dt.datetime(2024, 8, 31))),
    ),
    max_size=30,
)
KEYS = ["g", "h", "c", "u.region", "d.day_of_week", "ts.month", "x"]
METRICS: list[dict[str, Any]] = [
    {"fn": "count"},
    {"fn": "count", "where": "x > 0"},
    {"fn": "sum", "column": "x"},
    {"fn": "sum", "column": "y", "where": "g <> 'a'"},
    {"fn": "avg", "column": "y"},
    {"fn": "min", "column": "y"},
    {"fn": "max", "column": "x", "where": "h is not null"},
    {"fn": "count_distinct", "column": "g"},
    {"fn": "median", "column": "x"},
    {"fn": "pct", "where": "x >= 0"},
    {"fn": "pct", "column": "y", "where": "y > 0"},
    {"expr": "count() + 1"},
    {"expr": "sum(x) / count()"},
    {"metric": "rev"},
    {"metric": "rev_per_n"},
    {"fn": "count", "where": "u.region = 'east'"},
    {"fn": "sum", "column": "x", "per": "m0"},
]
FILTERS = [
    {"column": "x", "op": ">", "value": 0},
    {"column": "h", "op": "!=", "value": 2},
    {"column": "g", "op": "in", "value": ["a", "b"]},
    {"column": "y", "op": "is_null"},
    {"column": "u.region", "op": "=", "value": "east"},
    {"column": "d", "op": ">=", "value": "2024-02-01"},
]


@st.composite
def periods(draw: st.DrawFn) -> tuple[str, str]:
    def span() -> str:
        first = draw(st.dates(min_value=dt.date(2023, 12, 1), max_value=dt.date(2024, 7, 31)))
        last = first + dt.timedelta(days=draw(st.integers(0, 70)))
        return f"{first}..{last}"

    return span(), span()  # overlapping, touching, apart, either first


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    metrics = draw(st.lists(st.sampled_from(METRICS), min_size=1, max_size=3))
    metrics = [{**m, "as": f"m{i}"} if i == 0 or "per" not in m else m for i, m in enumerate(metrics)]
    period, baseline = draw(periods())
    args: dict[str, Any] = {
        "table": "t",
        "group_by": draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=2, unique=True)),
        "metrics": metrics,
        "filters": draw(st.lists(st.sampled_from(FILTERS), max_size=2)),
        "time_column": draw(st.sampled_from(["d", "ts"])),
        "period": period,
        "baseline": baseline,
    }
    if draw(st.booleans()):  # a group condition on an output
        op = draw(st.sampled_from([">", "<=", "not_null", "is_null"]))
        args["filters"].append({"column": "m0", "op": op, **({"value": 0} if op in (">", "<=") else {})})
    if draw(st.booleans()):
        args["limit"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        args["order_by"] = draw(st.sampled_from(["m0", "-m0_change", "m0_baseline", args["group_by"][0]]))
    return args


def _typed(
    cursor: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any]
) -> tuple[list[Any], list[str]]:
    """Every row with each value's type (1 and 1.0 differ), and the column types."""
    rows = cursor.execute(sql, params).fetchall()
    kinds = [str(d[1]) for d in cursor.description or []]
    return [tuple((type(v).__name__, repr(v)) for v in r) for r in rows], kinds


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS, args=calls())
def test_a_grouped_comparison_reading_only_its_periods_answers_as_grouping_every_row(
    tmp_path_factory, rows, args
):
    conn, tool = tool_for(make_db(tmp_path_factory.mktemp("p") / "t.duckdb", rows))
    with conn:
        try:
            model = tool.arguments.model_validate(args)
            plan = tool.plan(model)
        except ToolError:
            assume(False)  # a call the planner refuses (e.g. a filter on a key's output name)
        sql, params = build_query(plan)
        one_pass, values = build_query(plan, one_pass=True)
        joined_groups = any(k.startswith("u.") for k in args["group_by"]) or any(
            f["column"].startswith("u.") for f in args["filters"]
        )
        assert ('"in periods"' in sql) is not joined_groups  # periods-only wherever no join makes the groups
        assert _typed(conn, sql, params) == _typed(conn, one_pass, values)
        try:
            ran = tool.run(conn.cursor(), model)
        except ToolError as e:  # a value in no row, or no row passing the filters: explained, as before
            assert "no rows where" in str(e) or conn.execute(one_pass, values).fetchall() == [], str(e)
        else:  # the tool runs one of the two (which one: test_the_tool_reads_only_the_periods_...)
            assert (ran.sql, ran.params) in ((sql, params), (one_pass, values))
