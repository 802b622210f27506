"""The newer aggregate forms on real DuckDB files: the business time zone around New Year, compact labels,
whole last days, fan-out refused, conditions bound, comparisons and shares, results bounded."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from real_data import build_real_db

from analytics_agent.workspace.workspace import Workspace

# Instants around New Year seen from Kolkata (UTC+05:30): the first two are 2026 there, 2025 in UTC.
EVENTS = [
    ("2025-12-31 19:00:00+00", 1),  # 2026-01-01 00:30 in Kolkata
    ("2025-12-31 23:59:00+00", 2),  # 2026-01-01 05:29
    ("2025-12-31 18:00:00+00", 4),  # 2025-12-31 23:30
    ("2026-01-01 18:29:00+00", 8),  # 2026-01-01 23:59, the last minute of the day
    ("2026-01-01 18:31:00+00", 16),  # 2026-01-02 00:01
]


@pytest.fixture
def events_db(tmp_path: Path) -> Path:
    path = tmp_path / "events.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE events (happened TIMESTAMPTZ, amount INTEGER)")
        conn.executemany("INSERT INTO events VALUES (CAST(? AS TIMESTAMPTZ), ?)", EVENTS)
    return path


def rows(ws: Workspace, args: dict) -> list[list[object]]:
    out = ws.executor.execute("aggregate", json.dumps(args))
    assert not out.is_error, out.text
    return json.loads(out.text)["rows"]


@pytest.mark.parametrize(
    ("grain", "expected"),
    [
        ("year", [["2025", 4], ["2026", 27]]),
        ("quarter", [["2025-Q4", 4], ["2026-Q1", 27]]),
        ("month", [["2025-12", 4], ["2026-01", 27]]),
        ("week", [["2026-W01", 31]]),  # 31 Dec 2025 is a Wednesday of ISO week 2026-W01
        ("day", [["2025-12-31", 4], ["2026-01-01", 11], ["2026-01-02", 16]]),
    ],
)
def test_timestamps_are_bucketed_in_the_business_zone_with_compact_labels(events_db, grain, expected):
    with Workspace.open(events_db, timezone="Asia/Kolkata") as ws:
        assert (
            rows(ws, {"table": "events", "metrics": [{"fn": "sum", "column": "amount"}], "time_grain": grain})
            == expected
        )


def test_the_same_instants_in_utc_fall_in_the_other_year(events_db):
    with Workspace.open(events_db, timezone="UTC") as ws:
        got = rows(
            ws, {"table": "events", "metrics": [{"fn": "sum", "column": "amount"}], "time_grain": "year"}
        )
    assert got == [["2025", 7], ["2026", 24]]


@pytest.mark.parametrize(
    ("op", "value", "total"),
    [
        ("between", ["2026-01-01", "2026-01-01"], 11),  # the whole last day, to 23:59
        ("=", "2026-01-01", 11),
        ("<=", "2025-12-31", 4),
        ("<", "2026-01-01", 4),
        (">", "2026-01-01", 16),
        (">=", "2026-01-02", 16),
    ],
)
def test_a_day_given_to_a_timestamp_column_means_the_whole_local_day(events_db, op, value, total):
    with Workspace.open(events_db, timezone="Asia/Kolkata") as ws:
        args = {"table": "events", "metrics": [{"fn": "sum", "column": "amount"}],
                "filters": [{"column": "happened", "op": op, "value": value}]}  # fmt: skip
        assert rows(ws, args) == [[total]]


def test_hour_and_day_of_week_are_local(events_db):
    with Workspace.open(events_db, timezone="Asia/Kolkata") as ws:
        hours = rows(ws, {"table": "events", "time_grain": "hour"})
        days = rows(ws, {"table": "events", "time_grain": "day_of_week"})
    assert hours == [[0, 2], [5, 1], [23, 2]]
    assert days == [["Wed", 1], ["Thu", 3], ["Fri", 1]]  # 2025-12-31 was a Wednesday


def test_a_date_part_is_a_name_in_filters_conditions_metrics_and_groups_in_the_local_zone(events_db):
    """Weekends, "after 5 am", "per day": a date column's part or bucket, e.g. happened.day_of_week, is
    read in the business zone wherever a column name goes; Kolkata sees events 1, 2, 8 on Thursday 1 Jan."""
    sum_amount = {"fn": "sum", "column": "amount"}
    with Workspace.open(events_db, timezone="Asia/Kolkata") as ws:
        thursday = [{"column": "happened.day_of_week", "op": "=", "value": "Thu"}]
        assert rows(ws, {"table": "events", "metrics": [sum_amount], "filters": thursday}) == [[11]]
        late = {**sum_amount, "where": "happened.hour >= 5"}  # 05:29, 23:30, 23:59 local
        assert rows(ws, {"table": "events", "metrics": [late]}) == [[14]]
        days = {"fn": "count_distinct", "column": "happened.day"}
        per_day = {"fn": "count", "per": "count_distinct_happened.day"}
        assert rows(ws, {"table": "events", "metrics": [per_day, days]}) == [[1.666667, 3]]
        by_month = rows(
            ws, {"table": "events", "metrics": [sum_amount], "group_by": ["happened.month_of_year"]}
        )
        assert by_month == [["Jan", 27], ["Dec", 4]]
    with Workspace.open(events_db, timezone="UTC") as ws:  # in UTC only the last two are on Thursday
        assert rows(ws, {"table": "events", "metrics": [sum_amount], "filters": thursday}) == [[8 + 16]]


def test_weekdays_and_months_come_in_calendar_order_not_alphabetical(real):
    days = rows(real, {"table": "flights", "group_by": ["time_hour.day_of_week"]})
    assert [d for d, _ in days] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    last = {"table": "flights", "time_grain": "month_of_year", "order_by": "-month_of_year", "limit": 2}
    assert [m for m, _ in rows(real, last)] == ["Dec", "Nov"]


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("happened.dayofweek", "Thu", "filters: 'dayofweek' is not a date part; did you mean 'day_of_week'"),
        ("happened.day_of_week", "Thursday", "happened.day_of_week holds 'Mon', 'Tue',"),
        ("happened.month_of_year", "January", "happened.month_of_year holds 'Jan', 'Feb',"),
        ("amount.day", 1, "filters: no relationship or table 'amount'"),  # not a date column
    ],
)
def test_a_date_part_that_does_not_exist_or_a_value_it_never_holds_is_named(events_db, name, value, error):
    with Workspace.open(events_db, timezone="UTC") as ws:
        out = ws.executor.execute(
            "aggregate", {"table": "events", "filters": [{"column": name, "op": "=", "value": value}]}
        )
    assert out.is_error and "\n" not in out.text
    assert error in out.text


def test_an_unknown_column_lists_the_date_parts_too(events_db):
    with Workspace.open(events_db, timezone="UTC") as ws:
        out = ws.executor.execute("aggregate", {"table": "events", "group_by": ["weekday"]})
    assert (
        "date parts: happened.<day|week|month|quarter|year|decade|day_of_week|hour|month_of_year>" in out.text
    )


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory):
    db = build_real_db(tmp_path_factory.mktemp("forms") / "real.duckdb")
    with Workspace.open(db, timezone="America/New_York") as ws:
        yield ws


def test_a_join_that_would_fan_out_is_refused_with_the_reason(real):
    out = real.executor.execute("aggregate", {"table": "airlines", "group_by": ["flights.origin"]})
    assert out.is_error and "\n" not in out.text
    assert "airlines to flights is one-to-many" in out.text and "double-count" in out.text
    assert "table 'flights' and group by airlines.<column>" in out.text


def test_an_ambiguous_or_missing_relationship_says_which_names_work(real):
    out = real.executor.execute("aggregate", {"table": "flights", "group_by": ["airports.name"]})
    assert (
        out.text
        == "Error: group_by: flights refers to airports through several columns; use dest.<column> or origin.<column>"
    )
    out = real.executor.execute("aggregate", {"table": "penguins", "group_by": ["flights.origin"]})
    assert "penguins has no many-to-one relationship to flights" in out.text


def test_condition_values_are_bound_not_spliced(real):
    args = {
        "table": "flights",
        "metrics": [{"fn": "count", "where": "carrier like 'UA'' OR ''1''=''1'"}, {"fn": "count"}],
    }
    assert rows(real, args) == [[0, real.cursor().execute("SELECT count(*) FROM flights").fetchone()[0]]]
    args["metrics"][0]["where"] = "carrier = 'UA'' OR ''1''=''1'"  # one value, which no row holds
    assert real.executor.execute("aggregate", args).text == "Error: no rows where carrier = \"UA' OR '1'='1\""


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (  # in a list, the other value would have answered alone
            {"table": "flights", "filters": [{"column": "carrier", "op": "in", "value": ["UA", "XX"]}]},
            "no rows where carrier = 'XX'",
        ),
        (  # a condition's typo would be a plain 0 %
            {"table": "penguins", "metrics": [{"fn": "pct", "column": "sex", "where": "sex = 'Female'"}]},
            "no rows where sex = 'Female'; did you mean 'female'?",
        ),
        (  # not_in / != a typo would keep every row
            {
                "table": "flights",
                "filters": [{"column": "airlines.name", "op": "not_in", "value": ["United Air Lines"]}],
            },
            "no rows where airlines.name = 'United Air Lines'; did you mean 'United Air Lines Inc.'",
        ),
        (  # a column too many values to list in the profile is checked in the table itself
            {"table": "flights", "metrics": [{"fn": "count", "where": "tailnum != 'N0EGMQX'"}]},
            "no rows where tailnum = 'N0EGMQX'",
        ),
    ],
)
def test_a_value_no_row_holds_is_refused_where_it_would_change_the_answer_silently(real, args, error):
    out = real.executor.execute("aggregate", args)
    assert out.is_error and error in out.text, out.text


def test_pct_needs_a_condition_and_a_comparison_needs_a_period(real):
    out = real.executor.execute("aggregate", {"table": "flights", "metrics": [{"fn": "pct"}]})
    assert out.text.startswith("Error: metrics: pct needs where")
    out = real.executor.execute("aggregate", {"table": "flights", "baseline": "2013-01-01..2013-01-31"})
    assert out.text == "Error: baseline needs a period to compare with it"


def test_shares_are_of_every_group_even_when_a_group_condition_keeps_a_few(real):
    args = {"table": "flights", "group_by": ["origin"], "metrics": [{"fn": "count", "share": True}],
            "filters": [{"column": "count", "op": ">", "value": 1000}]}  # fmt: skip
    got = rows(real, args)
    counts = dict(real.cursor().execute("SELECT origin, count(*) FROM flights GROUP BY 1").fetchall())
    total = sum(counts.values())
    assert [r[0] for r in got] == sorted((o for o, n in counts.items() if n > 1000), key=lambda o: -counts[o])
    assert all(abs(share - 100 * counts[o] / total) < 1e-3 for o, _, share in got)


def test_a_comparison_with_an_empty_baseline_gives_no_percentage_rather_than_an_error(real):
    args = {"table": "flights", "group_by": ["carrier"], "filters": [{"column": "carrier", "op": "=", "value": "HA"}],
            "period": "2013-01-01..2013-12-31", "baseline": "2012-01-01..2012-12-31"}  # fmt: skip
    ((carrier, now, before, change, pct),) = rows(real, args)
    expected = real.cursor().execute("SELECT count(*) FROM flights WHERE carrier = 'HA'").fetchone()[0]
    assert (carrier, now, before, change, pct) == ("HA", expected, 0, expected, None)


def test_a_daily_series_over_a_year_is_capped_and_says_so(real):
    out = real.executor.execute("aggregate", {"table": "flights", "time_grain": "day"})
    result = json.loads(out.text)
    days = real.cursor().execute("SELECT count(DISTINCT (year, month, day)) FROM flights").fetchone()[0]
    assert out.truncated and result["truncated"] is True and result["row_count"] == days > 50
    assert len(result["rows"]) <= 50 and result["rows"][0][0] == "2013-01-01"


def test_a_comparison_per_time_bucket_is_refused_with_what_to_drop(real):
    args = {"table": "flights", "time_grain": "month", "period": "2013-07-01..2013-07-31",
            "baseline": "2013-01-01..2013-01-31"}  # fmt: skip
    out = real.executor.execute("aggregate", args)
    assert (
        out.text
        == "Error: a period comparison is per group, not per time bucket: drop time_grain (or baseline), "
        "or use baseline 'previous' for each bucket against the one before"
    )


def test_a_big_key_is_checked_in_full_before_the_first_join_and_a_duplicate_refuses_it(tmp_path):
    from analytics_agent.db.catalog import SAMPLE_ROWS
    from analytics_agent.db.relationships import store_relationships

    db = tmp_path / "big.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute(
            f"CREATE TABLE accounts AS SELECT range AS account_id, range % 7 AS tier FROM range({SAMPLE_ROWS * 2})"
        )
        conn.execute("CREATE TABLE payments AS SELECT range * 3 AS account_id, 10 AS amount FROM range(1000)")
        (link,) = store_relationships(conn)
    assert (link.table, link.target, link.verified) == ("payments", "accounts", False)  # sampled only
    with Workspace.open(db) as ws:
        got = rows(ws, {"table": "payments", "group_by": ["accounts.tier"], "order_by": "accounts.tier"})
    assert got == [[t, sum(1 for i in range(1000) if (i * 3) % 7 == t)] for t in range(7)]
    with duckdb.connect(str(db)) as conn:
        conn.execute("INSERT INTO accounts VALUES (3, 0)")  # written behind the loader's back: a duplicate
    with Workspace.open(db) as ws:
        out = ws.executor.execute("aggregate", {"table": "payments", "group_by": ["accounts.tier"]})
    assert out.text == (
        "Error: accounts.account_id is not a unique key (1 rows repeat a value or are empty), so joining "
        "accounts would repeat rows and double-count; refused"
    )


def test_per_must_name_another_metric_of_the_same_call(real):
    args = {"table": "flights", "metrics": [{"fn": "sum", "column": "distance", "per": "sum_airtime"},
                                            {"fn": "sum", "column": "air_time"}]}  # fmt: skip
    out = real.executor.execute("aggregate", args)
    assert out.text.startswith(
        "Error: metrics: per 'sum_airtime' is not another metric of this call; did you mean 'sum_air_time'"
    )
    assert out.text.endswith("its metrics: sum_distance, sum_air_time")


def test_baseline_previous_sets_each_bucket_against_the_one_before_within_each_group(real):
    got = rows(
        real,
        {
            "table": "flights",
            "time_grain": "quarter",
            "group_by": ["origin"],
            "baseline": "previous",
            "filters": [{"column": "origin", "op": "in", "value": ["JFK", "LGA"]}],
        },
    )
    counts = dict(
        ((f"2013-Q{q}", o), n)
        for q, o, n in real.cursor()
        .execute("SELECT quarter(make_date(year, month, day)), origin, count(*) FROM flights GROUP BY 1, 2")
        .fetchall()
    )
    assert [r[:2] for r in got] == [[f"2013-Q{q}", o] for q in (1, 2, 3, 4) for o in ("JFK", "LGA")]
    for quarter, origin, n, before, change, _pct in got:
        previous = f"2013-Q{int(quarter[-1]) - 1}"
        assert n == counts[quarter, origin]
        assert before == counts.get((previous, origin)) and change == (None if before is None else n - before)


def test_baseline_previous_needs_a_time_grain_and_a_bad_baseline_names_both_forms(real):
    out = real.executor.execute("aggregate", {"table": "flights", "baseline": "previous"})
    assert (
        out.text
        == "Error: baseline 'previous' compares each time bucket with the one before: add a time_grain "
        "(or group_by a date part such as order_date.year)"
    )
    out = real.executor.execute("aggregate", {"table": "flights", "time_grain": "month", "baseline": "last"})
    assert "or 'previous' (each time_grain bucket against the one before)" in out.text
