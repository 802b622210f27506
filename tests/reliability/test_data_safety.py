"""Data safety: two processes loading at once, and a process killed mid-load. Whatever happens, the
database opens afterwards, holds no partial table, and the data that was there is unchanged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.connect import ensure_database

CLI = [sys.executable, "-m", "analytics_agent"]


def _write_csv(path: Path, rows: int, *, seed: int = 0) -> None:
    conn = duckdb.connect()
    try:
        conn.execute(
            f"COPY (SELECT i AS id, 'name ' || (i % 1000) AS name, (i * 7 + {seed}) % 100000 AS amount, "
            "DATE '2026-01-01' + CAST(i % 300 AS INTEGER) AS day "
            f"FROM range({rows}) t(i)) TO '{path}' (HEADER)"
        )
    finally:
        conn.close()


def _tables(db: Path) -> dict[str, int]:
    """Every table with its row count, read by a fresh process-local connection (it must open)."""
    conn = duckdb.connect(str(db), read_only=True)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
            ).fetchall()
        ]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


def _profiles(db: Path) -> set[str]:
    conn = duckdb.connect(str(db), read_only=True)
    try:
        return {r[0] for r in conn.execute("SELECT table_name FROM _agent.profiles").fetchall()}
    finally:
        conn.close()


def _load(db: Path, csv: Path, table: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*CLI, "--db", str(db), "load", str(csv), "--table", table],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "data.duckdb"
    ensure_database(path, sample_data=True)
    return path


def test_two_processes_loading_at_once_leave_whole_tables_or_one_clear_error(db, tmp_path):
    sample = _tables(db)
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    _write_csv(first, 200_000)
    _write_csv(second, 150_000, seed=3)
    procs = {"first": _load(db, first, "first"), "second": _load(db, second, "second")}
    outcomes = {name: (p.wait(timeout=600), *p.communicate()) for name, p in procs.items()}
    tables = _tables(db)
    assert {k: tables[k] for k in sample} == sample  # the sample data is untouched
    expected_rows = {"first": 200_000, "second": 150_000}
    loaded = 0
    for name, (code, _out, err) in outcomes.items():
        if code == 0:
            assert tables[name] == expected_rows[name]
            loaded += 1
        else:  # the loser says why in one line, and left nothing behind
            assert code == 1 and name not in tables
            lines = err.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("error: ") and "in use" in lines[0], err
            assert "Traceback" not in err
    assert loaded >= 1
    assert set(tables) - set(sample) <= {"first", "second"}  # no _loading_* or other partial table
    assert _profiles(db) == set(tables)


def test_the_same_table_from_two_processes_ends_as_one_whole_load(db, tmp_path):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    _write_csv(a, 120_000)
    _write_csv(b, 80_000, seed=5)
    procs = [_load(db, a, "sales"), _load(db, b, "sales")]
    codes = [p.wait(timeout=600) for p in procs]
    errors = [p.communicate()[1] for p in procs]
    assert codes.count(0) >= 1
    assert _tables(db)["sales"] in (120_000, 80_000)
    for code, err in zip(codes, errors, strict=True):
        if code:
            assert len(err.strip().splitlines()) == 1 and ("in use" in err or "already exists" in err), err


def test_a_process_killed_mid_load_leaves_the_database_as_it_was(db, tmp_path):
    before = _tables(db)
    csv = tmp_path / "big.csv"
    _write_csv(csv, 3_000_000)
    size = db.stat().st_size
    proc = _load(db, csv, "big")
    wal = db.with_name(db.name + ".wal")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        if wal.exists() or db.stat().st_size != size:  # the load has started writing
            break
        time.sleep(0.01)
    time.sleep(0.2)  # well inside the load: converting 3M rows takes longer than this
    assert proc.poll() is None, "the load finished before it could be killed; use a bigger file"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    assert _tables(db) == before  # opens, and holds exactly what it held: no 'big', no half table
    assert "big" not in _profiles(db)
    again = _load(db, csv, "big")  # the lock died with the process; the next load works
    assert again.wait(timeout=600) == 0, again.communicate()[1]
    assert _tables(db)["big"] == 3_000_000
