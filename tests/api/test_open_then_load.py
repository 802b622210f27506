"""A load right after ``aa.open()``, before any call (an audit found it untested): ``open`` must let go of
the database file at once, so both this workspace and another process can write to it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import analytics_agent as aa

REAL = Path(__file__).resolve().parents[1] / "data" / "real"


def _existing_db(tmp_path: Path) -> Path:
    db = tmp_path / "shared.duckdb"
    with aa.open(db) as first:
        first.load(REAL / "airlines.csv")
    return db


def test_a_terminal_load_right_after_open_before_any_call(tmp_path: Path) -> None:
    """``open`` reads the database (its tables, its tools) and must not keep the file: a terminal's load
    into it before this workspace made a single call succeeds, and the next call sees the new table."""
    db = _existing_db(tmp_path)
    ws = aa.open(db)
    result = subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(db), "load", str(REAL / "penguins.csv")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(row[0] for row in ws.tables().rows) == ["airlines", "penguins"]
    ws.close()


def test_the_workspaces_own_load_right_after_open_then_a_call(tmp_path: Path) -> None:
    db = _existing_db(tmp_path)
    ws = aa.open(db)
    loaded = ws.load(REAL / "penguins.csv")
    assert loaded.table == "penguins"
    r = ws.call("aggregate", {"table": "penguins", "metrics": [{"fn": "count"}]})
    assert r.rows == [[loaded.rows]]
    assert sorted(row[0] for row in ws.tables().rows) == ["airlines", "penguins"]
    ws.close()
