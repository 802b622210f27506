"""The "silent wrong number" cases of ``aggregate`` (issue: every silent case). Each test builds a small
real DuckDB table and compares the tool's answer with plain DuckDB SQL written by hand over it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.db.values import to_jsonable
from analytics_agent.workspace.workspace import Workspace


def call(ws: Workspace, args: dict[str, Any]) -> dict[str, Any]:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert not out.is_error, out.text
    return json.loads(out.text)


def refused(ws: Workspace, args: dict[str, Any]) -> str:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert out.is_error, out.text
    return out.text


def by_hand(ws: Workspace, sql: str) -> list[list[Any]]:
    return [list(to_jsonable(list(r))) for r in ws.cursor().execute(sql).fetchall()]


def database(path: Path, *statements: str) -> Path:
    with duckdb.connect(str(path)) as conn:
        for s in statements:
            conn.execute(s)
    return path


@pytest.fixture
def customers(tmp_path: Path) -> Path:
    return database(
        tmp_path / "c.duckdb",
        "CREATE TABLE customers (id INTEGER, state VARCHAR, segment VARCHAR, spend INTEGER)",
        "INSERT INTO customers VALUES (1, 'CA', 'a', 10), (2, 'NY', 'a', 20), (3, NULL, 'b', 30),"
        " (4, NULL, 'b', NULL), (5, 'TX', NULL, 50), (6, 'CA', 'b', 60)",
    )


# --- != and not_in count a row with no value as "not that value" ----------------------------------------


def test_a_not_equal_filter_keeps_the_rows_with_no_value(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "filters": [{"column": "state", "op": "!=", "value": "CA"}]})
        expected = by_hand(ws, "SELECT count(*) FROM customers WHERE state IS NULL OR state <> 'CA'")
    assert got["rows"] == expected == [[4]]


def test_a_not_in_filter_keeps_the_rows_with_no_value(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "metrics": [{"fn": "sum", "column": "spend"}],
                        "filters": [{"column": "state", "op": "not_in", "value": ["CA", "NY"]}]})  # fmt: skip
        expected = by_hand(
            ws, "SELECT sum(spend) FROM customers WHERE state IS NULL OR state NOT IN ('CA', 'NY')"
        )
    assert got["rows"] == expected == [[80]]


def test_a_metrics_not_equal_condition_counts_the_rows_with_no_value(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "group_by": ["segment"],
                        "metrics": [{"fn": "count", "where": "state != 'CA'", "as": "outside"},
                                    {"fn": "count", "where": "state not in ('CA', 'TX')", "as": "rest"}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT segment, count(*) FILTER (WHERE state IS NULL OR state <> 'CA'), "
            "count(*) FILTER (WHERE state IS NULL OR state NOT IN ('CA', 'TX')) FROM customers GROUP BY 1",
        )
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)


def test_a_not_equal_condition_on_an_output_keeps_the_groups_where_it_is_null(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "group_by": ["state"], "metrics": [{"fn": "avg", "column": "spend", "where": "segment = 'b'", "as": "b_spend"}],
                        "filters": [{"column": "b_spend", "op": "!=", "value": 60}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT state, b_spend FROM (SELECT state, avg(spend) FILTER (WHERE segment = 'b') AS b_spend "
            "FROM customers GROUP BY 1) WHERE b_spend IS NULL OR b_spend <> 60",
        )
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)
    assert len(expected) == 3  # NY and TX have no 'b' row (NULL), NULL state has 30


# --- pct: % of the rows whose condition is known, and how many were not --------------------------------


def test_pct_leaves_rows_with_no_value_out_of_its_denominator_and_counts_them(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "group_by": ["segment"],
                        "metrics": [{"fn": "pct", "where": "spend > 25", "as": "big"}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT segment, 100.0 * count(*) FILTER (WHERE spend > 25) / count(spend), "
            "count(*) FILTER (WHERE spend IS NULL) FROM customers GROUP BY 1",
        )
    assert got["columns"] == ["segment", "big", "big_unknown"]
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)
    assert ["b", 100.0, 1] in got["rows"]  # 30 and 60 of three rows, the third has no spend


def test_pct_of_a_not_equal_condition_judges_only_rows_with_a_value(customers):
    with Workspace.open(customers) as ws:
        got = call(
            ws, {"table": "customers", "metrics": [{"fn": "pct", "where": "state != 'CA' and spend > 0"}]}
        )
        expected = by_hand(
            ws,
            "SELECT 100.0 * count(*) FILTER (WHERE state <> 'CA' AND spend > 0) / count(*) FILTER "
            "(WHERE state IS NOT NULL AND spend IS NOT NULL), count(*) FILTER (WHERE state IS NULL OR spend IS NULL) "
            "FROM customers",
        )
    assert got["rows"] == expected
    assert got["columns"] == ["pct_state", "pct_state_unknown"]


def test_pct_says_nothing_more_when_every_row_is_known(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "metrics": [{"fn": "pct", "where": "id > 4"}]})
        expected = by_hand(ws, "SELECT 100.0 * count(*) FILTER (WHERE id > 4) / count(*) FROM customers")
    assert got == {**got, "columns": ["pct_id"], "rows": expected}


# --- share: within each time bucket, of the true distinct count, or refused with the reason ------------


@pytest.fixture
def energy(tmp_path: Path) -> Path:
    return database(
        tmp_path / "e.duckdb",
        "CREATE TABLE energy (d DATE, source VARCHAR, customer INTEGER, mwh INTEGER)",
        "INSERT INTO energy VALUES ('2020-03-01', 'wind', 1, 10), ('2020-05-01', 'coal', 1, 90),"
        " ('2020-06-01', 'coal', 2, 30), ('2021-02-01', 'wind', 2, 60), ('2021-04-01', 'coal', 2, 40),"
        " ('2021-07-01', 'solar', 3, 100)",
    )


def test_share_with_a_time_grain_is_each_groups_percent_within_its_bucket(energy):
    with Workspace.open(energy) as ws:
        got = call(ws, {"table": "energy", "time_grain": "year", "group_by": ["source"],
                        "metrics": [{"fn": "sum", "column": "mwh", "share": True}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT CAST(year(d) AS VARCHAR), source, sum(mwh), "
            "100.0 * sum(mwh) / sum(sum(mwh)) OVER (PARTITION BY year(d)) FROM energy GROUP BY year(d), source",
        )
    assert got["columns"] == ["year", "source", "sum_mwh", "sum_mwh_share_in_year"]
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)
    assert ["2020", "wind", 10, 7.692308] in got["rows"]  # 10 of 130 in 2020, not 10 of 330


def test_share_of_a_distinct_count_is_of_the_true_distinct_total(energy):
    with Workspace.open(energy) as ws:
        got = call(ws, {"table": "energy", "group_by": ["source"],
                        "metrics": [{"fn": "count_distinct", "column": "customer", "share": True}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT source, count(DISTINCT customer), 100.0 * count(DISTINCT customer) / "
            "(SELECT count(DISTINCT customer) FROM energy) FROM energy GROUP BY source",
        )
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)
    assert ["coal", 2, 66.66667] in got["rows"]  # 2 of the 3 customers (not 2 of 2 + 2 + 1)


def test_share_of_a_distinct_count_per_bucket_is_of_that_buckets_distinct_total(energy):
    with Workspace.open(energy) as ws:
        got = call(ws, {"table": "energy", "time_grain": "year", "group_by": ["source"],
                        "filters": [{"column": "mwh", "op": ">", "value": 10}],
                        "metrics": [{"fn": "count_distinct", "column": "customer", "share": True}]})  # fmt: skip
        expected = by_hand(
            ws,
            "WITH kept AS (SELECT * FROM energy WHERE mwh > 10), "
            "totals AS (SELECT year(d) AS y, count(DISTINCT customer) AS n FROM kept GROUP BY 1) "
            "SELECT CAST(year(d) AS VARCHAR), source, count(DISTINCT customer), "
            "100.0 * count(DISTINCT customer) / any_value(n) FROM kept JOIN totals ON year(d) = y GROUP BY year(d), source",
        )
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)


@pytest.mark.parametrize(
    ("extra", "reason"),
    [({"period": "2021-01-01..2021-12-31", "baseline": "2020-01-01..2020-12-31"}, "baseline"),
     ({"time_grain": "year", "baseline": "previous"}, "baseline")],
)  # fmt: skip
def test_share_beside_a_baseline_is_refused_with_the_reason(energy, extra, reason):
    with Workspace.open(energy) as ws:
        text = refused(ws, {"table": "energy", "group_by": ["source"], **extra,
                            "metrics": [{"fn": "sum", "column": "mwh", "share": True}]})  # fmt: skip
    assert reason in text and "share" in text


def test_share_of_an_average_is_refused(energy):
    with Workspace.open(energy) as ws:
        text = refused(ws, {"table": "energy", "group_by": ["source"],
                            "metrics": [{"fn": "avg", "column": "mwh", "share": True}]})  # fmt: skip
    assert "share works with fn count, sum, count_distinct" in text


# --- previous on a sparse series: the last bucket with data, named ----------------------------------------


@pytest.fixture
def census(tmp_path: Path) -> Path:
    return database(
        tmp_path / "census.duckdb",
        "CREATE TABLE census (d DATE, region VARCHAR, people INTEGER)",
        "INSERT INTO census VALUES ('2000-04-01', 'n', 100), ('2000-04-01', 's', 50), ('2005-04-01', 'n', 120),"
        " ('2010-04-01', 'n', 130), ('2010-04-01', 's', 80), ('2015-04-01', 's', 90)",
    )


LAG_BY_HAND = """
    WITH y AS (SELECT year(d) AS y, {key} sum(people) AS n FROM census {where} GROUP BY ALL)
    SELECT CAST(y AS VARCHAR), CAST(lag(y) OVER w AS VARCHAR), {key} n, lag(n) OVER w, n - lag(n) OVER w
    FROM y {keep} WINDOW w AS ({partition} ORDER BY y)"""


def test_previous_on_a_series_recorded_every_few_years_compares_with_the_last_year_recorded(census):
    with Workspace.open(census) as ws:
        got = call(ws, {"table": "census", "time_grain": "year", "baseline": "previous",
                        "metrics": [{"fn": "sum", "column": "people"}]})  # fmt: skip
        expected = by_hand(ws, LAG_BY_HAND.format(key="", where="", keep="", partition=""))
    assert got["columns"][:2] == ["year", "year_baseline"]
    assert [r[:5] for r in got["rows"]] == expected
    assert got["rows"][1][:5] == ["2005", "2000", 120, 150, -30]  # not 2004: a baseline of 0, +120


def test_previous_within_groups_and_a_period_reaches_back_past_the_period(census):
    with Workspace.open(census) as ws:
        got = call(ws, {"table": "census", "time_grain": "year", "group_by": ["region"], "baseline": "previous",
                        "period": "2010-01-01..2015-12-31", "metrics": [{"fn": "sum", "column": "people"}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT * FROM ("
            + LAG_BY_HAND.format(key="region,", where="", keep="", partition="PARTITION BY region")
            + ") WHERE CAST(#1 AS INTEGER) >= 2010 ORDER BY 1, 3",
        )
    assert got["columns"][:3] == ["year", "year_baseline", "region"]
    assert [r[:6] for r in got["rows"]] == expected
    assert ["2010", "2005", "n", 130, 120, 10] in [r[:6] for r in got["rows"]]


def test_previous_with_a_date_part_in_group_by_steps_along_it(census):
    with Workspace.open(census) as ws:
        got = call(ws, {"table": "census", "group_by": ["d.year"], "baseline": "previous",
                        "metrics": [{"fn": "sum", "column": "people"}]})  # fmt: skip
        expected = by_hand(ws, LAG_BY_HAND.format(key="", where="", keep="", partition=""))
    assert got["columns"][:2] == ["d.year", "d.year_baseline"]
    assert [r[:5] for r in got["rows"]] == expected


# --- a date made of year and quarter (or month) columns ---------------------------------------------------


@pytest.fixture
def quarterly(tmp_path: Path) -> Path:
    return database(
        tmp_path / "q.duckdb",
        "CREATE TABLE quarterly (year INTEGER, quarter INTEGER, sales INTEGER)",
        "INSERT INTO quarterly VALUES (2015, 1, 10), (2015, 2, 20), (2015, 3, 30), (2015, 4, 40),"
        " (2016, 1, 50), (2016, 3, 70)",
    )


def test_year_and_quarter_columns_make_a_date_per_quarter(quarterly):
    with Workspace.open(quarterly) as ws:
        got = call(
            ws, {"table": "quarterly", "time_grain": "quarter", "metrics": [{"fn": "sum", "column": "sales"}]}
        )
        expected = by_hand(
            ws,
            "SELECT year || '-Q' || quarter, sum(sales) FROM quarterly GROUP BY year, quarter ORDER BY year, quarter",
        )
    assert got["rows"] == expected
    assert len(expected) == 6  # not one row per year labelled Q1


def test_a_period_on_a_date_of_quarters_reads_whole_quarters(quarterly):
    with Workspace.open(quarterly) as ws:
        got = call(ws, {"table": "quarterly", "period": "2015-04-01..2015-09-30",
                        "metrics": [{"fn": "sum", "column": "sales"}]})  # fmt: skip
        expected = by_hand(ws, "SELECT sum(sales) FROM quarterly WHERE year = 2015 AND quarter IN (2, 3)")
        text = refused(ws, {"table": "quarterly", "period": "2015-04-01..2015-08-31"})
    assert got["rows"] == expected == [[50]]
    assert "whole quarters" in text


def test_year_and_month_columns_make_a_date_per_month(tmp_path):
    path = database(
        tmp_path / "m.duckdb",
        "CREATE TABLE monthly (Year INTEGER, Month SMALLINT, n INTEGER)",
        "INSERT INTO monthly VALUES (2020, 1, 1), (2020, 2, 2), (2020, 12, 3), (2021, 2, 4)",
    )
    with Workspace.open(path) as ws:
        got = call(ws, {"table": "monthly", "time_grain": "month", "metrics": [{"fn": "sum", "column": "n"}]})
        expected = by_hand(
            ws, "SELECT printf('%d-%02d', Year, Month), sum(n) FROM monthly GROUP BY ALL ORDER BY 1"
        )
    assert got["rows"] == expected


# --- time between two dates: days(a - b), hours, months, years ----------------------------------------


@pytest.fixture
def shipping(tmp_path: Path) -> Path:
    return database(
        tmp_path / "s.duckdb",
        "CREATE TABLE orders (id INTEGER, region VARCHAR, order_date DATE, ship_date DATE, due_date DATE,"
        " placed TIMESTAMP, delivered TIMESTAMP)",
        "INSERT INTO orders VALUES"
        " (1, 'n', '2024-01-01', '2024-01-03', '2024-01-05', '2024-01-01 08:00', '2024-01-02 20:00'),"
        " (2, 'n', '2024-01-10', '2024-01-20', '2024-01-15', '2024-01-10 12:00', '2024-01-10 18:00'),"
        " (3, 's', '2024-02-01', '2024-02-02', '2024-02-10', '2024-02-01 00:00', '2024-02-04 12:00'),"
        " (4, 's', '2023-03-01', '2024-04-15', '2024-01-01', '2023-03-01 00:00', NULL),"
        " (5, 's', '2024-03-01', NULL, '2024-03-05', NULL, NULL)",
    )


def test_avg_days_between_two_date_columns(shipping):
    with Workspace.open(shipping) as ws:
        got = call(ws, {"table": "orders", "group_by": ["region"], "metrics": [
            {"fn": "avg", "column": "ship_date - order_date", "as": "to_ship"},
            {"fn": "avg", "column": "hours(delivered - placed)", "as": "hours"},
            {"fn": "max", "column": "months(ship_date - order_date)", "as": "months"}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT region, avg(ship_date - order_date), avg(epoch(delivered - placed) / 3600), "
            "max(date_sub('month', order_date, ship_date)) FROM orders GROUP BY region",
        )
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)
    assert ["n", 6, 21, 0] in got["rows"]  # 2 and 10 days; 36 and 6 hours


def test_a_condition_and_a_filter_on_days_between_two_dates(shipping):
    with Workspace.open(shipping) as ws:
        got = call(ws, {"table": "orders", "metrics": [
            {"fn": "count", "where": "days(ship_date - order_date) > 3", "as": "slow"},
            {"fn": "count", "where": "ship_date > due_date", "as": "late"}],
            "filters": [{"column": "years(ship_date - order_date)", "op": "<", "value": 1}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT count(*) FILTER (WHERE ship_date - order_date > 3), count(*) FILTER (WHERE ship_date > due_date) "
            "FROM orders WHERE date_sub('year', order_date, ship_date) < 1",
        )
    assert got["rows"] == expected == [[1, 1]]


def test_group_by_whole_days_between_two_timestamps(shipping):
    with Workspace.open(shipping) as ws:
        got = call(
            ws, {"table": "orders", "group_by": ["days(delivered - placed)"], "metrics": [{"fn": "count"}]}
        )
        expected = by_hand(
            ws, "SELECT floor(epoch(delivered - placed) / 86400), count(*) FROM orders GROUP BY 1"
        )
    assert got["columns"] == ["days(delivered - placed)", "count"]
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)


def test_days_between_a_date_and_a_number_is_refused(shipping):
    with Workspace.open(shipping) as ws:
        text = refused(ws, {"table": "orders", "metrics": [{"fn": "avg", "column": "days(ship_date - id)"}]})
    assert "needs two dates or timestamps; id is INTEGER" in text


# --- small frictions: limits said and raised, `as` like a column, per as a percent ------------------------


def test_eight_group_by_keys_are_one_call(tmp_path):
    names = [f"c{i}" for i in range(8)]
    path = database(
        tmp_path / "wide.duckdb",
        f"CREATE TABLE wide AS SELECT {', '.join(f'i % {i + 2} AS c{i}' for i in range(8))}, i AS v FROM range(500) t(i)",
    )
    with Workspace.open(path) as ws:
        got = call(
            ws, {"table": "wide", "group_by": names, "metrics": [{"fn": "sum", "column": "v"}], "limit": 5}
        )
        expected = by_hand(
            ws, f"SELECT {', '.join(names)}, sum(v) FROM wide GROUP BY ALL ORDER BY sum(v) DESC LIMIT 5"
        )
    assert got["rows"] == expected


def test_the_description_states_every_limit_the_arguments_check():
    from analytics_agent.tools.aggregate.doc import DESCRIPTION
    from analytics_agent.tools.aggregate.schema import (
        MAX_FILTERS,
        MAX_GROUP_BY,
        MAX_IN_VALUES,
        MAX_JOINS,
        MAX_METRICS,
    )

    told = (
        f"Max {MAX_METRICS} metrics, {MAX_GROUP_BY} group_by, {MAX_FILTERS} filters, {MAX_JOINS} joins, "
        f"{MAX_IN_VALUES} list values"
    )
    assert told in DESCRIPTION


def test_as_may_name_an_output_like_a_column_when_no_filter_makes_it_ambiguous(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "group_by": ["segment"], "order_by": "-spend",
                        "metrics": [{"fn": "sum", "column": "spend", "as": "spend"}]})  # fmt: skip
        expected = by_hand(
            ws, "SELECT segment, sum(spend) AS spend FROM customers GROUP BY 1 ORDER BY spend DESC NULLS LAST"
        )
        text = refused(ws, {"table": "customers", "group_by": ["segment"],
                            "metrics": [{"fn": "sum", "column": "spend", "as": "spend"}],
                            "filters": [{"column": "spend", "op": ">", "value": 10}]})  # fmt: skip
    assert got["columns"] == ["segment", "spend"] and got["rows"] == expected
    assert "a filter names it" in text


def test_per_of_a_part_over_its_whole_is_a_percent_named_so(customers):
    with Workspace.open(customers) as ws:
        got = call(ws, {"table": "customers", "group_by": ["segment"], "metrics": [
            {"fn": "count", "where": "state = 'CA'", "per": "count"}, {"fn": "count"},
            {"fn": "sum", "column": "spend", "per": "count_distinct_state"},
            {"fn": "count_distinct", "column": "state"}]})  # fmt: skip
        expected = by_hand(
            ws,
            "SELECT segment, 100.0 * count(*) FILTER (WHERE state = 'CA') / count(*), count(*), "
            "sum(spend) / count(DISTINCT state), count(DISTINCT state) FROM customers GROUP BY 1",
        )
    assert got["columns"] == [
        "segment", "count_if_state_pct_of_count", "count", "sum_spend_per_count_distinct_state",
        "count_distinct_state"]  # fmt: skip
    assert sorted(got["rows"], key=repr) == sorted(expected, key=repr)
