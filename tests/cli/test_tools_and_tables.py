"""The tools/tables/schema commands, run as a user runs them: a real process, a real database file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def run(
    args: list[str], *, cwd: Path, env_extra: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture
def db_args(sample_db):
    return ["--db", str(sample_db)]


def test_sales_summary_answers_the_reference_day(db_args, tmp_path):
    result = run(
        [*db_args, "tools", "call", "sales_summary", '{"city": "Pune", "day": "2026-10-24"}'], cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["orders"] == 3 and answer["revenue"] == 4798
    assert answer["by_status"] == {"cancelled": 1, "delivered": 1, "in_transit": 1}


def test_get_order_answers_a_known_order_and_refuses_an_unknown_one(db_args, tmp_path):
    known = run([*db_args, "tools", "call", "get_order", '{"order_id": "A-1042"}'], cwd=tmp_path)
    order = json.loads(known.stdout)
    assert (order["city"], order["day"], order["status"], order["amount"]) == (
        "Delhi",
        "2026-10-18",
        "delivered",
        2499,
    )
    unknown = run([*db_args, "tools", "call", "get_order", '{"order_id": "A-9999"}'], cwd=tmp_path)
    assert unknown.returncode == 1 and "no order with id A-9999" in unknown.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["sales_summary", '{"city": "Pune", "day": "24 Oct 2026"}'], "day: Input should be a valid date"),
        (
            ["sales_summary", '{"city": "Pune", "day": "2026-10-24", "include_items": true}'],
            "include_items: Extra",
        ),
        (["get_customer", "{}"], "available tools: "),
        (["sales_summary", "{not json"], "not valid JSON"),
    ],
)
def test_bad_calls_exit_1_with_the_problem_named(db_args, tmp_path, args, needle):
    result = run([*db_args, "tools", "call", *args], cwd=tmp_path)
    assert result.returncode == 1
    assert needle in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_tools_list_names_every_tool_with_one_line(db_args, tmp_path):
    result = run([*db_args, "tools", "list"], cwd=tmp_path)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 0 and len(lines) >= 14
    assert any(line.startswith("sales_summary ") for line in lines)


@pytest.mark.parametrize("fmt", ["openai", "bedrock"])
def test_tools_spec_prints_the_provider_payload(db_args, tmp_path, fmt):
    result = run([*db_args, "tools", "spec", "--format", fmt], cwd=tmp_path)
    payload = json.loads(result.stdout)
    names = (
        [t["function"]["name"] for t in payload]
        if fmt == "openai"
        else [t["toolSpec"]["name"] for t in payload["tools"]]
    )
    assert "sales_summary" in names and "get_order" in names


def test_tools_spec_strict_marks_every_function_strict(db_args, tmp_path):
    payload = json.loads(
        run([*db_args, "tools", "spec", "--format", "openai", "--strict"], cwd=tmp_path).stdout
    )
    assert all(t["function"]["strict"] is True for t in payload)


def test_tables_json_lists_name_rows_and_columns(db_args, tmp_path):
    tables = json.loads(run([*db_args, "tables", "--json"], cwd=tmp_path).stdout)
    by_name = {t["name"]: t for t in tables}
    assert set(tables[0]) == {"name", "rows", "columns", "source"}  # source: the linked source, else null
    assert by_name["orders"]["source"] is None
    assert by_name["orders"]["rows"] >= 40000 and by_name["orders"]["columns"] == 7


def test_schema_shows_columns_and_an_unknown_table_suggests_the_right_one(db_args, tmp_path):
    shown = run([*db_args, "schema", "orders"], cwd=tmp_path)
    assert shown.returncode == 0 and "status" in shown.stdout and "cancelled" in shown.stdout
    profile = json.loads(run([*db_args, "schema", "orders", "--json"], cwd=tmp_path).stdout)
    assert [c["name"] for c in profile["columns"]][:3] == ["order_id", "customer_id", "city"]
    wrong = run([*db_args, "schema", "order"], cwd=tmp_path)
    assert wrong.returncode == 1
    assert wrong.stderr.strip().count("\n") == 0 and "did you mean 'orders'" in wrong.stderr


def test_a_new_user_gets_the_sample_database_created_on_first_use(tmp_path, isolated_user_env):
    result = run(["tools", "call", "sales_summary", '{"city": "Pune", "day": "2026-10-24"}'], cwd=tmp_path)
    assert result.returncode == 0 and json.loads(result.stdout)["revenue"] == 4798
    created = isolated_user_env / "data" / "analytics-agent" / "analytics.duckdb"
    assert created.is_file() and "Created" in result.stderr
    assert not list(created.parent.glob(".seeding-*")), "no temporary files are left behind"


def test_the_db_path_can_come_from_the_environment_and_a_missing_one_is_an_error_not_a_new_file(tmp_path):
    target = tmp_path / "elsewhere" / "mine.duckdb"
    target.parent.mkdir()
    (target.parent / "mines.duckdb").write_bytes(b"")  # a near miss to suggest
    result = run(["tables", "--json"], cwd=tmp_path, env_extra={"ANALYTICS_AGENT_DB": str(target)})
    assert result.returncode == 1 and not target.exists()
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: no database at {target}; did you mean 'mines.duckdb'?")
    assert f"--db {target} load FILE.csv" in line


@pytest.mark.parametrize(
    "command",
    [
        ["ask", "how many orders?", "--model", "m", "--base-url", "http://127.0.0.1:9/v1"],
        ["schema", "orders"],
    ],
)
def test_a_mistyped_db_is_an_error_for_every_command_but_load_and_mcp(tmp_path, command):
    target = tmp_path / "flight.duckdb"
    result = run(["--db", str(target), *command], cwd=tmp_path)
    assert result.returncode == 1 and not target.exists(), result.stderr
    assert "no database at" in result.stderr


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.write_bytes(b"this is not a database at all" * 100), "not a DuckDB database"),
    ],
)
def test_an_unusable_db_path_is_one_clear_line(tmp_path, make, needle):
    target = tmp_path / "bad.duckdb"
    make(target)
    result = run(["--db", str(target), "tables"], cwd=tmp_path)
    assert result.returncode == 1
    assert needle in result.stderr and result.stderr.strip().count("\n") == 0
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["tables"], ["load", "other.csv"]])
def test_a_csv_given_as_the_db_says_how_to_load_it(tmp_path, command):
    """DuckDB 2 opens a CSV given as the database as an empty in-memory one: `tables` failed with a catalog
    error about in-memory databases, and a load reported its rows stored in a database that vanished."""
    data = tmp_path / "sales.csv"
    data.write_text("id,amount\n1,10\n2,20\n", encoding="utf-8")
    (tmp_path / "other.csv").write_text("id\n1\n", encoding="utf-8")
    result = run(["--db", str(data), *command], cwd=tmp_path)
    assert result.returncode == 1, result.stdout
    assert result.stderr.strip() == (
        f"error: {data} is not a DuckDB database; to load it: analytics-agent --db new.duckdb load {data}"
    )
    assert data.read_text(encoding="utf-8") == "id,amount\n1,10\n2,20\n"
    assert "Loaded" not in result.stdout


def test_a_usage_mistake_is_reported_without_a_traceback(db_args, tmp_path):
    result = run([*db_args, "tools", "spec", "--format", "yaml"], cwd=tmp_path)
    assert result.returncode == 2 and "--format must be openai, bedrock or mcp" in result.stderr
