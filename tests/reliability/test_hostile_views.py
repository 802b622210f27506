"""A database someone sent holding a view that reads a file, or one over a dropped table, must not make
every command fail: that view is skipped with a one-line note and the rest works (issue 24)."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import duckdb
import pytest
from cli_process import run_cli


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    path = tmp_path / "sent.duckdb"
    conn = duckdb.connect(str(path))
    conn.execute("CREATE TABLE sales AS SELECT range AS id, range * 2 AS amount FROM range(5)")
    conn.execute("CREATE VIEW peek AS SELECT * FROM read_text('/etc/passwd')")
    conn.execute("CREATE TABLE gone (x INTEGER)")
    conn.execute("CREATE VIEW orphan AS SELECT * FROM gone")
    conn.execute("DROP TABLE gone")
    conn.close()
    return path


def test_tables_lists_the_rest_and_notes_each_unreadable_view_once(hostile_db, tmp_path):
    result = run_cli(["--db", str(hostile_db), "tables"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "sales" in result.stdout and "root:" not in result.stdout
    notes = [line for line in result.stderr.splitlines() if "skipped the view" in line]
    assert sorted(n.split()[3].rstrip(":") for n in notes) == ["orphan", "peek"]
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_describe_table_answers_and_the_unreadable_view_is_not_offered(hostile_db, tmp_path):
    sales = run_cli(
        ["--db", str(hostile_db), "tools", "call", "describe_table", '{"table": "sales"}'], cwd=tmp_path
    )
    assert sales.returncode == 0, sales.stderr
    assert json.loads(sales.stdout)["rows"] == 5
    peek = run_cli(
        ["--db", str(hostile_db), "tools", "call", "describe_table", '{"table": "peek"}'], cwd=tmp_path
    )
    assert peek.returncode != 0 and "root:" not in peek.stdout + peek.stderr


def test_the_system_prompt_schema_leaves_the_view_out(hostile_db):
    from analytics_agent.agent.prompt import system_prompt
    from analytics_agent.db.catalog import list_tables
    from analytics_agent.workspace.workspace import Workspace

    ws = Workspace.open(hostile_db)
    try:
        prompt = system_prompt(list_tables(ws.cursor()), today=datetime.date(2026, 12, 2), timezone="UTC")
    finally:
        ws.close()
    assert "sales" in prompt and "peek" not in prompt and "root:" not in prompt
