"""The console script's first step: one-shot commands run without Python's cyclic collector (a start-up
cost, docs/performance.md); a command that serves, converses or asks a model keeps it."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from analytics_agent.cli import entry


@pytest.mark.parametrize(
    ("argv", "collector"),
    [
        (["--db", "x.duckdb", "tools", "call", "sales_summary", "{}"], False),
        (["-v", "load", "orders.csv"], False),
        (["tables"], False),
        (["mcp"], True),
        (["chat"], True),
        (["ask", "how many orders?"], True),
        (["--help"], True),
        (["no-such-command"], True),
    ],
)
def test_only_one_shot_commands_run_without_the_cyclic_collector(monkeypatch, argv, collector):
    seen: list[bool] = []
    monkeypatch.setattr("analytics_agent.cli.app.main", lambda: seen.append(gc.isenabled()))
    monkeypatch.setattr(sys, "argv", ["analytics-agent", *argv])
    try:
        entry.main()
    finally:
        gc.enable()
    assert seen == [collector]


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
    assert scripts["analytics-agent"] == "analytics_agent.cli.entry:main"
