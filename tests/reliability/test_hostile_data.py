"""Hostile data, files and disks, through the real command line: each test is one attack that got through
once (issue 17) and must not again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "analytics_agent"]


def run(args: list[str], cwd: Path, *, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args], cwd=cwd, env=dict(os.environ), capture_output=True, text=True, timeout=timeout
    )


def run_sql(db: Path, query: str, cwd: Path) -> subprocess.CompletedProcess:
    arguments = json.dumps({"query": query})
    return run(["--db", str(db), "--allow-sql", "tools", "call", "run_sql", arguments], cwd)


def test_run_sql_cannot_read_the_database_file_it_runs_on(sample_db, tmp_path):
    """The attack: ask DuckDB where its file is, then read the raw bytes (dropped rows included)."""
    where = run_sql(sample_db, "SELECT path FROM duckdb_databases() WHERE path IS NOT NULL", tmp_path)
    path = json.loads(where.stdout)["rows"][0][0]
    assert Path(path) == sample_db
    for query in (
        f"SELECT content FROM read_blob('{path}')",
        f"SELECT content FROM read_text('{path}.wal')",
        f"SELECT * FROM read_duckdb('{path}')",
        f"SELECT * FROM '{path}'",
    ):
        result = run_sql(sample_db, query, tmp_path)
        assert result.returncode == 1, query
        assert "reads no files" in result.stdout and "DUCK" not in result.stdout
