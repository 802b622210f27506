"""A table typo gets a "did you mean" with only the close names, everywhere a table is named (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_process import run_cli

from analytics_agent.suggest import closest
from analytics_agent.workspace.workspace import Workspace

SAMPLE_TABLES = ["customers", "order_items", "orders", "products"]


def test_only_names_about_as_close_as_the_closest_are_offered() -> None:
    assert closest("ordrs", SAMPLE_TABLES) == ["orders"]  # not order_items
    assert closest("ordr_items", SAMPLE_TABLES) == ["order_items"]
    assert closest("zzzzqq", SAMPLE_TABLES) == []
    assert closest("average", ["avg", "sum", "count"]) == ["avg"]  # a lone loose match still counts


@pytest.mark.parametrize(
    "tool, arguments",
    [
        ("describe_table", {"table": "{t}"}),
        ("aggregate", {"table": "{t}", "metrics": [{"fn": "count"}]}),
    ],
)
def test_a_tool_argument_naming_a_mistyped_table_gets_the_close_name_only(
    workspace: Workspace, tool: str, arguments: dict
) -> None:
    def call(table: str) -> str:
        outcome = workspace.executor.execute(tool, json.dumps(arguments).replace("{t}", table))
        assert outcome.is_error
        return outcome.text

    assert "got 'ordrs'; did you mean 'orders'?" in call("ordrs")
    assert "did you mean" not in call("zzzzqq")


def test_schema_and_a_replacing_load_name_the_close_table(sample_db: Path, tmp_path: Path) -> None:
    csv = tmp_path / "x.csv"
    csv.write_text("a,b\n1,2\n")
    schema = run_cli(["--db", str(sample_db), "schema", "ordrs"], cwd=tmp_path)
    assert schema.returncode == 1
    assert schema.stderr.startswith("error: no table 'ordrs'; did you mean 'orders'?;")
    replacing = run_cli(
        ["--db", str(sample_db), "load", str(csv), "--table", "ordrs", "--replace"], cwd=tmp_path
    )
    assert replacing.returncode == 1 and replacing.stdout == ""
    assert replacing.stderr.strip() == (
        "error: no table 'ordrs' to replace; did you mean 'orders'? "
        "(to create 'ordrs' as a new table, leave out --replace)"
    )
    fresh = run_cli(
        ["--db", str(sample_db), "load", str(csv), "--table", "visits", "--replace"], cwd=tmp_path
    )
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.startswith("Loaded 1 row from x.csv into visits")  # not "(replacing)": nothing was
    tables = run_cli(["--db", str(sample_db), "tables"], cwd=tmp_path).stdout
    assert "ordrs" not in tables and "visits" in tables
