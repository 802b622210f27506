"""Hostile data, files and disks, through the real command line: each test is one attack that got through
once (issue 17) and must not again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb

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


def test_aggregate_refuses_list_columns_in_metrics_and_groups_but_counts_them(sample_db, tmp_path):
    """Before: max/group_by on a Parquet list column hashed every item (16 s and 3 GB on a large file)."""
    parquet = tmp_path / "tagged.parquet"
    conn = duckdb.connect()
    conn.execute(
        f"COPY (SELECT i AS id, [i, i + 1, i + 2] AS tags FROM range(1000) t(i)) TO '{parquet}' (FORMAT parquet)"
    )
    conn.close()
    db = ["--db", str(sample_db)]
    assert run([*db, "load", str(parquet), "--table", "tagged"], tmp_path).returncode == 0
    for arguments in (
        {"table": "tagged", "metrics": [{"fn": "max", "column": "tags"}]},
        {"table": "tagged", "metrics": [{"fn": "count_distinct", "column": "tags"}]},
        {"table": "tagged", "group_by": ["tags"]},
    ):
        result = run([*db, "tools", "call", "aggregate", json.dumps(arguments)], tmp_path)
        assert result.returncode == 1
        assert (
            "tags is BIGINT[], a list/struct/map value" in result.stdout
            and "plain column of tagged: id" in result.stdout
        )
    counted = run(
        [
            *db,
            "tools",
            "call",
            "aggregate",
            '{"table": "tagged", "metrics": [{"fn": "count", "column": "tags"}]}',
        ],
        tmp_path,
    )
    assert json.loads(counted.stdout)["rows"] == [[1000]]


def test_a_huge_value_from_run_sql_is_cut_in_the_database_not_in_python(sample_db, tmp_path):
    """Before: SELECT range(0, 5000000) took 13 s and 900 MB in Python and showed 0 rows; 50,000,000 took
    67 s and 7 GB. Now Python sees 100 items and a count; the bound is generous (DuckDB builds the list)."""
    started = time.monotonic()
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *CLI, "--db", str(sample_db), "--allow-sql", "tools", "call", "run_sql",
         json.dumps({"query": "SELECT range(0, 5000000) AS r"})],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    elapsed = time.monotonic() - started
    value = json.loads(result.stdout)["rows"][0][0]
    assert value[-1] == "… 4999900 more" and value[:3] == [0, 1, 2]
    peak_mb = int(result.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 1000, peak_mb  # DuckDB itself builds the list: about 500 MB
    assert elapsed < 60


def test_run_sql_accepts_a_trailing_comment_on_a_long_result(sample_db, tmp_path):
    result = run_sql(sample_db, "SELECT order_id FROM orders ORDER BY order_id -- all of them", tmp_path)
    assert result.returncode == 0, result.stdout
    assert json.loads(result.stdout)["row_count"] == 42000
