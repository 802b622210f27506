"""The odd values of a mostly-number or mostly-date text column, counted two ways: listed and counted in
Python for a small table, grouped in DuckDB for a big one. Both must give the same count and the same
three commonest values in the same order (most first, then the least as DuckDB orders text), or a note
would change with the table's size. Real DuckDB tables built here from drawn values."""

from __future__ import annotations

import random

import duckdb
import pytest

from analytics_agent.db.load.settle.odd_counts import LONGEST_LISTED, odd_counts

POOL = [
    "T",
    "t",
    "n/a",
    "N/A",
    "—",
    "Ä",
    "a",
    "Z",
    "ß",
    "é",
    "e\u0301",
    "tot",
    "Total",
    "x" * 12,
    "中",
    "🙂",
    " T",
]


def _table(conn: duckdb.DuckDBPyConnection, columns: dict[str, list[str | None]]) -> None:
    names = list(columns)
    conn.execute(f"CREATE TABLE t ({', '.join(f'{n} VARCHAR' for n in names)})")
    conn.executemany(
        f"INSERT INTO t VALUES ({', '.join('?' for _ in names)})", list(zip(*columns.values(), strict=True))
    )


def _column(rng: random.Random, rows: int, good: list[str]) -> list[str | None]:
    odd = rng.sample(POOL, rng.randint(1, 6))
    return [
        None if rng.random() < 0.05 else rng.choice(odd) if rng.random() < 0.1 else rng.choice(good)
        for _ in range(rows)
    ]


@pytest.mark.parametrize("seed", range(12))
def test_listed_and_grouped_counts_agree_on_drawn_columns(seed):
    rng = random.Random(seed)
    rows = rng.randint(20, 400)
    conn = duckdb.connect()
    _table(
        conn,
        {
            "n": _column(rng, rows, ["1", "2.5", "-3", "1e3", "0"]),
            "d": _column(rng, rows, ["2024-01-05", "2023-12-31", "1999-02-28"]),
        },
    )
    kinds = {"n": "DOUBLE", "d": "DATE"}
    listed = odd_counts(conn, "t", kinds, rows, listed_up_to=rows)
    grouped = odd_counts(conn, "t", kinds, rows, listed_up_to=rows - 1)
    assert listed == grouped
    assert all(count > 0 and len(values) <= 3 for count, values in listed)


def test_a_small_table_is_counted_from_one_ungrouped_query():
    conn = duckdb.connect()
    _table(conn, {"n": ["1", "T", "2", "T", "n/a", None]})
    ran: list[str] = []

    class Counting:
        def execute(self, sql, *args):
            ran.append(sql)
            return conn.execute(sql, *args)

    assert odd_counts(Counting(), "t", {"n": "DOUBLE"}, 6, listed_up_to=6) == [(3, ["T", "n/a"])]  # type: ignore[arg-type]
    assert len(ran) == 1 and "GROUP BY" not in ran[0]


def test_an_odd_value_longer_than_listed_is_counted_by_duckdb():
    long = "x" * (LONGEST_LISTED + 1)
    conn = duckdb.connect()
    _table(conn, {"n": ["1", long, long, "T", "2"]})
    assert odd_counts(conn, "t", {"n": "DOUBLE"}, 5, listed_up_to=5) == [(3, [long, "T"])]


def test_duckdb_orders_text_as_python_does():
    """What the listed count's tie-break (and the stored links' order) rests on: DuckDB's ORDER BY of text
    is by code point, as Python's ``sorted``."""
    pool = [*POOL, "", "A", "z", "Å", "\uffff", "\U0010ffff", "ǅ", "İ", "i", "\x00a"]
    conn = duckdb.connect()
    _table(conn, {"v": list(pool)})
    assert [r[0] for r in conn.execute("SELECT v FROM t ORDER BY v").fetchall()] == sorted(pool)
