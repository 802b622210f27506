"""A ``.sql`` tool's kept plan runs as a statement prepared once per cursor, its values written as SQL
literals: the same types, the same rows, the same text as the query run with bound parameters; and only
where DuckDB's plan says nothing it reads can change under a prepared statement."""

from __future__ import annotations

import datetime as dt
import json

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics_agent.tools.results.fetch import fetch_rows
from analytics_agent.tools.results.literals import execute_arguments, literal

_VALUES = [
    None,
    True,
    False,
    0,
    -5,
    2**31 - 1,
    2**31,  # past 32 bits: the client binds BIGINT
    -(2**31),
    -(2**31) - 1,
    2**63 - 1,
    -(2**63),
    0.1,
    -0.0,
    1e300,
    5e-324,
    1.2345678901234567e-05,
    "",
    "Pune",
    "it's",
    "''",
    "a\\b\\'",
    "'); DROP TABLE t; --",
    "$1 ? :x",
    "line\nbreak\ttab",
    "e\u0301🦆",
    dt.date(1, 1, 1),
    dt.date(2026, 10, 24),
    dt.date(9999, 12, 31),
]


@pytest.mark.parametrize("value", _VALUES, ids=repr)
def test_a_literal_has_the_type_and_value_the_client_binds(value):
    conn = duckdb.connect()
    try:
        conn.execute("PREPARE p AS SELECT typeof($x) AS t, $x AS v")
        prepared = conn.execute(f"EXECUTE p(x := {literal(value)})").fetchall()
        bound = conn.execute("SELECT typeof($x) AS t, $x AS v", {"x": value}).fetchall()
    finally:
        conn.close()
    assert repr(prepared) == repr(bound)  # repr: -0.0 and 0.0 differ, as do 1 and True


@pytest.mark.parametrize(
    "params",
    [
        {"s": "nul\x00byte"},  # DuckDB's parser would stop at the NUL
        {"t": dt.datetime(2026, 1, 1, 12)},  # a date's subclass, bound as a timestamp
        {"n": 2**63},  # past BIGINT
        {"f": float("nan")},
        {"b": b"bytes"},
        {"bad name": 1},
        {"x); DROP TABLE t; --": 1},
        [1, dt.time(1, 2)],
    ],
)
def test_a_value_without_a_trusted_literal_is_left_to_bound_parameters(params):
    assert execute_arguments(params) is None


def _tables(conn: duckdb.DuckDBPyConnection) -> None:
    conn.execute("CREATE TABLE t AS SELECT i, 'c' || (i % 3) AS city FROM range(100) r(i)")


def _prepared(conn: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM duckdb_prepared_statements()").fetchall()]


def test_a_kept_plan_is_prepared_once_and_executed_with_each_calls_values():
    query = "SELECT $city AS city, count(*) AS n, sum(i) AS total FROM t WHERE city = $city"
    conn = duckdb.connect()
    plans: dict = {}
    try:
        _tables(conn)
        got = [
            fetch_rows(conn, query, {"city": c}, max_rows=1, plans=plans) for c in ("c0", "c1", "c2", "c'")
        ]
        bound = [fetch_rows(conn, query, {"city": c}, max_rows=1) for c in ("c0", "c1", "c2", "c'")]
        (plan,) = plans.values()
        names = _prepared(conn)
        conn.execute("INSERT INTO t VALUES (1000, 'c1')")  # rows added after it was prepared are seen
        later = fetch_rows(conn, query, {"city": "c1"}, max_rows=1, plans=plans)
    finally:
        conn.close()
    assert got == bound
    assert got[3].rows == [("c'", 0, None)]
    assert plan.statement is not None and names == [plan.statement]
    assert later.rows == [("c1", 34, bound[1].rows[0][2] + 1000)]


def test_a_plan_reading_files_is_never_kept_prepared(tmp_path):
    """A view over files (a linked source) is bound again on every call, so a file added later is seen
    whatever DuckDB does with a prepared statement's file list."""
    folder = tmp_path / "parts"
    folder.mkdir()
    conn = duckdb.connect()
    plans: dict = {}
    try:
        for part in range(2):
            conn.execute(f"COPY (SELECT {part} AS i) TO '{folder}/p{part}.parquet'")
        conn.execute(f"CREATE VIEW v AS SELECT * FROM read_parquet('{folder}/*.parquet')")
        query = "SELECT count(*) AS n, $s AS s FROM v"
        counts = [fetch_rows(conn, query, {"s": "x"}, max_rows=1, plans=plans).rows[0][0] for _ in range(3)]
        conn.execute(f"COPY (SELECT 2 AS i) TO '{folder}/p2.parquet'")
        after = fetch_rows(conn, query, {"s": "x"}, max_rows=1, plans=plans).rows[0][0]
        names = _prepared(conn)
    finally:
        conn.close()
    (plan,) = plans.values()
    assert counts == [2, 2, 2] and after == 3
    assert plan.learned and plan.statement is None and names == []


def test_a_sql_tool_gives_the_same_text_prepared_as_bound(sample_db, tmp_path):
    """Values a model may send, quotes and all, through a user's tool: every call's text equals the
    query's own result with bound parameters."""
    from analytics_agent.workspace.workspace import Workspace

    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "echo.sql").write_text(
        "-- name: echo_city\n-- description: Orders of a city.\n-- tables: orders\n"
        "-- param s: string | Any text.\n-- param n: integer = 3 | A number.\n-- returns: object\n"
        "SELECT $s AS s, $n AS n, $n * 2 AS twice, count(*) AS orders FROM orders WHERE city = $s\n"
    )
    texts = ["Pune", "it's", "'); DROP TABLE orders; --", "a\\b", "e\u0301🦆", "Pune"]
    with Workspace.open(sample_db, tool_dirs=[tools]) as ws:
        outcomes = [ws.executor.execute("echo_city", {"s": s, "n": 2**31 + i}) for i, s in enumerate(texts)]
        cursor = ws.cursor()
        direct = [
            cursor.execute("SELECT count(*) FROM orders WHERE city = $s", {"s": s}).fetchone()[0]
            for s in texts
        ]
        (plan,) = ws.registry.get("echo_city")._plans.values()
        (idle,) = ws.executor._idle  # one call at a time: one cursor, kept for the next call
        names = _prepared(idle)
    results = [json.loads(o.text) for o in outcomes]
    assert [r["s"] for r in results] == texts
    assert [r["n"] for r in results] == [2**31 + i for i in range(len(texts))]
    assert [r["twice"] for r in results] == [2 * (2**31 + i) for i in range(len(texts))]
    assert [r["orders"] for r in results] == direct and direct[0] > 0
    assert names == [plan.statement]


def test_the_executor_keeps_a_cursor_for_the_next_call_and_closes_it_at_the_end(sample_db):
    from analytics_agent.workspace.workspace import Workspace

    ws = Workspace.open(sample_db)
    try:
        first = ws.executor.execute("sales_summary", {"city": "Pune", "day": "2026-10-24"})
        (kept,) = ws.executor._idle
        second = ws.executor.execute("sales_summary", {"city": "Pune", "day": "2026-10-24"})
        assert ws.executor._idle == [kept]
    finally:
        ws.close()
    assert first.text == second.text and not first.is_error
    with pytest.raises(duckdb.ConnectionException):
        kept.execute("SELECT 1")


def test_only_tables_of_the_database_itself_are_kept_prepared(tmp_path):
    """A file whose name DuckDB quotes in its plan (``"my-db".main.t``) is the database's own; a table of
    an attached database is not (another process may write that one)."""
    conn = duckdb.connect(str(tmp_path / "my-db.duckdb"))
    try:
        _tables(conn)
        conn.execute(f"ATTACH '{tmp_path / 'other.duckdb'}' AS other")
        conn.execute("CREATE TABLE other.u AS SELECT * FROM t")
        statements = {}
        for table in ("t", "other.u"):
            plans: dict = {}
            query = f"SELECT count(*) AS n, $c AS c FROM {table} WHERE city = $c"
            for _ in range(2):
                fetch_rows(conn, query, {"c": "c1"}, max_rows=1, plans=plans)
            (plan,) = plans.values()
            statements[table] = plan.statement
    finally:
        conn.close()
    assert statements["t"] is not None and statements["other.u"] is None


@given(st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",))))
@settings(max_examples=300, deadline=None)
def test_any_text_as_a_literal_is_that_text_and_nothing_more(text):
    """The one place that writes a value into SQL: whatever the text (quotes, backslashes, comments,
    semicolons, dollar signs, any script), the statement reads back exactly that text, one row."""
    conn = duckdb.connect()
    try:
        conn.execute("PREPARE p AS SELECT $x AS v")
        rows = conn.execute(f"EXECUTE p(x := {literal(text)})").fetchall()
    finally:
        conn.close()
    assert rows == [(text,)]


def test_aggregate_binds_a_query_text_once_for_calls_that_differ_in_values(sample_db, monkeypatch):
    """``aggregate`` writes its SQL per call; a call that differs from an earlier one only in its values
    (another city) reuses the first call's plan: the query is bound for its types once, and each answer is
    still its own (issue 22: no bind on every call)."""
    import analytics_agent.tools.results.fetch as fetch
    from analytics_agent.workspace.workspace import Workspace

    bound: list[str] = []
    real = fetch._plan
    monkeypatch.setattr(
        fetch, "_plan", lambda cursor, sql, *a, **k: bound.append(sql) or real(cursor, sql, *a, **k)
    )
    with Workspace.open(sample_db) as ws:
        cursor = ws.cursor()
        answers = {}
        for city in ("Pune", "Delhi", "Pune"):
            args = {
                "table": "orders",
                "metrics": [{"fn": "count"}],
                "filters": [{"column": "city", "op": "=", "value": city}],
            }
            outcome = ws.executor.execute("aggregate", json.dumps(args))
            assert not outcome.is_error, outcome.text
            answers[city] = json.loads(outcome.text)["rows"][0][0]
        expected = {
            c: cursor.execute("SELECT count(*) FROM orders WHERE city = ?", [c]).fetchone()[0]
            for c in ("Pune", "Delhi")
        }
    assert len(bound) == 1
    assert answers == expected and answers["Pune"] != answers["Delhi"]
