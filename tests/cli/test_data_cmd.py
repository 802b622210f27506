"""load, drop and --tools-dir as a user runs them: a real process on a real database file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb

GOOD_TOOL = """\
-- name: visits_by_region
-- description: Visits in one region. Use for "how many visits did North get?".
-- tables: visits
-- param region: enum(from visits.region) | Region, e.g. "North".
-- returns: object
SELECT $region AS region, sum(visits) AS visits FROM visits WHERE region = $region
"""
BROKEN_TOOL = """\
-- name: broken
-- description: Broken on purpose.
-- param x: widget | An unknown type.
SELECT $x
"""
CLASHING_TOOL = GOOD_TOOL.replace("visits_by_region", "sales_summary")
REAL = Path(__file__).resolve().parent.parent / "data" / "real"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_load_then_schema_then_refused_reload_then_drop(sample_db, tmp_path):
    csv = tmp_path / "Web Visits.csv"
    csv.write_text("Region;Visit Count\r\nNorth;3\r\nSouth;4\r\n", encoding="utf-8-sig")
    db = ["--db", str(sample_db)]
    loaded = run([*db, "load", str(csv), "--table", "visits"], tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.startswith("Loaded 2 rows from Web Visits.csv into visits in ")
    assert "visit_count  Visit Count" in loaded.stdout
    schema = run([*db, "schema", "visits", "--json"], tmp_path)
    assert json.loads(schema.stdout)["original_names"] == {"region": "Region", "visit_count": "Visit Count"}
    again = run([*db, "load", str(csv), "--table", "visits"], tmp_path)
    assert again.returncode == 1
    assert (
        again.stderr
        == "error: table 'visits' already exists; add --replace to overwrite it or --append to add rows\n"
    )
    dropped = run([*db, "drop", "visits"], tmp_path)
    assert dropped.returncode == 0 and dropped.stdout == "Dropped visits (2 rows).\n"
    assert "visits" not in run([*db, "tables"], tmp_path).stdout


def test_a_bad_type_flag_is_one_line_without_a_traceback(sample_db, tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text("a\n1\n")
    result = run(["--db", str(sample_db), "load", str(csv), "--type", "a"], tmp_path)
    assert (
        result.returncode == 1
        and result.stderr == "error: --type 'a': write COLUMN=TYPE, e.g. --type amount=VARCHAR\n"
    )


def test_a_tools_dir_with_a_good_and_a_broken_file_loads_the_good_one_and_warns(sample_db, tmp_path):
    csv = tmp_path / "visits.csv"
    csv.write_text("region,visits\nNorth,3\nSouth,4\nNorth,5\n")
    tools = tmp_path / "my-tools"
    tools.mkdir()
    (tools / "visits.sql").write_text(GOOD_TOOL)
    (tools / "broken.sql").write_text(BROKEN_TOOL)
    db = ["--db", str(sample_db)]
    assert run([*db, "load", str(csv)], tmp_path).returncode == 0
    called = run(
        [*db, "--tools-dir", str(tools), "tools", "call", "visits_by_region", '{"region": "North"}'], tmp_path
    )
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout) == {"region": "North", "visits": 8}
    warning = f"warning: {tools / 'broken.sql'}:3: parameter 'x': unknown type 'widget'"
    assert called.stderr.startswith(warning) and called.stderr.count("\n") == 1


def test_a_user_tool_named_like_a_bundled_one_is_an_error(sample_db, tmp_path):
    (tmp_path / "visits.csv").write_text("region,visits\nNorth,3\n")
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "clash.sql").write_text(CLASHING_TOOL)
    db = ["--db", str(sample_db)]
    assert run([*db, "load", str(tmp_path / "visits.csv")], tmp_path).returncode == 0
    result = run([*db, "--tools-dir", str(tools), "tools", "list"], tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"error: {tools / 'clash.sql'}: two tools are named 'sales_summary'; rename one\n"


def test_allow_sql_adds_run_sql_and_it_stays_read_only(sample_db, tmp_path):
    db = ["--db", str(sample_db)]
    assert "run_sql" not in run([*db, "tools", "list"], tmp_path).stdout
    result = run(
        [*db, "--allow-sql", "tools", "call", "run_sql", '{"query": "SELECT count(*) AS n FROM orders"}'],
        tmp_path,
    )
    assert result.returncode == 0 and json.loads(result.stdout)["rows"] == [[42000]]
    refused = run(
        [*db, "--allow-sql", "tools", "call", "run_sql", '{"query": "DELETE FROM orders"}'], tmp_path
    )
    assert refused.returncode == 1 and "only runs SELECT" in refused.stdout


# A new user's first steps with their own data: a new database, real exports, ragged files.


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
    import duckdb

    db = tmp_path / "empty.duckdb"
    duckdb.connect(str(db)).close()  # an existing database with no tables (a missing one is an error)
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


def test_schema_shows_years_without_separators_and_real_null_counts(tmp_path):
    db = tmp_path / "p.duckdb"
    assert run(["--db", str(db), "load", str(REAL / "penguins.csv")], tmp_path).returncode == 0
    out = run(["--db", str(db), "schema", "penguins"], tmp_path).stdout
    assert out.startswith("penguins: 344 rows\n")
    year = next(line for line in out.splitlines() if line.startswith("year "))
    assert year.split()[:5] == ["year", "BIGINT", "0", "2007", "2009"]
    mass = next(line for line in out.splitlines() if line.startswith("body_mass_g "))
    assert mass.split()[:5] == ["body_mass_g", "BIGINT", "2", "2,700", "6,300"]
