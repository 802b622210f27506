"""Files in place at scale: a hive-partitioned Parquet folder (100M rows, several GB, far over the
sandbox's 1 GB memory limit) linked as a source, `aggregate` through the executor against the same SQL on
plain DuckDB over the same files (the SQL the tool runs, same memory limit and threads), Python memory, and
partition pruning.

``python -m tests.bench --only sources`` (``--source-rows 10m`` for a quicker run). The folder is built once
with DuckDB and cached beside the other benchmark data.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
import tracemalloc
from pathlib import Path

import duckdb

from tests.bench.common import Result, fmt_ms, interleaved, proc_status_kib
from tests.bench.data import cache_dir

MONTHS = 24
CITIES = 40


def dataset(rows: int, *, log=print) -> Path:
    folder = cache_dir() / f"trips-{rows}"
    if (folder / ".done").exists():
        return folder
    log(f"building {rows:,} rows of hive-partitioned Parquet in {folder} (once) …")
    started = time.perf_counter()
    conn = duckdb.connect(config={"memory_limit": "4GB", "preserve_insertion_order": False})
    conn.execute(
        f"""COPY (
            SELECT i AS trip_id,
                   'city_' || lpad((hash(i) % {CITIES})::VARCHAR, 2, '0') AS city,
                   strftime(DATE '2024-01-01' + INTERVAL (i % {MONTHS}) MONTH, '%Y-%m') AS month,
                   (DATE '2024-01-01' + INTERVAL (i % {MONTHS}) MONTH + INTERVAL (hash(i * 7) % 28) DAY)::DATE AS day,
                   round((hash(i * 13) % 10000) / 100.0, 2) AS fare,
                   round((hash(i * 17) % 5000) / 100.0, 2) AS distance,
                   md5(i::VARCHAR)[:20] AS booking_ref
            FROM range({rows}) t(i)
        ) TO '{folder}' (FORMAT parquet, PARTITION_BY (month), OVERWRITE_OR_IGNORE)"""
    )
    conn.close()
    (folder / ".done").write_text(str(rows))
    log(f"built in {time.perf_counter() - started:.0f} s")
    return folder


QUERIES = {
    "sum by city (full scan)": (
        {"table": "trips", "metrics": [{"fn": "sum", "column": "fare"}, {"fn": "count"}], "group_by": ["city"]},
        'SELECT "city", sum("fare") AS "sum_fare", count(*) AS "count" FROM "trips" GROUP BY 1 '
        'ORDER BY "sum_fare" DESC NULLS LAST, 1 ASC',
    ),
    "one month by city (pruned)": (
        {
            "table": "trips", "metrics": [{"fn": "avg", "column": "distance"}], "group_by": ["city"],
            "filters": [{"column": "month", "op": "=", "value": "2025-03"}],
        },
        'SELECT "city", avg("distance") AS "avg_distance" FROM "trips" WHERE "month" = \'2025-03\' GROUP BY 1 '
        'ORDER BY "avg_distance" DESC NULLS LAST, 1 ASC',
    ),
    "distinct cities, max fare": (
        {"table": "trips", "metrics": [{"fn": "count_distinct", "column": "city"}, {"fn": "max", "column": "fare"}]},
        'SELECT count(DISTINCT "city") AS "count_distinct_city", max("fare") AS "max_fare" FROM "trips"',
    ),
}  # fmt: skip


def run(*, rows: int = 100_000_000, runs: int = 3) -> Result:
    from analytics_agent.db.linked.spec import parse_source
    from analytics_agent.workspace.workspace import Workspace

    folder = dataset(rows)
    size = sum(p.stat().st_size for p in folder.rglob("*.parquet"))
    files = sum(1 for _ in folder.rglob("*.parquet"))
    db = Path(tempfile.mkdtemp()) / "empty.duckdb"
    duckdb.connect(str(db)).close()
    source = parse_source("trips", {"type": "files", "path": str(folder)})
    ws = Workspace.open(db, sources=[source])
    plain = duckdb.connect(config={"memory_limit": "1GB", "threads": 2})
    plain.execute(
        f"CREATE VIEW trips AS SELECT * FROM read_parquet('{folder}/**/*.parquet', hive_partitioning = true)"
    )
    result = Result(
        "sources: files in place", ["query", "tool ms", "plain DuckDB ms", "ratio", "Python peak KiB"]
    )
    for label, (args, sql) in QUERIES.items():
        text = json.dumps(args)

        def tool(text=text):
            outcome = ws.executor.execute("aggregate", text)
            assert not outcome.is_error, outcome.text

        def by_hand(sql=sql):
            plain.execute(sql).fetchall()

        tool(), by_hand()
        pair = interleaved(tool, by_hand, runs=runs)
        tracemalloc.start()
        tool()
        peak = tracemalloc.get_traced_memory()[1] // 1024
        tracemalloc.stop()
        result.rows.append([label, fmt_ms(pair.first_wall), fmt_ms(pair.second_wall),
                            f"{pair.first_wall / pair.second_wall:.2f}x", peak])  # fmt: skip
    plan = (
        ws.cursor().execute("EXPLAIN ANALYZE SELECT count(*) FROM trips WHERE month = '2025-03'").fetchall()
    )
    scanned = re.search(r"Scanning Files: (\d+)/(\d+)", plan[0][1])
    ws.close()
    result.summary.update({
        "rows": rows, "parquet files": files, "bytes on disk": f"{size / 2**30:.2f} GiB",
        "partition filter scans": f"{scanned.group(1)}/{scanned.group(2)} files" if scanned else "?",
        "process peak RSS": f"{proc_status_kib('VmHWM') / 1024:,.0f} MiB",
        "database file": f"{db.stat().st_size:,} bytes (nothing copied)",
    })  # fmt: skip
    result.notes.append("sandbox memory_limit 1GB, 2 threads, on both sides; medians of interleaved runs")
    return result
