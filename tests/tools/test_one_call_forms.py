"""One call instead of model arithmetic (issue 20): periods on integer years and months, a date made of
integer parts, the database's own business time zone, what describe_table says about a table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.workspace.workspace import Workspace


def call(ws: Workspace, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    out = ws.executor.execute(tool, json.dumps(args))
    assert not out.is_error, out.text
    return json.loads(out.text)


def refused(ws: Workspace, args: dict[str, Any]) -> str:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert out.is_error
    return out.text


@pytest.fixture
def parts_db(tmp_path: Path) -> Path:
    path = tmp_path / "parts.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE gdp AS SELECT * FROM (VALUES ('China', 1997, 800.5), ('China', 2007, 2500.25), "
            "('India', 1997, 400.0), ('India', 2007, 1000.0)) t(country, year, gdp)"
        )
        conn.execute(
            "CREATE TABLE sales AS SELECT * FROM (VALUES (2014, 1, 10), (2014, 2, 20), (2014, 8, 5), "
            "(2015, 1, 30), (2015, 7, 1), (2015, 8, 100)) t(year, month, amount)"
        )
        conn.execute(
            "CREATE TABLE trips AS SELECT * FROM (VALUES (2013, 1, 1, 5, 3), (2013, 1, 5, 23, 4), "
            "(2013, 2, 2, 1, 1), (2013, 13, 2, 1, 100)) t(year, month, day, hour, n)"
        )
    return path


def test_a_period_against_a_baseline_on_an_integer_year_column(parts_db):
    with Workspace.open(parts_db) as ws:
        got = call(ws, "aggregate", {"table": "gdp", "group_by": ["country"], "metrics": [{"fn": "sum", "column": "gdp"}],
                                     "period": "2007-01-01..2007-12-31", "baseline": "1997-01-01..1997-12-31"})  # fmt: skip
    assert got["rows"] == [["China", 2500.25, 800.5, 1699.75, 212.336], ["India", 1000, 400, 600, 150]]


def test_months_of_one_year_against_the_same_months_of_another_on_year_and_month_columns(parts_db):
    with Workspace.open(parts_db) as ws:
        got = call(ws, "aggregate", {"table": "sales", "metrics": [{"fn": "sum", "column": "amount"}],
                                     "period": "2015-01-01..2015-07-31", "baseline": "2014-01-01..2014-07-31"})  # fmt: skip
        cut = refused(
            ws, {"table": "sales", "metrics": [{"fn": "count"}], "period": "2015-01-15..2015-07-31"}
        )
    assert got["rows"] == [[31, 30, 1, 3.333333]]
    assert "whole months" in cut  # half a month cannot be counted from year and month alone


def test_year_over_year_on_an_integer_year_is_a_calendar_previous(parts_db):
    with Workspace.open(parts_db) as ws:
        got = call(ws, "aggregate", {"table": "sales", "metrics": [{"fn": "sum", "column": "amount"}],
                                     "time_grain": "year", "baseline": "previous", "time_column": "year"})  # fmt: skip
    assert got["rows"] == [["2014", 35, None, None, None], ["2015", 131, 35, 96, 274.2857]]


def test_a_date_from_year_month_day_hour_columns_gives_weekdays_and_months(parts_db):
    with Workspace.open(parts_db) as ws:
        weekdays = call(ws, "aggregate", {"table": "trips", "metrics": [{"fn": "sum", "column": "n"}],
                                          "group_by": ["date.day_of_week"]})  # fmt: skip
        months = call(
            ws,
            "aggregate",
            {"table": "trips", "metrics": [{"fn": "sum", "column": "n"}], "time_grain": "month"},
        )
        described = call(ws, "describe_table", {"table": "trips"})
    # 2013-01-01 is a Tuesday; 5 January and 2 February are Saturdays; month 13 is no date (NULL), not an error
    assert weekdays["rows"] == [["Tue", 3], ["Sat", 5], [None, 100]]
    assert months["rows"] == [["2013-01", 7], ["2013-02", 1], [None, 100]]
    assert described["time_columns"] == ["date (TIMESTAMP from year, month, day, hour)"]


@pytest.fixture
def zoned_db(tmp_path: Path) -> Path:
    path = tmp_path / "zoned.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE flights (id INTEGER, time_hour TIMESTAMPTZ, hour INTEGER)")
        conn.execute(  # 01:00 UTC on 2 January is 20:00 on 1 January in New York
            "INSERT INTO flights VALUES (1, '2013-01-02 01:00:00+00', 20), (2, '2013-01-02 15:00:00+00', 10)"
        )
    return path


def test_the_business_zone_is_the_databases_own_setting_in_its_semantic_file(zoned_db):
    args = {"table": "flights", "metrics": [{"fn": "count"}], "time_grain": "day"}
    with Workspace.open(zoned_db, timezone="UTC") as ws:
        assert call(ws, "aggregate", args)["rows"] == [["2013-01-02", 2]]
    zoned_db.with_name("zoned.semantic.yaml").write_text("timezone: America/New_York\n", encoding="utf-8")
    with Workspace.open(zoned_db, timezone="UTC") as ws:  # the machine's zone no longer decides
        assert call(ws, "aggregate", args)["rows"] == [["2013-01-01", 1], ["2013-01-02", 1]]
        described = call(ws, "describe_table", {"table": "flights"})
    assert described["time_zone"].startswith("America/New_York")
    assert described["one_row_per"] == "id"
    assert described["time_columns"] == ["time_hour"] and described["metrics"] == "none"


def test_an_unknown_zone_in_the_semantic_file_is_a_problem_with_its_line(zoned_db):
    zoned_db.with_name("zoned.semantic.yaml").write_text("timezone: Mars/Olympus\n", encoding="utf-8")
    with Workspace.open(zoned_db, timezone="UTC") as ws:
        assert any("Mars/Olympus" in str(p) and ":1" in str(p) for p in ws.problems)


@pytest.fixture
def world_db(tmp_path: Path) -> Path:
    path = tmp_path / "world.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE gap AS SELECT * FROM (VALUES ('Asia', 'China', 72.9, 1318.0), "
            "('Asia', 'India', 64.7, 1110.0), ('Europe', 'France', 80.7, 61.0), ('Europe', 'Spain', 80.9, 40.0)) "
            "t(continent, country, life_exp, pop)"
        )
        conn.execute(
            "CREATE TABLE storms AS SELECT * FROM (VALUES ('Amy', 1975, 1, 2.0), ('Amy', 1975, 2, 3.0), "
            "('Amy', 1980, 1, 1.0), ('Bob', 1980, 1, NULL), (NULL, 1980, 1, 5.0)) t(name, yr, k, dep)"
        )
    return path


def test_a_weighted_average_named_with_as_and_ordered_by_that_name(world_db):
    with Workspace.open(world_db) as ws:
        got = call(ws, "aggregate", {"table": "gap", "group_by": ["continent"], "order_by": "-weighted",
                                     "metrics": [{"expr": "sum(life_exp * pop) / sum(pop)", "as": "weighted"}]})  # fmt: skip
        expected = (
            ws.cursor()
            .execute("SELECT continent, sum(life_exp * pop) / sum(pop) FROM gap GROUP BY 1 ORDER BY 2 DESC")
            .fetchall()
        )
    assert got["columns"] == ["continent", "weighted"]
    assert got["rows"] == [[c, pytest.approx(v, rel=1e-6)] for c, v in expected]


def test_an_average_of_a_difference_and_a_division_by_zero_is_null(world_db):
    with Workspace.open(world_db) as ws:
        diff = call(ws, "aggregate", {"table": "gap", "metrics": [{"fn": "avg", "column": "life_exp - 60"}]})
        zero = call(ws, "aggregate", {"table": "storms", "metrics": [{"expr": "sum(dep) / sum(k - k)"}]})
        scaled = call(
            ws, "aggregate", {"table": "storms", "metrics": [{"expr": "count() * 2.5 - 1", "where": "k = 1"}]}
        )
    assert diff == {"columns": ["avg_life_exp_60"], "rows": [[14.8]], "row_count": 1}
    assert zero["rows"] == [[None]] and zero["columns"] == ["expr"]
    assert scaled["rows"] == [[9]]  # four rows with k = 1


def test_count_distinct_over_two_columns_counts_combinations_with_both_present(world_db):
    with Workspace.open(world_db) as ws:
        got = call(
            ws,
            "aggregate",
            {"table": "storms", "metrics": [{"fn": "count_distinct", "column": "name, yr", "as": "storms"}]},
        )
    assert got["rows"] == [[3]]  # Amy 1975, Amy 1980, Bob 1980; the unnamed one is not a storm


def test_a_filter_on_a_named_output_keeps_groups(world_db):
    with Workspace.open(world_db) as ws:
        got = call(ws, "aggregate", {"table": "storms", "group_by": ["yr"], "metrics": [{"fn": "count", "as": "n"}],
                                     "filters": [{"column": "n", "op": ">", "value": 2}]})  # fmt: skip
    assert got["rows"] == [[1980, 3]]


@pytest.mark.parametrize(
    ("metric", "message"),
    [
        ({"expr": "sum(dep) / k"}, "k must sit inside an aggregate"),
        ({"expr": "sum(dep); drop table storms"}, "cannot read '; drop table storms'"),
        ({"expr": "sum(nme)"}, "did you mean 'name'"),
        ({"expr": "sum(sum(dep))"}, "cannot hold another aggregate"),
        ({"expr": "version()"}, "'version' is not a function here"),
        ({"fn": "sum", "column": "name - yr"}, "arithmetic needs numeric columns; name is VARCHAR"),
        ({"fn": "count", "as": "a b"}, "must be a plain name"),
        ({"fn": "sum", "column": "dep, k"}, "several columns go only in count_distinct"),
    ],
)
def test_expressions_are_our_grammar_with_names_checked(world_db, metric, message):
    with Workspace.open(world_db) as ws:
        assert message in refused(ws, {"table": "storms", "metrics": [metric]})
        assert ws.cursor().execute("SELECT count(*) FROM storms").fetchone()[0] == 5


def test_share_without_groups_is_refused_not_ignored(world_db):
    with Workspace.open(world_db) as ws:
        assert "needs group_by" in refused(
            ws, {"table": "gap", "metrics": [{"fn": "sum", "column": "pop", "share": True}]}
        )


def test_did_you_mean_offers_only_close_names():
    from analytics_agent.suggest import did_you_mean

    assert did_you_mean("damage", ["name", "year", "wind"]) == ""
    assert did_you_mean("nme", ["name", "year"]) == "; did you mean 'name'?"
    assert "carrier" in did_you_mean("carier", ["carrier", "origin"])


@pytest.fixture
def rates_db(tmp_path: Path) -> Path:
    """Yearly rates with one column per month (the BLS layout), and a yearly table beside it."""
    path = tmp_path / "rates.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE rates AS SELECT y AS year, 3 + (y * 7 % 11) / 2.0 AS jan, 3 + (y * 5 % 13) / 2.0 AS dec, "
            "4 + (y * 3 % 7) / 3.0 AS annual, CASE WHEN y % 4 = 0 THEN 'gold' ELSE 'blue' END AS tag "
            "FROM range(1948, 2017) t(y)"
        )
        conn.execute(
            "CREATE TABLE cars AS SELECT * FROM (VALUES ('a', 1999), ('b', 2008), ('c', 2008)) t(model, year)"
        )
    return path


def test_a_condition_compares_two_columns_of_the_same_row(rates_db):
    with duckdb.connect(str(rates_db), read_only=True) as conn:
        truth = conn.execute("SELECT count(*) FROM rates WHERE dec > jan").fetchone()[0]
    with Workspace.open(rates_db) as ws:
        got = call(ws, "aggregate", {"table": "rates", "metrics": [{"fn": "count", "where": "dec > jan"}]})
        unquoted = refused(ws, {"table": "rates", "metrics": [{"fn": "count", "where": "tag = gold"}]})
        mixed = refused(ws, {"table": "rates", "metrics": [{"fn": "count", "where": "tag > jan"}]})
    assert 0 < truth < 69 and got["rows"] == [[truth]]
    assert "no column 'gold'" in unquoted and "tag = 'gold'" in unquoted
    assert "cannot compare tag (VARCHAR) with jan" in mixed


def test_decades_as_a_grain_and_a_date_part_over_an_integer_year(rates_db):
    with duckdb.connect(str(rates_db), read_only=True) as conn:
        truth = conn.execute(
            "SELECT (year // 10 * 10)::VARCHAR || 's', round(avg(annual), 6) FROM rates GROUP BY 1 ORDER BY 1"
        ).fetchall()
    with Workspace.open(rates_db) as ws:
        grain = call(
            ws,
            "aggregate",
            {"table": "rates", "metrics": [{"fn": "avg", "column": "annual"}], "time_grain": "decade"},
        )
        part = call(
            ws,
            "aggregate",
            {"table": "rates", "metrics": [{"fn": "avg", "column": "annual"}], "group_by": ["date.decade"]},
        )
        change = call(
            ws,
            "aggregate",
            {"table": "rates", "metrics": [{"fn": "count"}], "time_grain": "decade", "baseline": "previous"},
        )
    assert [(label, round(v, 6)) for label, v in grain["rows"]] == truth
    assert part["rows"] == grain["rows"] and grain["rows"][0][0] == "1940s"
    sixties = next(r for r in change["rows"] if r[0] == "1960s")
    assert sixties[1:3] == [10, 10]  # the 1950s had ten years too


def test_a_year_column_in_two_tables_is_no_relationship(rates_db):
    with Workspace.open(rates_db) as ws:
        described = call(ws, "describe_table", {"table": "cars"})
    assert "rates" not in json.dumps(described.get("related", {}))


def test_time_column_may_name_the_date_a_period_compares_without_a_grain(tmp_path):
    path = tmp_path / "two_dates.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE orders AS SELECT * FROM (VALUES (DATE '2011-03-01', DATE '2012-01-05', 10), "
            "(DATE '2012-02-01', DATE '2012-02-03', 20), (DATE '2012-12-30', DATE '2013-01-02', 40)) t(placed, shipped, amount)"
        )
    with Workspace.open(path) as ws:
        by_shipped = call(ws, "aggregate", {"table": "orders", "metrics": [{"fn": "sum", "column": "amount"}], "time_column": "shipped",
                                            "period": "2012-01-01..2012-12-31", "baseline": "2011-01-01..2011-12-31"})  # fmt: skip
        alone = refused(ws, {"table": "orders", "metrics": [{"fn": "count"}], "time_column": "shipped"})
    assert by_shipped["rows"] == [[30, None, None, None]]  # by placed it would be 20 against 10
    assert "add a time_grain" in alone and "or a period" in alone
