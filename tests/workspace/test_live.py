"""LiveWorkspace lets go of the file when idle and notices when another process changed it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analytics_agent.workspace import live as live_module
from analytics_agent.workspace.live import LiveWorkspace

PUNE = {"city": "Pune", "day": "2026-10-24"}
OPEN_FOR_WRITING = "import duckdb, sys; duckdb.connect(sys.argv[1]).close()"


def _other_process(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=600, env=dict(os.environ), **kwargs
    )


def _load(db: Path, csv: Path) -> subprocess.CompletedProcess:
    return _other_process("-m", "analytics_agent", "--db", str(db), "load", str(csv), "--table", "regions")


@pytest.fixture
def regions_csv(tmp_path: Path) -> Path:
    path = tmp_path / "regions.csv"
    path.write_text("region,target\nNorth,100\nSouth,250\n", encoding="utf-8")
    return path


def test_the_file_is_held_while_in_use_and_let_go_once_idle(sample_db):
    live = LiveWorkspace(sample_db, idle_s=0)
    try:
        with live.use():
            held = _other_process("-c", OPEN_FOR_WRITING, str(sample_db))
        live.tick()
        free = _other_process("-c", OPEN_FOR_WRITING, str(sample_db))
    finally:
        live.close()
    assert held.returncode != 0 and "lock" in held.stderr.lower()
    assert free.returncode == 0, free.stderr


def test_a_load_by_another_process_rebuilds_the_tools_and_says_what_changed(sample_db, regions_csv):
    live = LiveWorkspace(sample_db, idle_s=0)
    try:
        assert json.loads(live.execute("sales_summary", PUNE).text)["revenue"] == 4798
        assert not live.tick()  # idle: closed, and nothing changed
        assert _load(sample_db, regions_csv).returncode == 0
        change = live.tick()
        assert change.tools and change.tables
        assert "regions" in live.tables
        assert "regions" in live.registry.schema("describe_table")["properties"]["table"]["enum"]
        assert not live.tick()  # reported once
        assert json.loads(live.execute("describe_table", {"table": "regions"}).text)["rows"] == 2
    finally:
        live.close()


def test_a_call_reopening_after_a_change_uses_the_new_tools_and_the_change_is_still_reported(
    sample_db, regions_csv
):
    live = LiveWorkspace(sample_db, idle_s=0)
    try:
        live.tick()
        assert _load(sample_db, regions_csv).returncode == 0
        answer = live.execute("describe_table", {"table": "regions"})  # before any tick
        assert not answer.is_error and json.loads(answer.text)["table"] == "regions"
        assert live.tick().tools
    finally:
        live.close()


def test_a_call_while_another_process_writes_is_an_error_result_not_an_exception(sample_db, monkeypatch):
    monkeypatch.setattr(live_module, "CALL_LOCK_WAIT_S", 0.2)
    live = LiveWorkspace(sample_db, idle_s=0)
    live.tick()  # let go, so the writer gets in
    writer = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys; c = duckdb.connect(sys.argv[1]); print('ready', flush=True); "
         "sys.stdin.read()", str(sample_db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert writer.stdout.readline().strip() == "ready"
        outcome = live.execute("sales_summary", PUNE)
    finally:
        writer.communicate("", timeout=600)
        live.close()
    assert outcome.is_error
    assert outcome.text.startswith("Error: the database") and "in use by another" in outcome.text


def test_linked_sources_are_attached_again_at_every_reopen(sample_db, tmp_path):
    import duckdb

    from analytics_agent.db.linked.spec import parse_source

    duckdb.sql(f"COPY (SELECT i % 3 AS shop, i AS amount FROM range(30) t(i)) TO '{tmp_path}/sales.parquet'")
    source = parse_source("sales", {"type": "files", "path": str(tmp_path / "sales.parquet")})
    live = LiveWorkspace(sample_db, idle_s=0, sources=[source])
    try:
        first = live.execute(
            "aggregate", json.dumps({"table": "sales", "metrics": [{"fn": "sum", "column": "amount"}]})
        )
        live.tick()  # idle: the file is let go, the next call reopens and links again
        second = live.execute("aggregate", json.dumps({"table": "sales", "metrics": [{"fn": "count"}]}))
    finally:
        live.close()
    assert json.loads(first.text)["rows"] == [[sum(range(30))]]
    assert json.loads(second.text)["rows"] == [[30]]
    assert "sales" in live.tables
