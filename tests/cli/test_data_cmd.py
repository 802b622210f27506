"""load, drop and --tools-dir as a user runs them: a real process on a real database file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

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


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
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
