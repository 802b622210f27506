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
