"""A linked PostgreSQL view that errors (division by zero) must not make every command fail: that table
is skipped with a one-line note and the source's other tables work (issue 24).

Before: the first profile of each linked table ran at start-up with no error handling, so one such view
failed ``tables``, ``ask`` and every other command. (A view that selects without end is bounded by
``PROFILE_LIMIT_S`` for sources DuckDB scans itself, and by the server's statement timeout for PostgreSQL:
test_endless_view.py.)
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)

from analytics_agent.db.linked.spec import parse_source
from analytics_agent.workspace.workspace import Workspace


def psql(postgres, database: str, sql: str) -> None:
    subprocess.run(
        [shutil.which("psql") or "psql", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres",
         "-d", database, "-v", "ON_ERROR_STOP=1", "-c", sql],
        check=True, capture_output=True, timeout=600, env={**os.environ, "PGPASSWORD": postgres.password},
    )  # fmt: skip


@pytest.fixture
def hostile(postgres, monkeypatch):
    postgres.create_database("hostile")
    psql(
        postgres,
        "hostile",
        "CREATE TABLE orders AS SELECT i AS id, i * 2 AS amount FROM generate_series(1, 50) i",
    )
    psql(postgres, "hostile", "CREATE VIEW ratio AS SELECT id, 100 / (id - id) AS r FROM orders")
    monkeypatch.setenv("SHOP_PASSWORD", postgres.password)
    return postgres.dsn("hostile")


def test_an_erroring_view_is_skipped_and_the_table_answers(sample_db, hostile):
    source = parse_source(
        "shop", {"type": "postgres", "dsn": hostile, "password_env": "SHOP_PASSWORD", "prefix": "pg_"}
    )
    with Workspace.open(sample_db, sources=[source]) as ws:
        assert ws.linked_tables == {"pg_orders": "shop"}
        problems = sorted(ws.source_problems)
        outcome = ws.executor.execute(
            "aggregate", {"table": "pg_orders", "metrics": [{"fn": "sum", "column": "amount"}]}
        )
    assert not outcome.is_error and "2550" in outcome.text
    [problem] = problems
    assert problem.startswith("source shop: table 'pg_ratio' is skipped: it cannot be read (")
    assert "division by zero" in problem


def test_tables_lists_the_rest_with_one_warning(sample_db, hostile, postgres, tmp_path):
    from cli_process import run_cli

    config = tmp_path / "config" / "analytics-agent"
    config.mkdir(parents=True)
    (config / "sources.toml").write_text(
        f'[shop]\ntype = "postgres"\ndsn = "{hostile}"\npassword_env = "SHOP_PASSWORD"\nprefix = "pg_"\n'
    )
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "SHOP_PASSWORD": postgres.password}  # fmt: skip
    for _ in range(2):  # the second run reads the cached profiles: the view is still left out
        done = run_cli(["--db", str(sample_db), "tables"], cwd=tmp_path, env=env)
        assert done.returncode == 0, done.stderr
        assert "pg_orders" in done.stdout and "pg_ratio" not in done.stdout
        [line] = done.stderr.splitlines()
        assert line.startswith("warning: source shop: table 'pg_ratio' is skipped: it cannot be read (")
        assert "Traceback" not in done.stderr
