"""The console command takes its imported modules out of the garbage collector's walks (``gc.freeze``);
a command run in-process (tests, a notebook) leaves the collector alone."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from analytics_agent.cli.app import app

_CONSOLE = """
import gc, sys
from analytics_agent.cli.app import main
sys.argv = ["analytics-agent", "--db", sys.argv[1], "load", sys.argv[2], "--table", "t"]
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
print("frozen", gc.get_freeze_count(), file=sys.stderr)
"""


def _csv(tmp_path: Path) -> Path:
    path = tmp_path / "small.csv"
    path.write_text("id,name\n1,a\n2,b\n")
    return path


def test_a_console_load_freezes_the_objects_its_imports_made(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CONSOLE, str(tmp_path / "c.duckdb"), str(_csv(tmp_path))],
        capture_output=True,
        text=True,
        check=True,
    )
    frozen = int(done.stderr.rsplit("frozen ", 1)[1])
    # duckdb's and the loader's modules alone hold tens of thousands of objects
    assert frozen > 10_000, done.stderr


def test_a_load_run_in_process_leaves_the_collector_alone(tmp_path: Path) -> None:
    before = gc.get_freeze_count()
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "p.duckdb"), "load", str(_csv(tmp_path))])
    assert result.exit_code == 0, result.output
    assert gc.get_freeze_count() == before
