"""Files read where they lie: a hive-partitioned Parquet folder and a CSV glob seen as tables, answered by
the tools as DuckDB itself answers over the same files, with the sandbox still closed to everything else."""

from __future__ import annotations

import json
import re

import duckdb
import pytest

from analytics_agent.db.linked.profiles import cache_dir
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.workspace.workspace import Workspace

ROWS = 30_000


@pytest.fixture(scope="module")
def trips_folder(tmp_path_factory):
    """A hive-partitioned Parquet folder (region=…/month=…), written by DuckDB, plus a file next to it."""
    root = tmp_path_factory.mktemp("lake")
    conn = duckdb.connect()
    conn.execute(
        f"COPY (SELECT i AS trip_id, ['north', 'south', 'east'][i % 3 + 1] AS region, i % 4 + 1 AS month, "
        f"DATE '2026-01-01' + (i % 120)::INTEGER AS day, round((i * 7919 % 1000) / 10.0, 1) AS fare "
        f"FROM range({ROWS}) t(i)) TO '{root}/trips' (FORMAT parquet, PARTITION_BY (region, month))"
    )
    conn.execute(f"COPY (SELECT 'planted-secret' AS s) TO '{root}/private.parquet' (FORMAT parquet)")
    (root / "csv").mkdir()
    for part in range(3):
        (root / "csv" / f"visits-{part}.csv").write_text(
            "city,visits\n" + "".join(f"city{j},{part * 10 + j}\n" for j in range(5))
        )
    return root


def _open(db, *sources, allow_sql=True):
    return Workspace.open(db, sources=list(sources), allow_sql=allow_sql)


def _call(ws, name, args):
    outcome = ws.executor.execute(name, json.dumps(args))
    assert not outcome.is_error, outcome.text
    return json.loads(outcome.text)


def test_a_partitioned_folder_answers_as_duckdb_does_over_the_same_files(sample_db, trips_folder):
    source = parse_source("trips", {"type": "files", "path": str(trips_folder / "trips")})
    size_before = sample_db.stat().st_size
    with _open(sample_db, source) as ws:
        assert ws.linked_tables == {"trips": "trips"}
        got = _call(ws, "aggregate", {
            "table": "trips", "metrics": [{"fn": "sum", "column": "fare"}, {"fn": "count"}],
            "group_by": ["region"], "filters": [{"column": "month", "op": "=", "value": 2}],
        })  # fmt: skip
        tables = {row[0]: row[1] for row in _call(ws, "list_tables", {})["rows"]}
    expected = duckdb.sql(
        f"SELECT region, round(sum(fare), 2), count(*) FROM read_parquet('{trips_folder}/trips/**/*.parquet', "
        "hive_partitioning = true) WHERE month = 2 GROUP BY region"
    ).fetchall()
    assert sorted((r[0], round(r[1], 2), r[2]) for r in got["rows"]) == sorted(expected)
    assert tables["trips"] == ROWS and "orders" in tables  # the database's own tables are still there
    assert sample_db.stat().st_size == size_before  # nothing was copied into the file


def test_a_filter_on_the_partition_key_reads_only_its_partitions(sample_db, trips_folder):
    source = parse_source("trips", {"type": "files", "path": str(trips_folder / "trips")})
    with _open(sample_db, source) as ws:
        plan = (
            ws.cursor()
            .execute("EXPLAIN ANALYZE SELECT count(*) FROM trips WHERE region = 'north' AND month = 3")
            .fetchall()[0][1]
        )
    scanned = re.search(r"Scanning Files: (\d+)/(\d+)", plan)
    assert scanned and (int(scanned.group(1)), int(scanned.group(2))) == (1, 12)


def test_a_csv_glob_is_one_table_and_describe_table_profiles_it(sample_db, trips_folder):
    source = parse_source("visits", {"type": "files", "path": str(trips_folder / "csv" / "*.csv")})
    with _open(sample_db, source) as ws:
        described = _call(ws, "describe_table", {"table": "visits"})
        total = _call(ws, "aggregate", {"table": "visits", "metrics": [{"fn": "sum", "column": "visits"}]})
    assert described["rows"] == 15
    assert [c["name"] for c in described["columns"]] == ["city", "visits"]
    assert total["rows"][0][0] == sum(part * 10 + j for part in range(3) for j in range(5))


def test_free_sql_still_reads_no_other_file_and_calls_no_connector(sample_db, trips_folder):
    source = parse_source("trips", {"type": "files", "path": str(trips_folder / "trips")})
    attempts = [
        f"SELECT * FROM read_parquet('{trips_folder}/private.parquet')",
        f"SELECT * FROM read_text('{trips_folder}/private.parquet')",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM postgres_scan('host=127.0.0.1 dbname=postgres', 'public', 'x')",
        "SELECT * FROM (SELECT 1) JOIN postgres_query('src_shop', 'select 1') ON true",
    ]
    with _open(sample_db, source) as ws:
        settings = dict(ws.cursor().execute(
            "SELECT name, value FROM duckdb_settings() WHERE name IN ('enable_external_access', 'lock_configuration')"
        ).fetchall())  # fmt: skip
        outcomes = [ws.executor.execute("run_sql", json.dumps({"query": q})) for q in attempts]
    assert settings == {"enable_external_access": "false", "lock_configuration": "true"}
    for query, outcome in zip(attempts, outcomes, strict=True):
        assert outcome.is_error, query
        assert "planted-secret" not in outcome.text and "root:" not in outcome.text


def test_a_source_table_named_like_a_loaded_table_is_skipped_with_a_reason(sample_db, trips_folder):
    clash = parse_source("orders", {"type": "files", "path": str(trips_folder / "trips")})
    with _open(sample_db, clash) as ws:
        orders = _call(ws, "describe_table", {"table": "orders"})
    assert orders["rows"] == 42_000  # still the database's own table
    assert ws.linked_tables == {}
    assert ws.source_problems and "orders" in ws.source_problems[0] and "prefix" in ws.source_problems[0]


def test_profiles_are_computed_once_and_again_when_the_source_changes(sample_db, trips_folder, monkeypatch):
    from analytics_agent.db import catalog

    source = parse_source("trips", {"type": "files", "path": str(trips_folder / "trips")})
    scans: list[str] = []
    real = catalog.compute_profile

    def counting(cur, table):
        scans.append(table)
        return real(cur, table)

    monkeypatch.setattr("analytics_agent.db.linked.profiles.compute_profile", counting)
    with _open(sample_db, source):
        pass
    with _open(sample_db, source):
        pass
    assert scans == ["trips"] and (cache_dir() / "trips.json").is_file()
    changed = parse_source("trips", {"type": "files", "path": str(trips_folder / "trips"), "hive": True})
    with _open(sample_db, changed):
        pass
    assert scans == ["trips", "trips"]
