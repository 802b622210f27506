"""The command line's rough edges, each checked through a real process."""

from __future__ import annotations

import json
import re
from importlib.metadata import version
from pathlib import Path

import duckdb
import pytest
from cli_process import run_cli

from analytics_agent.db.catalog import NO_TABLES
from analytics_agent.tools.aggregate.tool import DESCRIPTION as AGGREGATE_DESCRIPTION

COMMANDS = [[], ["tables"], ["schema"], ["load"], ["drop"], ["ask"], ["chat"], ["demo"], ["tools"],
            ["tools", "list"], ["tools", "spec"], ["tools", "call"], ["mcp"], ["eval"], ["sources"],
            ["sources", "add"], ["sources", "list"]]  # fmt: skip
TYPE_NOISE = re.compile(
    r"<(bool|int|str|float|path|Path|list\[[^\]]*\])>|\{[A-Za-z_]+[.\w]*\}|\b(FUNCTION|BOOLEAN)\b"
)


@pytest.fixture
def empty_db(tmp_path: Path) -> Path:
    path = tmp_path / "empty.duckdb"
    duckdb.connect(str(path)).close()
    return path


def test_version_prints_the_installed_version(tmp_path):
    result = run_cli(["--version"], cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"analytics-agent {version('analytics-agent')}"


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "root")
def test_help_has_no_type_noise(command, tmp_path):
    result = run_cli([*command, "--help"], cwd=tmp_path, env={"COLUMNS": "120"})
    assert result.returncode == 0, result.stderr
    assert not TYPE_NOISE.search(result.stdout), TYPE_NOISE.search(result.stdout).group()


def test_load_usage_reads_plainly(tmp_path):
    usage = run_cli(["load", "--help"], cwd=tmp_path, env={"COLUMNS": "120"}).stdout
    assert "Usage: analytics-agent load [OPTIONS] PATH..." in usage


def test_global_options_work_after_the_subcommand(sample_db, empty_db, tmp_path):
    after = run_cli(["tables", "--db", str(sample_db), "--json"], cwd=tmp_path)
    assert after.returncode == 0, after.stderr
    assert {t["name"] for t in json.loads(after.stdout)} >= {"orders", "customers"}
    later_wins = run_cli(["--db", str(sample_db), "tables", "--db", str(empty_db)], cwd=tmp_path)
    assert later_wins.stdout.strip() == NO_TABLES
    nested = run_cli(["tools", "call", "list_tables", "--db", str(sample_db)], cwd=tmp_path)
    assert nested.returncode == 0 and "orders" in nested.stdout
    sql = run_cli(["tools", "list", "--db", str(sample_db), "--allow-sql"], cwd=tmp_path)
    assert re.search(r"^run_sql\s", sql.stdout, re.M)


def test_tools_dir_after_the_subcommand_adds_a_tool(sample_db, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "pune_orders.sql").write_text(
        "-- name: pune_orders\n-- description: Orders in Pune. Nothing else.\n-- tables: orders\n"
        "-- returns: object\nSELECT count(*) AS orders FROM orders WHERE city = 'Pune'\n",
        encoding="utf-8",
    )
    result = run_cli(
        ["tools", "call", "pune_orders", "--db", str(sample_db), "--tools-dir", str(folder)], cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    with duckdb.connect(str(sample_db), read_only=True) as con:
        expected = con.execute("SELECT count(*) FROM orders WHERE city = 'Pune'").fetchone()[0]
    assert json.loads(result.stdout) == {"orders": expected}


def test_tools_list_shows_each_whole_first_sentence(sample_db, tmp_path):
    result = run_cli(["--db", str(sample_db), "tools", "list"], cwd=tmp_path)
    lines = dict(line.split(None, 1) for line in result.stdout.splitlines())
    source = Path(__file__).parents[2] / "sql" / "revenue_trend.sql"
    header = [
        line[3:].strip() for line in source.read_text(encoding="utf-8").splitlines() if line.startswith("-- ")
    ]
    start = next(i for i, line in enumerate(header) if line.startswith("description:"))
    description = " ".join([header[start].removeprefix("description:").strip(), header[start + 1]])
    assert lines["revenue_trend"].strip() == description  # one sentence, "excl." and all
    assert (
        lines["aggregate"].strip() == AGGREGATE_DESCRIPTION.split(". ")[0] + "."
    )  # stops after one sentence


def test_data_commands_work_with_a_broken_config_file_and_say_so(sample_db, tmp_path):
    config = tmp_path / "xdg" / "analytics-agent"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('model = "unclosed\n', encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    tables = run_cli(["--db", str(sample_db), "tables"], cwd=tmp_path, env=env)
    assert tables.returncode == 0 and "orders" in tables.stdout
    assert tables.stderr.startswith("warning: ") and "config.toml: not valid TOML" in tables.stderr
    schema = run_cli(["--db", str(sample_db), "schema", "orders"], cwd=tmp_path, env=env)
    assert schema.returncode == 0 and "city" in schema.stdout
    ask = run_cli(["--db", str(sample_db), "ask", "q", "--model", "m"], cwd=tmp_path, env=env)
    assert ask.returncode == 2 and ask.stderr.startswith("error: ") and "not valid TOML" in ask.stderr


def test_an_empty_database_says_how_to_load_a_table(empty_db, tmp_path):
    db = ["--db", str(empty_db)]
    assert run_cli([*db, "tables"], cwd=tmp_path).stdout.strip() == NO_TABLES
    assert run_cli([*db, "tables", "--json"], cwd=tmp_path).stdout.strip() == "[]"
    for call in (
        ["describe_table", '{"table": "orders"}'],
        ["aggregate", '{"table": "t", "metrics": [{"fn": "count"}]}'],
    ):
        result = run_cli([*db, "tools", "call", *call], cwd=tmp_path)
        assert (result.returncode, result.stdout.strip()) == (1, f"Error: {NO_TABLES}")
    schema = run_cli([*db, "schema", "orders"], cwd=tmp_path)
    assert schema.returncode == 1 and NO_TABLES in schema.stderr


def test_demo_explains_when_its_sample_tables_are_gone(sample_db, tmp_path):
    assert run_cli(["--db", str(sample_db), "drop", "order_items"], cwd=tmp_path).returncode == 0
    result = run_cli(["--db", str(sample_db), "demo"], cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("error: the demo needs the sample tables")
    assert f"delete {sample_db}" in result.stderr and "Traceback" not in result.stderr
