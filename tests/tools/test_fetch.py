"""Tool results are bounded end to end: a huge value is cut in SQL, before Python holds it, and the cut
says so; ordinary results come back exactly as the query gives them."""

from __future__ import annotations

import datetime
import json
import tracemalloc

import duckdb
import pytest

from analytics_agent.tools.executor import Executor
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.results.fetch import (
    MAX_FETCH_CHARS,
    MAX_LIST_ITEMS,
    MAX_VALUE_CHARS,
    decode_value,
    fetch_rows,
)
from analytics_agent.tools.run_sql import RunSql


@pytest.fixture
def run_sql(sample_db):
    from analytics_agent.db.connect import open_sandbox

    conn = open_sandbox(sample_db)
    # These tests measure memory, not time: on a loaded machine building three million items can pass the
    # default 15 s limit (the limit has its own tests, on an injected clock).
    executor = Executor(Registry([RunSql()]), conn, timeout_s=600)
    yield lambda query: executor.execute("run_sql", {"query": query})
    executor.close()
    conn.close()


def _python_peak_mb(call):
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_a_huge_list_value_is_cut_before_python_holds_it(run_sql):
    """Before: all three million items became Python ints (well over 100 MB), then shaping showed 0 rows."""
    items = 3_000_000
    outcome, peak_mb = _python_peak_mb(lambda: run_sql(f"SELECT range(0, {items}) AS r"))
    assert not outcome.is_error, outcome.text
    value = json.loads(outcome.text)["rows"][0][0]
    assert value[:MAX_LIST_ITEMS] == list(range(MAX_LIST_ITEMS))
    assert value[MAX_LIST_ITEMS:] == [f"… {items - MAX_LIST_ITEMS} more"]
    assert peak_mb < 20


def test_a_huge_text_value_is_cut_and_says_how_long_it_was(run_sql):
    outcome, peak_mb = _python_peak_mb(lambda: run_sql("SELECT repeat('ab', 4000000) AS t, 7 AS n"))
    text, n = json.loads(outcome.text)["rows"][0]
    assert text == "ab" * (MAX_VALUE_CHARS // 2) + "…[truncated: 8,000,000 chars]"
    assert n == 7
    assert peak_mb < 20


def test_a_query_ending_in_a_comment_with_more_than_fifty_rows(run_sql):
    """Before: the row-count wrapper put its ')' inside the trailing comment and the call failed."""
    outcome = run_sql("SELECT i FROM range(120) t(i) ORDER BY i -- every i")
    result = json.loads(outcome.text)
    assert not outcome.is_error
    assert result["row_count"] == 120 and result["rows"][:3] == [[0], [1], [2]] and result["truncated"]


def test_ordered_results_keep_their_order_and_duplicate_names(sample_db):
    query = "SELECT order_id AS a, amount AS a, day FROM orders ORDER BY amount DESC, order_id LIMIT 60"
    conn = duckdb.connect(str(sample_db), read_only=True)
    try:
        expected = conn.execute(query).fetchmany(51)
        result = fetch_rows(conn.cursor(), query)
    finally:
        conn.close()
    assert result.columns == ("a", "a", "day")
    assert result.rows == expected and result.total == 60


def test_nested_values_come_back_as_json_values(sample_db):
    conn = duckdb.connect()
    try:
        result = fetch_rows(
            conn,
            "SELECT {'k': [1, 2]} AS s, MAP {'x': 1} AS m, 'abc'::BLOB AS b, [1.5, 'NaN'::DOUBLE] AS l, "
            "NULL::INTEGER[] AS empty, 'plain' AS t",
        )
    finally:
        conn.close()
    (row,) = result.rows
    assert row[:3] == ({"k": [1, 2]}, {"x": 1}, "<3 bytes>")
    assert row[3][0] == 1.5 and row[3][1] != row[3][1]  # NaN travels as NaN; shaping makes it null
    assert row[4:] == (None, "plain")


def test_parameters_are_bound_as_in_the_original_query():
    conn = duckdb.connect()
    try:
        named = fetch_rows(conn, "SELECT $a + 1 AS n, $b AS s", {"a": 41, "b": "x"})
        positional = fetch_rows(conn, "SELECT ? * 2 AS n", [21])
    finally:
        conn.close()
    assert named.rows == [(42, "x")] and positional.rows == [(42,)]


def test_a_very_wide_result_fetches_a_bounded_amount():
    conn = duckdb.connect()
    columns = ", ".join(f"repeat('v', 500) AS c{i}" for i in range(2000))
    try:
        result, peak_mb = _python_peak_mb(lambda: fetch_rows(conn, f"SELECT {columns} FROM range(200)"))
    finally:
        conn.close()
    fetched = sum(len(str(v)) for row in result.rows for v in row)
    assert len(result.columns) == 2000 and result.total == 200
    assert (
        0 < len(result.rows) < 51 and fetched <= MAX_FETCH_CHARS + 2000 * 80
    )  # one row past the budget at most
    assert peak_mb < 50


@pytest.mark.parametrize(
    ("kind", "cut", "size", "expected"),
    [
        ("text", "abc", 3, "abc"),
        ("text", "x" * 11, 500, "x" * 10 + "…[truncated: 500 chars]"),
        ("list", "[1,2]", 7, [1, 2, "… 5 more"]),
        ("list", "[1,2]", 2, [1, 2]),
        ("nested", '{"a":[1]}', None, {"a": [1]}),
        ("nested", "[" * 11, None, "[" * 10 + "…[truncated: too long to show]"),
        ("nested", "[" * 5000 + "]" * 5000, None, "[" * 5000 + "]" * 5000),  # too deep for json: as text
        ("blob", None, 12, "<12 bytes>"),
        ("text", None, None, None),
    ],
)
def test_decode_value(kind, cut, size, expected):
    limit = 10 if len(str(cut)) < 20 else 100_000
    assert decode_value(kind, cut, size, limit) == expected


def test_a_sql_tool_binds_its_query_twice_per_kind_of_arguments_then_reuses_the_plan(sample_db, monkeypatch):
    from analytics_agent.tools.results import fetch as fetch
    from analytics_agent.workspace.workspace import Workspace

    planned: list[tuple] = []
    real = fetch._plan

    def counting(cursor, sql, params, max_rows, **kwargs):
        planned.append((fetch._signature(params), kwargs["learn"]))
        return real(cursor, sql, params, max_rows, **kwargs)

    monkeypatch.setattr(fetch, "_plan", counting)
    with Workspace.open(sample_db) as ws:
        pune = json.loads(ws.executor.execute("sales_summary", {"city": "Pune", "day": "2026-10-24"}).text)
        again = json.loads(ws.executor.execute("sales_summary", {"city": "Pune", "day": "2026-10-24"}).text)
        delhi = json.loads(ws.executor.execute("sales_summary", {"city": "Delhi", "day": "2026-10-18"}).text)
        direct = (
            ws.cursor()
            .execute("SELECT count(*) FROM orders WHERE city = 'Delhi' AND day = DATE '2026-10-18'")
            .fetchone()[0]
        )
    assert pune == again and pune["orders"] == 3
    assert delhi["orders"] == direct  # a cached plan binds the new values, not the old ones
    # a one-shot call never pays for DuckDB's facts; the second use learns them, later ones reuse the plan
    assert [learn for _, learn in planned] == [False, True]
    assert len({signature for signature, _ in planned}) == 1


def test_arguments_of_another_type_get_their_own_plan():
    from analytics_agent.tools.results.fetch import fetch_rows

    conn = duckdb.connect()
    plans: dict = {}
    text = fetch_rows(conn, "SELECT $v AS v", {"v": "x" * 5000}, plans=plans)
    number = fetch_rows(conn, "SELECT $v AS v", {"v": 7}, plans=plans)
    assert len(plans) == 2
    assert len(text.rows[0][0]) < 5000  # text is cut: its plan knows the column is text
    assert number.rows == [(7,)]


# A kept plan (a .sql tool's) asks DuckDB's parse tree and plan what the wrapper can leave out: a query of
# at most one row needs no LIMIT, a column that is a parameter is cut in Python. What it returns must be
# what the full wrapper returns, cut for cut and row for row.

_ONE_ROW = "SELECT $s AS s, count(*) AS n, sum(i) AS total, DATE '2026-01-02' AS d FROM range(1000) t(i)"


@pytest.mark.parametrize("given", ["Pune", "e\u0301\u0303🦆" * 700, ""])
def test_a_kept_one_row_plan_runs_the_query_itself_and_cuts_like_the_wrapper(given):
    conn = duckdb.connect()
    plans: dict = {}
    try:
        kept = [fetch_rows(conn, _ONE_ROW, {"s": given}, max_rows=1, plans=plans) for _ in range(2)]
        wrapped = fetch_rows(conn, _ONE_ROW, {"s": given}, max_rows=1)
    finally:
        conn.close()
    assert kept[0] == kept[1] == wrapped
    assert wrapped.rows[0][1:] == (1000, 499500, datetime.date(2026, 1, 2))
    (plan,) = plans.values()
    assert plan.query.strip() == _ONE_ROW  # no wrapper: nothing to cut, no row to spare
    if len(given) > MAX_VALUE_CHARS:
        assert wrapped.rows[0][0].endswith(f"…[truncated: {len(given):,} chars]")


def test_a_kept_plan_still_cuts_values_it_cannot_know_before_python_holds_them():
    query = (
        "SELECT $s AS s, map_from_entries(list((i::VARCHAR, i))) AS m, string_agg(i::VARCHAR, ',') AS t, "
        "list(i) AS l FROM range(300000) t(i)"
    )
    conn = duckdb.connect()
    plans: dict = {}
    try:
        fetch_rows(conn, query, {"s": "x"}, plans=plans)
        result, peak_mb = _python_peak_mb(lambda: fetch_rows(conn, query, {"s": "x"}, plans=plans))
        full_length = conn.execute(
            "SELECT length(string_agg(i::VARCHAR, ',')) FROM range(300000) t(i)"
        ).fetchone()[0]
    finally:
        conn.close()
    (row,) = result.rows
    assert row[0] == "x" and result.total == 1
    assert row[1].endswith("…[truncated: too long to show]")
    assert row[2].endswith(f"…[truncated: {full_length:,} chars]") and len(row[2]) < MAX_VALUE_CHARS + 40
    assert row[3][-1] == f"… {300000 - MAX_LIST_ITEMS} more"
    assert peak_mb < 20


@pytest.mark.parametrize(
    "query",
    [
        "SELECT i % 70 AS g, count(*) AS n FROM range(7000) t(i) GROUP BY g ORDER BY g",
        "SELECT i AS g, i * 2 AS n FROM range(70) t(i) ORDER BY i",
        "SELECT count(*) AS g, 1 AS n FROM range(70) UNION ALL SELECT i, 2 FROM range(69) t(i) ORDER BY 2, 1",
    ],
)
def test_a_kept_plan_of_many_rows_keeps_the_cap_and_the_count(query):
    conn = duckdb.connect()
    plans: dict = {}
    try:
        kept = fetch_rows(conn, query, plans=plans)
        expected = conn.execute(query).fetchmany(51)
    finally:
        conn.close()
    assert kept.rows == expected and len(kept.rows) == 51 and kept.total == 70
    (plan,) = plans.values()
    assert plan.query.endswith("LIMIT 51")  # what turns ORDER BY into a top-N, not a full sort


def test_a_kept_plan_of_an_aggregate_filtered_to_nothing_says_zero_rows():
    conn = duckdb.connect()
    try:
        result = fetch_rows(conn, "SELECT count(*) AS n FROM range(10) HAVING count(*) > 100", plans={})
    finally:
        conn.close()
    assert result.rows == [] and result.total == 0


def test_a_parameter_among_starred_columns_is_still_cut_in_sql():
    """``*`` expands to several columns, so the parse tree's positions are not the result's: no shortcut."""
    conn = duckdb.connect()
    plans: dict = {}
    try:
        result = fetch_rows(
            conn,
            "SELECT *, $s AS s FROM (SELECT count(*) AS n FROM range(3))",
            {"s": "y" * 5000},
            plans=plans,
        )
    finally:
        conn.close()
    assert result.rows[0][0] == 3 and result.rows[0][1].endswith("…[truncated: 5,000 chars]")
    (plan,) = plans.values()
    assert plan.kinds == ["plain", "text"]
