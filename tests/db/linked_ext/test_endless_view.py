"""A linked PostgreSQL view that never ends, with no ``tables = [...]`` list (issue 38, item 6): its first
profile held every start for ever (DuckDB 1.5.5's postgres scanner does not stop on an interrupt) and
kept running on the server after the client was killed. Now every connection carries the server's own
``statement_timeout``: the view is skipped with one line, the other tables answer, and a killed client's
statement ends on the server.

The opens run in a child process (a regression hangs the child, not the suite); the endless view is a
``pg_sleep``, which holds a server backend without burning CPU."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)

SAFETY_S = 90  # a regression fails here instead of holding the suite; nothing asserts on time
SLEEP = "pg_sleep(100000)"


def psql(postgres, database: str, sql: str) -> str:
    done = subprocess.run(
        [shutil.which("psql") or "psql", "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres",
         "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
        check=True, capture_output=True, text=True, timeout=60, env={**os.environ, "PGPASSWORD": postgres.password},
    )  # fmt: skip
    return done.stdout.strip()


def sleeping(postgres) -> int:
    """Statements running the endless view on the server now."""
    return int(
        psql(
            postgres,
            "postgres",
            "SELECT count(*) FROM pg_stat_activity WHERE datname = 'endless' AND state = 'active' "
            "AND query ILIKE '%endless%' AND pid <> pg_backend_pid()",
        )
    )


@pytest.fixture
def endless(postgres, monkeypatch, tmp_path):
    postgres.create_database("endless")
    psql(
        postgres,
        "endless",
        "CREATE TABLE orders AS SELECT i AS id, i * 2 AS amount FROM generate_series(1, 50) i",
    )
    psql(postgres, "endless", f"CREATE VIEW endless AS SELECT 1 AS n FROM {SLEEP}")
    monkeypatch.setenv("SHOP_PASSWORD", postgres.password)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no profile cache shared with other tests
    yield postgres.dsn("endless")
    psql(
        postgres,
        "postgres",
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'endless'",
    )


def open_child(sample_db: Path, dsn: str) -> subprocess.Popen:
    """A child that opens the workspace with the endless view linked (statement timeout 2 s) and prints
    the linked tables, the problems and a count over the source's real table."""
    code = f"""
        import json
        from pathlib import Path
        from analytics_agent.db.linked import timeouts
        from analytics_agent.db.linked.spec import parse_source
        from analytics_agent.workspace.workspace import Workspace
        timeouts.STATEMENT_TIMEOUT_S = 2
        source = parse_source("shop", {{"type": "postgres", "dsn": {dsn!r}, "password_env": "SHOP_PASSWORD",
                                        "prefix": "pg_"}})
        with Workspace.open(Path({str(sample_db)!r}), sources=[source]) as ws:
            outcome = ws.executor.execute(
                "aggregate", {{"table": "pg_orders", "metrics": [{{"fn": "sum", "column": "amount"}}]}}
            )
            print(json.dumps({{"tables": ws.linked_tables, "problems": list(ws.source_problems),
                              "sum": outcome.text}}))
        """
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_an_endless_view_is_skipped_in_one_line_and_the_rest_answers(sample_db, endless) -> None:
    child = open_child(sample_db, endless)
    try:
        out, err = child.communicate(timeout=SAFETY_S)
    finally:
        child.kill()
    assert child.returncode == 0, err[-2000:]
    answer = json.loads(out)  # stdout is the JSON alone: DuckDB drew its progress bar there
    assert answer["tables"] == {"pg_orders": "shop"}
    [problem] = answer["problems"]
    assert problem.startswith("source shop: table 'pg_endless' is skipped: it cannot be read (")
    assert "statement timeout" in problem
    assert "2550" in answer["sum"]


def test_a_killed_client_leaves_no_statement_running_on_the_server(sample_db, endless, postgres) -> None:
    child = open_child(sample_db, endless)
    try:
        deadline = time.monotonic() + SAFETY_S
        while time.monotonic() < deadline:  # until the server runs the view's statement
            if sleeping(postgres) or child.poll() is not None:
                break
            time.sleep(0.1)
        assert sleeping(postgres), "the view's statement never started: " + (
            child.stderr.read() if child.poll() is not None else ""
        )
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    deadline = time.monotonic() + SAFETY_S
    while time.monotonic() < deadline:  # the server's statement timeout ends it; without one it runs on
        if not sleeping(postgres):
            break
        time.sleep(0.1)
    assert sleeping(postgres) == 0
