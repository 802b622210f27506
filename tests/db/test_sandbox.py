"""The tool connection cannot touch files, the network or its own settings, and cannot write."""

from __future__ import annotations

import contextlib

import duckdb
import pytest

from analytics_agent.db.connect import open_sandbox


@pytest.fixture
def sandbox(sample_db, tmp_path):
    (tmp_path / "secret.csv").write_text("a,b\n1,2\n")
    conn = open_sandbox(sample_db)
    yield conn.cursor()
    conn.close()


ESCAPES = [
    "SELECT * FROM read_csv('{tmp}/secret.csv')",
    "SELECT * FROM '{tmp}/secret.csv'",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM glob('{tmp}/*')",
    "ATTACH '{tmp}/other.duckdb' AS other",
    "COPY orders TO '{tmp}/leak.csv'",
    "EXPORT DATABASE '{tmp}/dump'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SELECT * FROM read_csv('https://example.com/x.csv')",
    "SET enable_external_access = true",
    "SET lock_configuration = false",
    "SET memory_limit = '100GB'",
    "RESET enable_external_access",
    "CREATE TABLE stolen AS SELECT 1",
    "INSERT INTO orders SELECT * FROM orders LIMIT 1",
    "DELETE FROM orders",
    "DROP TABLE orders",
    "UPDATE orders SET amount = 0",
]


@pytest.mark.parametrize("statement", ESCAPES)
def test_a_tool_connection_refuses_every_way_out(sandbox, tmp_path, statement):
    with pytest.raises(duckdb.Error):
        sandbox.execute(statement.format(tmp=tmp_path)).fetchall()
    assert not (tmp_path / "leak.csv").exists() and not (tmp_path / "dump").exists()
    assert not (tmp_path / "other.duckdb").exists()


def test_the_data_is_intact_after_every_attempt(sandbox, tmp_path):
    before = sandbox.execute("SELECT count(*), sum(amount) FROM orders").fetchone()
    for statement in ESCAPES:
        with contextlib.suppress(duckdb.Error):
            sandbox.execute(statement.format(tmp=tmp_path)).fetchall()
    assert sandbox.execute("SELECT count(*), sum(amount) FROM orders").fetchone() == before


def test_cursors_inherit_the_locked_configuration(sample_db):
    conn = open_sandbox(sample_db, memory_limit="256MB")
    try:
        settings = dict(
            conn.cursor()
            .execute(
                "SELECT name, value FROM duckdb_settings() WHERE name IN "
                "('enable_external_access', 'lock_configuration', 'access_mode')"
            )
            .fetchall()
        )
        assert settings == {
            "enable_external_access": "false",
            "lock_configuration": "true",
            "access_mode": "read_only",
        }
        limit = conn.cursor().execute("SELECT current_setting('memory_limit')").fetchone()[0]
        assert limit.startswith("244") or limit.startswith("256")  # DuckDB shows MiB
    finally:
        conn.close()


def test_read_only_alone_would_not_be_enough(sample_db, tmp_path):
    """Why the sandbox sets more than read_only: without it a query reads local files."""
    (tmp_path / "secret.csv").write_text("a\n42\n")
    conn = duckdb.connect(str(sample_db), read_only=True)
    try:
        assert conn.execute(f"SELECT a FROM read_csv('{tmp_path}/secret.csv')").fetchone() == (42,)
    finally:
        conn.close()
