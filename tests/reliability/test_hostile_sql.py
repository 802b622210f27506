"""``run_sql`` against a hostile model: a source's ``tables`` list is the boundary (three-part names
included), and one value cannot be built past the time and memory limits (issue 24, vulnerabilities 4
and 6). An attached DuckDB file stands in for an attached PostgreSQL or DuckLake catalog: the names
resolve the same way."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from bounded_run import GIB, run_capped

from analytics_agent.db.catalog import LINKED, SEARCH_PATH
from analytics_agent.db.connect import open_sandbox
from analytics_agent.db.linked.link import Linked, lock_down
from analytics_agent.errors import ToolError
from analytics_agent.tools.run_sql import check_select


@pytest.fixture
def sandbox(tmp_path: Path):
    """A sandbox where source ``other`` (attached as ``src_other``) lists only its table ``open_t``."""
    other = tmp_path / "other.duckdb"
    with duckdb.connect(str(other)) as conn:
        conn.execute("CREATE TABLE open_t AS SELECT 1 AS x")
        conn.execute("CREATE SCHEMA private")
        conn.execute("CREATE TABLE private.payroll AS SELECT 'alice' AS name, 250000 AS salary")
        conn.execute("CREATE TABLE hidden AS SELECT 42 AS y")
    own = tmp_path / "shop.duckdb"
    with duckdb.connect(str(own)) as conn:
        conn.execute("CREATE TABLE orders AS SELECT 7 AS amount")

    def set_up(conn: duckdb.DuckDBPyConnection) -> None:
        conn.execute(f"ATTACH '{other}' AS src_other (READ_ONLY)")
        conn.execute(f"ATTACH ':memory:' AS {LINKED} (READ_WRITE)")
        conn.execute(f"SET search_path = '{SEARCH_PATH}'")
        conn.execute(f"CREATE VIEW {LINKED}.main.open_t AS SELECT * FROM src_other.main.open_t")
        lock_down(conn, Linked(allowed_paths=[str(other)]))

    conn = open_sandbox(own, set_up=set_up)
    yield conn.cursor()
    conn.close()


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * FROM src_other.private.payroll",
        "SELECT * FROM src_other.hidden",
        'SELECT * FROM "SRC_OTHER"."main"."hidden"',
        "SELECT name FROM (SELECT * FROM src_other.private.payroll) p",
        "WITH p AS (SELECT * FROM src_other.private.payroll) SELECT * FROM p",
        "SELECT (SELECT max(salary) FROM src_other.private.payroll)",
    ],
)
def test_three_part_names_cannot_reach_past_the_sources_tables(sandbox, query: str) -> None:
    with pytest.raises(ToolError, match="not the attached database 'src_other'"):
        check_select(sandbox, query)


def test_listed_tables_and_the_databases_own_still_answer(sandbox) -> None:
    assert sandbox.execute(check_select(sandbox, "SELECT x FROM open_t")).fetchall() == [(1,)]
    assert sandbox.execute(check_select(sandbox, "SELECT amount FROM shop.main.orders")).fetchall() == [(7,)]
    assert sandbox.execute(check_select(sandbox, "SELECT x FROM linked.main.open_t")).fetchall() == [(1,)]


def run_sql_capped(db: Path, query: str):
    """``run_sql`` of ``query`` through the real executor, in a child held to 1.5 GB."""
    return run_capped(
        f"""
        from pathlib import Path
        from analytics_agent.db.connect import open_sandbox
        from analytics_agent.tools.executor import Executor
        from analytics_agent.tools.registry import Registry
        from analytics_agent.tools.run_sql import RunSql
        conn = open_sandbox(Path({str(db)!r}))
        outcome = Executor(Registry([RunSql()]), conn).execute("run_sql", {{"query": {query!r}}})
        print(outcome.text)
        """,
        memory_bytes=3 * GIB // 2,
    )


@pytest.mark.parametrize(
    ("query", "refusal"),
    [
        ("SELECT range(0, 50000000)", "range() would build one value of 50,000,000 items"),
        ("SELECT len(range(0, 50000000 + 1, 1))", "range() would build one value of 50,000,001 items"),
        ("SELECT repeat('x', 2000000000)", "repeat() would build one value"),
        (
            "SELECT generate_series(TIMESTAMP '1000-01-01', TIMESTAMP '3000-01-01', INTERVAL 1 MINUTE)",
            "generate_series()",
        ),
        ("SELECT range(0, (SELECT 50000000))", "not a subquery"),
    ],
)
def test_one_huge_value_is_refused_before_it_is_built(tmp_path: Path, query: str, refusal: str) -> None:
    """``SELECT range(0, 50000000)`` took 31 s and 2 GB against 15 s and 1 GB. Run through the real
    executor in a child held to 1.5 GB: refused in one line before DuckDB builds it."""
    db = tmp_path / "shop.duckdb"
    duckdb.connect(str(db)).close()
    result = run_sql_capped(db, query)
    assert result.stdout.startswith("Error: run_sql: "), result.stderr[-2000:]
    assert refusal in result.stdout


def test_small_ranges_and_rows_from_range_still_run(tmp_path: Path) -> None:
    db = tmp_path / "shop.duckdb"
    duckdb.connect(str(db)).close()
    conn = open_sandbox(db)
    cur = conn.cursor()
    assert cur.execute(check_select(cur, "SELECT len(range(10))")).fetchone() == (10,)
    assert cur.execute(check_select(cur, "SELECT count(*) FROM range(2000000)")).fetchone() == (2000000,)
    days = "SELECT len(generate_series(DATE '2026-01-01', DATE '2026-12-31', INTERVAL 1 DAY))"
    assert cur.execute(check_select(cur, days)).fetchone() == (365,)
    conn.close()


@pytest.mark.parametrize(
    ("query", "refusal"),
    [
        # lists whose size comes from the data: a CTE, a column, arithmetic on a column
        (
            "WITH t AS (SELECT 50000000 AS k) SELECT len(range(0, k)) FROM t",
            "range() takes its size from the data",
        ),
        (
            "SELECT list_resize([1], amount * 10000000) FROM orders",
            "list_resize() takes its size from the data",
        ),
        (
            "WITH t AS (SELECT 500000000 AS k) SELECT generate_series(1, k) FROM t",
            "generate_series() takes its size",
        ),
        # strings and blobs
        (
            "WITH t AS (SELECT 4000000 AS n) SELECT repeat(repeat('x', n), 1000) FROM t",
            "repeat() takes its size",
        ),
        ("SELECT lpad('x', amount * 100000000, 'y') FROM orders", "lpad() takes its size from the data"),
        ("SELECT repeat('\\xAA'::BLOB, 3000000000)", "repeat() would build one value"),
        # formatted
        ("SELECT printf('%900000000s', 'x')", "printf() would pad a value to 900,000,000 characters"),
        ("SELECT format('{:>900000000}', 'x')", "format() would pad a value to 900,000,000"),
        ("SELECT printf('%*s', 900000000, 'x')", "may not take a width from its arguments"),
        ("SELECT printf(status, 'x') FROM orders", "needs its format as a plain text constant"),
        # a width from an argument, fmt's way (round three, second pass: 900 MB built, 1.8 GB RSS)
        ("SELECT format('{:>{}}', 'x', 900000000)", "may not take a width from its arguments"),
        ("SELECT format('{:0>{}}', amount, amount * 200000000) FROM orders", "may not take a width"),
        ("SELECT format('{{}} {:^{}}', 'x', 900000000)", "may not take a width from its arguments"),
        # bitstrings: a count of bits, or the data's own range (bitstring_agg without min and max)
        ("SELECT bitstring('1', 8000000000)", "bitstring() would build one value"),
        (
            "SELECT bitstring('1', amount * 1600000000) FROM orders",
            "bitstring() takes its size from the data",
        ),
        (
            "SELECT bit_count(bitstring_agg(amount * 8000000000)) FROM orders",
            "bitstring_agg() takes its size from the data",
        ),
        ("SELECT bitstring_agg(amount, 0, 8000000000) FROM orders", "bitstring_agg() would build one value"),
        # nested growers
        (
            "SELECT hex(hex(hex(hex(hex(hex(hex(hex(repeat('x', 4000000)))))))))",
            "grows a value more than 64 times",
        ),
        ("SELECT bin(bin(hex(status))) FROM orders", "grows a value more than 64 times"),
        ("SELECT to_base64(hex(hex(hex(hex(hex(hex('ab')))))))", "grows a value more than 64 times"),
    ],
)
def test_every_class_of_value_builder_is_bounded_before_it_runs(
    tmp_path: Path, query: str, refusal: str
) -> None:
    """Issue 38 round three: a size taken from a CTE built 2-10 GB past the 1 GB limit, as did formatted
    widths and eight nested hex(). Each class (list, string, blob, formatted, nested) in three shapes, run
    through the real executor in a child held to 1.5 GB: refused in one line before DuckDB builds it."""
    db = tmp_path / "shop.duckdb"
    with duckdb.connect(str(db)) as conn:
        conn.execute("CREATE TABLE orders AS SELECT 5 AS amount, 'paid' AS status")
    result = run_sql_capped(db, query)
    assert result.stdout.startswith("Error: run_sql: "), result.stdout[:300] + result.stderr[-2000:]
    assert refusal in result.stdout and "\n" not in result.stdout.strip()


def test_small_formats_growers_and_constant_sizes_still_run(tmp_path: Path) -> None:
    db = tmp_path / "shop.duckdb"
    duckdb.connect(str(db)).close()
    cur = open_sandbox(db).cursor()
    for query, want in [
        ("SELECT printf('%5.2f', 3.14159)", (" 3.14",)),
        ("SELECT format('{:>4}', 'ab')", ("  ab",)),
        ("SELECT hex(hex('a'))", ("3631",)),
        ("SELECT bar(5, 0, 10, 10)", ("█████     ",)),
        ("SELECT len(repeat('ab', 3))", (6,)),
        ("SELECT format('{{}}{:>3}', 'a')", ("{}  a",)),
        ("SELECT bitstring('1', 4)::VARCHAR", ("0001",)),
        ("SELECT bit_count(bitstring_agg(x, 1, 10)) FROM (VALUES (2), (5)) t(x)", (2,)),
    ]:
        assert cur.execute(check_select(cur, query)).fetchone() == want
