"""A command imports what it uses and nothing heavier: the set of modules each light command loads, not its
time (the time is in ``tests/bench``). A top-level import added in the wrong module shows up here."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.import_probe import imported_by
from tests.mcp_session import FIRST_TOOL_LIST_STDIN

# what only asking a model, the MCP server, loading, charts or aggregate need
NETWORK_AND_SERVERS = {"httpx", "boto3", "botocore", "mcp", "starlette", "uvicorn", "anyio"}
PLANNER = {
    "analytics_agent.tools.aggregate.tool",
    "analytics_agent.tools.aggregate.plan",
    "analytics_agent.tools.aggregate.sql",
    "analytics_agent.tools.aggregate.query_plan",
    "analytics_agent.tools.aggregate.refs",
    "analytics_agent.tools.semantic.check",
    "analytics_agent.tools.semantic.model",
    "yaml",
}
ASKING = {"analytics_agent.agent.loop", "analytics_agent.providers", "analytics_agent.workspace.session"}
DRAWING = {"analytics_agent.present.charts", "analytics_agent.present.results"}
LOADING = {"analytics_agent.db.load.run"}
COMMAND_MODULES = {"tools_cmd", "data_cmd", "ask_cmd", "eval_cmd", "mcp_cmd", "semantic_cmd", "sources_cmd", "users_cmd",
                   "modes_cmd"}  # fmt: skip
OTHER_COMMANDS = {"tools": COMMAND_MODULES - {"tools_cmd"}, "tables": COMMAND_MODULES - {"data_cmd"}}


def _top(modules: set[str]) -> set[str]:
    """Each module and every package above it, so ``mcp.server`` counts as ``mcp`` too."""
    return {".".join(m.split(".")[:i]) for m in modules for i in range(1, m.count(".") + 2)}


def test_help_imports_neither_duckdb_nor_pydantic_nor_any_tool(tmp_path: Path) -> None:
    found = _top(imported_by(["--help"], cwd=tmp_path).modules)
    heavy = {
        "duckdb",
        "pydantic",
        "analytics_agent.tools",
        "analytics_agent.db",
        "analytics_agent.workspace",
        "socket",
    }
    assert found & (heavy | NETWORK_AND_SERVERS | PLANNER | ASKING | DRAWING | LOADING) == set()


@pytest.mark.parametrize(
    "args",
    [
        ["tools", "list"],
        ["tools", "call", "sales_summary", '{"city": "Pune", "day": "2026-10-24"}'],
        ["tables"],
    ],
    ids=["tools-list", "tools-call", "tables"],
)
def test_a_light_command_leaves_the_planner_the_network_and_charts_out(
    args: list[str], sample_db: Path, tmp_path: Path
) -> None:
    found = _top(imported_by(["--db", str(sample_db), *args], cwd=tmp_path).modules)
    assert "duckdb" in found  # it did run
    assert found & (NETWORK_AND_SERVERS | PLANNER | ASKING | DRAWING | LOADING) == set()
    # plain arguments of a .sql tool are checked without a pydantic model (tools.quick_args); the first
    # model a process builds costs about as much CPU as importing DuckDB
    assert "pydantic" not in found
    # a plain call is read without typer (cli.quick_call)
    assert ("typer" in found) == (args[:2] != ["tools", "call"])
    # a run imports the module of its own command only
    assert found & {f"analytics_agent.cli.{m}" for m in OTHER_COMMANDS[args[0]]} == set()
    # nor what only some runs need: the semantic model (read when aggregate or describe_table is built),
    # the config module (only when a config file exists), the business zone, logging (only when it logs)
    assert (
        found & {"analytics_agent.tools.semantics", "analytics_agent.config", "zoneinfo", "logging"} == set()
    )


def test_the_mcp_servers_first_tool_list_needs_neither_pydantic_nor_the_sdk(
    sample_db: Path, tmp_path: Path
) -> None:
    """Every schema in the list is rendered from the tools' definitions without building a pydantic model
    (``tools.param_schema``, ``aggregate.schema``): importing pydantic and building the first model cost
    more CPU than the rest of the answer. The planner is there: aggregate is built while the file is open."""
    stdin = FIRST_TOOL_LIST_STDIN.encode()
    found = _top(imported_by(["--db", str(sample_db), "mcp"], cwd=tmp_path, stdin=stdin).modules)
    assert "analytics_agent.tools.aggregate.tool" in found  # it did build every tool
    assert found & {"pydantic", "pydantic_core", "analytics_agent.tools.args.models", "mcp"} == set()


def test_aggregate_is_imported_by_the_command_that_calls_it(sample_db: Path, tmp_path: Path) -> None:
    """The other side of the guard: the probe sees a deferred tool being built."""
    args = ["tools", "call", "aggregate", '{"table": "orders"}']
    found = imported_by(["--db", str(sample_db), *args], cwd=tmp_path).modules
    assert {"analytics_agent.tools.aggregate.tool", "analytics_agent.tools.aggregate.plan"} <= found


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (["--db", "x.duckdb", "-v", "tools", "call", "a"], "tools"),
        (["--db=x.duckdb", "--tools-dir", "d", "--allow-sql", "tables"], "tables"),
        (["--help"], None),
        (["--version"], None),
        (["--unknown", "tables"], None),
        (["--db", "tables"], None),  # "tables" is the --db value here, no command follows
        ([], None),
    ],
)
def test_the_command_a_run_names(argv: list[str], name: str | None) -> None:
    from analytics_agent.cli.argv import command_name

    assert command_name(argv) == name


def test_a_run_builds_only_its_command_and_mistakes_get_the_whole_app() -> None:
    from analytics_agent.cli.app import app, app_for

    trimmed = app_for(["tools", "list"])
    assert [g.name for g in trimmed.registered_groups] == ["tools"] and trimmed.registered_commands == []
    assert [c.name for c in app_for(["--db", "x", "tables"]).registered_commands] == ["tables"]
    assert app_for(["tabels"]) is app and app_for(["--help"]) is app
    assert len(app.registered_commands) > 1  # the whole app is left as it was


def test_loading_a_plain_csv_imports_neither_gzip_nor_glob_nor_the_error_path(
    sample_db: Path, tmp_path: Path
) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text("a,b\n1,x\n2,y\n")
    found = _top(imported_by(["--db", str(sample_db), "load", str(plain)], cwd=tmp_path).modules)
    assert "analytics_agent.db.load.run" in found  # it did run
    # a .gz file, a glob pattern and a refusal's explanation are each a run's own
    assert found & {"gzip", "glob", "analytics_agent.db.load.reader_errors", "pydantic"} == set()


def test_loading_a_table_with_no_totals_row_imports_neither_the_sums_nor_the_retyping(
    sample_db: Path, tmp_path: Path
) -> None:
    """The sums of a totals row, a stack of them and the retyping of columns after dropped rows are the
    load's only when its last row is labelled as a total (or holds no text) or rows are dropped."""
    plain = tmp_path / "plain.csv"
    plain.write_text("city,temp,note\nPune,31,dry\nOslo,4,wet\nLima,19,dry\nKyiv,2,snow\nNice,15,sun\n")
    found = _top(imported_by(["--db", str(sample_db), "load", str(plain)], cwd=tmp_path).modules)
    assert "analytics_agent.db.load.settle.totals" in found  # the totals check did run
    settle = "analytics_agent.db.load.settle"
    assert found & {f"{settle}.total_sums", f"{settle}.stacked_totals", f"{settle}.retype"} == set()


@pytest.mark.parametrize(
    "call",
    [
        [
            "aggregate",
            '{"table": "orders", "group_by": ["status"], "metrics": [{"fn": "sum", "column": "freight"}]}',
        ],
        ["describe_table", '{"table": "orders"}'],
    ],
    ids=["aggregate", "describe_table"],
)
def test_a_call_on_a_database_of_your_own_reads_no_model_no_yaml_no_config(
    call: list[str], tmp_path: Path
) -> None:
    """Issue 37: on your own tables (no semantic file, no sample tables) the plain command line is read
    without typer (``cli.quick_call``), plainly valid arguments without pydantic (``aggregate.quick``), no
    semantic model is parsed or checked, and the business zone is found without the config module."""
    from tests.normalized_db import build_normalized_db

    own = tmp_path / "own.duckdb"
    build_normalized_db(own)
    found = _top(imported_by(["--db", str(own), "tools", "call", *call], cwd=tmp_path).modules)
    assert "analytics_agent.tools.catalog.tools" in found  # it did run
    heavy = {
        "pydantic",
        "pydantic_core",
        "yaml",
        "typer",
        "analytics_agent.tools.args.models",
        "analytics_agent.config",
    }
    semantic = {"analytics_agent.tools.semantic.check", "analytics_agent.tools.semantic.model"}
    assert found & (heavy | semantic | NETWORK_AND_SERVERS | ASKING | DRAWING | LOADING) == set()
