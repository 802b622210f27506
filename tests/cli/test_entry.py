"""The console script's first step: ``tools`` and ``load`` run without Python's cyclic collector (start-up
cost behind docs/performance.md rows 5 and 3); every other command keeps it."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from analytics_agent.cli import entry
from tests.mcp_session import FIRST_TOOL_LIST_STDIN


@pytest.mark.parametrize(
    ("argv", "collector"),
    [
        (["--db", "x.duckdb", "tools", "call", "sales_summary", "{}"], False),
        (["-v", "load", "orders.csv"], False),
        (["tables"], True),
        (["schema", "orders"], True),
        (["mcp"], True),
        (["chat"], True),
        (["ask", "how many orders?"], True),
        (["--help"], True),
        (["no-such-command"], True),
    ],
)
def test_only_the_benchmarked_one_shot_commands_run_without_the_cyclic_collector(
    monkeypatch, argv, collector
):
    seen: list[bool] = []
    at_exit: list[object] = []
    monkeypatch.setattr("analytics_agent.cli.app.main", lambda: seen.append(gc.isenabled()))
    monkeypatch.setattr("analytics_agent.cli.load_cmd.run_quick", lambda quick: seen.append(gc.isenabled()))
    monkeypatch.setattr("analytics_agent.cli.quick_call.run_call", lambda quick: seen.append(gc.isenabled()))
    monkeypatch.setattr("analytics_agent.cli.entry.atexit.register", at_exit.append)
    monkeypatch.setattr(sys, "argv", ["analytics-agent", *argv])
    try:
        entry.main()
    finally:
        gc.enable()
    assert seen == [collector]
    # a one-shot command's objects are frozen at exit, so the interpreter's last collection skips them
    assert at_exit == ([] if collector else [gc.freeze])


def test_the_installed_script_and_python_m_start_through_the_entry():
    done = subprocess.run(
        [sys.executable, "-c", "import runpy, sys; sys.argv = ['x', '--version']; "
         "runpy.run_module('analytics_agent', run_name='__main__')"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.startswith("analytics-agent ")
    import tomllib
    from pathlib import Path

    scripts = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["analytics-agent"] == "analytics_agent.cli.entry:script"


def test_the_mcp_server_freezes_what_start_up_built_before_it_serves(sample_db, tmp_path):
    """The server keeps the collector (it runs for hours) but takes start-up's objects out of its walks."""
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('collector', gc.isenabled(), 'frozen', gc.get_freeze_count(), file=sys.stderr))\n"
        f"sys.argv = ['analytics-agent', '--db', {str(sample_db)!r}, 'mcp']\n"
        "from analytics_agent.cli.entry import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        input=FIRST_TOOL_LIST_STDIN,
        capture_output=True, text=True, check=False, cwd=tmp_path, timeout=600,
    )  # fmt: skip
    assert '"id":1' in done.stdout.replace(" ", ""), done.stderr[-800:]
    collector, frozen = done.stderr.rsplit("collector ", 1)[1].split(" frozen ")
    assert collector == "True" and int(frozen) > 10_000  # DuckDB's and our modules' objects alone


_SCRIPT = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('interpreter exit', file=sys.stderr))\n"
    "sys.argv = ['analytics-agent', *sys.argv[1:]]\n"
    "from analytics_agent.cli.entry import script\n"
    "script()\n"
)


def test_a_finished_plain_load_ends_without_the_interpreters_teardown(sample_db, tmp_path):
    """Its output complete and flushed, its table committed; the interpreter's exit (atexit, taking DuckDB
    and the modules apart: a tenth of a small load's CPU) never runs. An error ends as before."""
    path = tmp_path / "visits.csv"
    path.write_text("day,visits\n2024-01-01,3\n2024-01-02,5\n")
    args = ["--db", str(sample_db), "load", str(path), "--table", "visits"]
    done = subprocess.run([sys.executable, "-c", _SCRIPT, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Loaded 2 rows from visits.csv into visits") and "visits" in done.stdout
    assert "interpreter exit" not in done.stderr
    assert not sample_db.with_name(sample_db.name + ".wal").exists()  # closed and checkpointed before
    import duckdb

    with duckdb.connect(str(sample_db), read_only=True) as conn:
        assert conn.execute("SELECT sum(visits) FROM visits").fetchone() == (8,)

    failed = subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args[:3], str(tmp_path / "missing.csv")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert failed.returncode == 1 and failed.stderr.startswith("error: ")
    assert failed.stderr.rstrip().endswith("interpreter exit")


def test_a_finished_plain_call_ends_without_the_interpreters_teardown(sample_db):
    """A plain ``tools call`` (read without typer, ``cli.quick_call``) ends as a plain load does: its answer
    complete and flushed, the interpreter's exit skipped. A refused call ends as before, exit 1."""
    call = '{"table": "orders", "group_by": ["channel"]}'
    args = ["--db", str(sample_db), "tools", "call", "aggregate"]
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args, call], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith('{"columns":["channel","count"]') and done.stdout.endswith("}\n")
    assert "interpreter exit" not in done.stderr
    refused = subprocess.run(
        [sys.executable, "-c", _SCRIPT, *args, '{"table": "orderz"}'],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 1 and refused.stdout.startswith("Error: table: ")
    assert refused.stderr.rstrip().endswith("interpreter exit")
