"""A new user's first steps with their own data: a real process, real files, a new database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


def run(args: list[str], cwd: Path, *, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd,
        env=dict(os.environ),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def tables(db: Path) -> list[str]:
    with duckdb.connect(str(db), read_only=True) as conn:
        rows = conn.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1")
        return [r[0] for r in rows.fetchall()]


def test_the_issues_ragged_example_fails_naming_line_3_and_leaves_no_table(tmp_path):
    (tmp_path / "ragged.csv").write_text("a,b,c\n1,2,3\n4,5\n6,7,8,9\n")
    db = tmp_path / "new.duckdb"
    result = run(["--db", str(db), "load", "ragged.csv"], tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "error: ragged.csv: line 3 has 2 fields where the header has 3" in result.stderr
    assert not db.exists()  # the database this load would have created is not left behind, empty
    kept = tmp_path / "kept.duckdb"
    assert run(["--db", str(kept), "load", str(REAL / "penguins.csv")], tmp_path).returncode == 0
    assert run(["--db", str(kept), "load", "ragged.csv"], tmp_path).returncode == 1
    assert tables(kept) == ["penguins"]


def test_a_new_db_holds_only_the_loaded_tables_and_says_it_was_created_empty_once(tmp_path):
    db = tmp_path / "mine.duckdb"
    first = run(["--db", str(db), "load", str(REAL / "flights.csv.zip")], tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("Created an empty database") == 1
    assert first.stdout.startswith("Loaded 2,909 rows from flights.csv.zip:flights.csv into flights")
    second = run(["--db", str(db), "load", str(REAL / "penguins.csv")], tmp_path)
    assert second.returncode == 0 and "Created" not in second.stderr
    assert tables(db) == ["flights", "penguins"]
    listed = run(["--db", str(db), "tools", "list"], tmp_path).stdout
    assert "sales_summary" not in listed and "describe_table" in listed


def test_a_db_in_a_missing_folder_is_an_error_and_creates_nothing(tmp_path):
    db = tmp_path / "no" / "such" / "x.duckdb"
    result = run(["--db", str(db), "tables"], tmp_path)
    assert result.returncode == 1 and f"no folder {db.parent}" in result.stderr
    assert not (tmp_path / "no").exists()


def test_a_question_to_an_empty_database_says_how_to_load_a_file_without_calling_a_model(tmp_path):
    db = tmp_path / "empty.duckdb"
    # nothing listens on port 9: a model call would fail with a connection error instead
    result = run(
        ["--db", str(db), "ask", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "hi"], tmp_path
    )
    assert result.returncode == 1
    assert (
        f"{db} has no tables yet; load a file first: analytics-agent --db {db} load FILE.csv" in result.stderr
    )


def test_the_demo_keeps_its_sample_data_apart_from_the_default_database(tmp_path, isolated_user_env):
    result = run(["demo", "-q", "--no-stream"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Pune had 3 orders" in result.stdout
    data = isolated_user_env / "data" / "analytics-agent"
    assert (data / "demo.duckdb").is_file() and not (data / "analytics.duckdb").exists()


def test_skip_bad_rows_reports_the_lines_and_the_rejects_table(tmp_path):
    (tmp_path / "ragged.csv").write_text("a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12\n")
    db = tmp_path / "s.duckdb"
    result = run(["--db", str(db), "load", "ragged.csv", "--skip-bad-rows"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Loaded 2 rows from ragged.csv into ragged")
    assert "Skipped 2 bad records (lines 3, 4), kept in the table ragged_rejects." in result.stdout
    assert tables(db) == ["ragged", "ragged_rejects"]


def test_the_null_flag_reads_a_custom_marker_as_missing(tmp_path):
    (tmp_path / "m.csv").write_text("id,score\n1,?\n2,7\n3,?\n")
    db = tmp_path / "n.duckdb"
    result = run(["--db", str(db), "load", "m.csv", "--null", "?"], tmp_path)
    assert result.returncode == 0, result.stderr
    score = next(line for line in result.stdout.splitlines() if line.startswith("score"))
    assert score.split() == ["score", "BIGINT", "2"]
