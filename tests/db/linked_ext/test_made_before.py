"""Installing the ``lake`` extra (DuckDB pinned to an older release) must never cost a user their databases.

The files are made by the main environment's (newer) DuckDB through our own command line, as a user made
them before installing the extra: the sample database, the demo's and one loaded with ``--db``. This
environment's DuckDB must then open all three. A file stored in a newer format we did not make (plain
``duckdb.connect`` of the newer DuckDB) gets one line saying what happened and what to do.

CI (.ci/run) passes the main environment's interpreter in ANALYTICS_AGENT_MAIN_PYTHON.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import duckdb
import pytest
from cli_process import run_cli

REAL = Path(__file__).resolve().parents[2] / "data" / "real"
MAIN_PYTHON = os.environ.get("ANALYTICS_AGENT_MAIN_PYTHON", "")


def _main(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [MAIN_PYTHON, *args], cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=300
    )


@pytest.fixture(scope="module")
def made_before(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not MAIN_PYTHON:
        pytest.skip("ANALYTICS_AGENT_MAIN_PYTHON (the main environment's python) is not set")
    version = _main(["-c", "import duckdb; print(duckdb.__version__)"], {}, Path.cwd()).stdout.strip()
    if not version or tuple(map(int, version.split(".")[:2])) <= tuple(
        map(int, duckdb.__version__.split(".")[:2])
    ):
        pytest.skip(
            f"the main environment's DuckDB ({version}) is not newer than this one's ({duckdb.__version__})"
        )
    root = tmp_path_factory.mktemp("made-before")
    env = {"XDG_DATA_HOME": str(root / "data"), "XDG_CONFIG_HOME": str(root / "config")}
    for args in (
        ["-m", "analytics_agent", "tables"],
        ["-m", "analytics_agent", "demo"],
        ["-m", "analytics_agent", "--db", str(root / "own.duckdb"), "load", str(REAL / "airlines.csv")],
        [
            "-c",
            f"import duckdb; duckdb.connect({str(root / 'newer.duckdb')!r}).execute('CREATE TABLE t AS SELECT 1')",
        ],
    ):
        done = _main(args, env, root)
        assert done.returncode == 0, done.stderr
    return root


@pytest.mark.parametrize(
    "name", ["data/analytics-agent/analytics.duckdb", "data/analytics-agent/demo.duckdb", "own.duckdb"]
)
def test_files_made_by_the_newer_duckdb_open_here(made_before: Path, name: str) -> None:
    path = made_before / name
    assert path.is_file()
    done = run_cli(
        ["--db", str(path), "tables"], cwd=made_before, env={"XDG_DATA_HOME": str(made_before / "data")}
    )
    assert done.returncode == 0, done.stderr
    assert ("airlines" if name == "own.duckdb" else "orders") in done.stdout


def test_a_file_in_a_newer_format_gets_one_line_saying_what_to_do(made_before: Path) -> None:
    done = run_cli(["--db", str(made_before / "newer.duckdb"), "tables"], cwd=made_before)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "written by a newer DuckDB" in lines[0] and "lake" in lines[0] and "version number" not in lines[0]
