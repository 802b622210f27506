"""A source's version (a DuckLake's snapshot) keys its cached profiles: the same version reads the cache, a
new one (another process committed to the lake) profiles the table again; a lake whose snapshot cannot be
read keeps the old behaviour instead of failing the source."""

from __future__ import annotations

import json

import duckdb

from analytics_agent.db.catalog import LINKED, SEARCH_PATH
from analytics_agent.db.linked.link import _ducklake_snapshot
from analytics_agent.db.linked.profiles import install_profiles
from analytics_agent.db.linked.spec import parse_source


def _linked(rows: int) -> duckdb.DuckDBPyConnection:
    conn = duckdb.connect()
    conn.execute(f"ATTACH ':memory:' AS {LINKED}")
    conn.execute(f"CREATE VIEW {LINKED}.main.trips AS SELECT i AS trip_id FROM range({rows}) t(i)")
    conn.execute(f"SET search_path = '{SEARCH_PATH}'")  # as linking leaves it
    return conn


def _profiled_rows(conn: duckdb.DuckDBPyConnection) -> int:
    [(text,)] = conn.execute(f"SELECT profile FROM {LINKED}._agent.profiles").fetchall()
    return json.loads(text)["rows"]


def test_a_new_snapshot_profiles_again_and_the_same_one_reads_the_cache(tmp_path):
    source = parse_source("lake", {"type": "files", "path": str(tmp_path / "*.parquet")})
    seen = []
    for rows, version in ((10, "snapshot 1"), (20, "snapshot 1"), (20, "snapshot 2")):
        conn = _linked(rows)
        install_profiles(
            conn, [source], {"trips": "lake"}, folder=tmp_path / "cache", versions={"lake": version}
        )
        seen.append(_profiled_rows(conn))
        conn.close()
    # the second open read the cache (10, though the table now has 20); the new snapshot was profiled
    assert seen == [10, 10, 20]


def test_a_lake_whose_snapshot_cannot_be_read_has_no_version():
    conn = duckdb.connect()
    assert _ducklake_snapshot(conn, "src_lake") is None
