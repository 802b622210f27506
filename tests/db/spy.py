"""A DuckDB connection that writes down the statements run through it, for tests of which queries a step
asks (not only what it answers)."""

from __future__ import annotations

from typing import Any

import duckdb


class SqlSpy:
    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self.conn = conn
        self.sql: list[str] = []

    def execute(self, sql: str, *args: Any) -> Any:
        self.sql.append(sql)
        return self.conn.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        self.sql.append(sql)
        return self.conn.executemany(sql, *args)
