"""The write's batches (``read.batches``): a big file is shared out among threads in batches of whole row
groups, so DuckDB's order-keeping insert neither copies small batches together nor leaves a part-filled
row group in the middle of the table; and the rows stay in the file's order."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.read.batches import (
    DUCKDB_BATCH,
    MAX_BATCH,
    ROW_GROUP_ROWS,
    ROW_GROUPS_PER_BATCH,
    batch_size,
    write_batch,
)
from analytics_agent.db.load.run import load_files

MB = 1 << 20


def test_a_batch_holds_the_row_groups_of_rows_as_wide_as_the_first_lines() -> None:
    head = b"".join(b"%09d,%s\n" % (i, b"x" * 189) for i in range(300))  # 200 bytes a line
    size = batch_size(60 * MB, head)
    assert size is not None and size % MB == 0
    assert (
        200 * ROW_GROUPS_PER_BATCH * ROW_GROUP_ROWS <= size < 200 * ROW_GROUPS_PER_BATCH * ROW_GROUP_ROWS + MB
    )


def test_duckdb_keeps_its_own_batches_where_they_already_hold_the_row_groups() -> None:
    narrow = b"1,2\n" * 1000  # 4 bytes a line: 8 MB is two million rows
    assert batch_size(500 * MB, narrow) is None
    wide = b"%s\n" % (b"y" * 999) * 60
    assert batch_size(DUCKDB_BATCH, wide) is None  # one default batch already
    assert batch_size(DUCKDB_BATCH + 1, wide) is None  # 1,000-byte rows: no buffer holds four row groups
    widest = MAX_BATCH // (ROW_GROUPS_PER_BATCH * ROW_GROUP_ROWS)
    assert batch_size(DUCKDB_BATCH + 1, b"%s\n" % (b"y" * (widest - 2)) * 60) == MAX_BATCH
    assert batch_size(100 * MB, b"no line end in the first block") is None


def test_compressed_small_and_missing_files_leave_the_choice_to_duckdb(tmp_path: Path) -> None:
    wide = (b"%s\n" % (b"z" * 300)) * 40_000  # 12 MB
    (tmp_path / "a.csv.gz").write_bytes(wide)
    (tmp_path / "small.csv").write_bytes(wide[:100_000])
    assert write_batch([tmp_path / "a.csv.gz", tmp_path / "small.csv", tmp_path / "gone.csv"]) is None
    (tmp_path / "big.csv").write_bytes(wide)
    assert write_batch([tmp_path / "small.csv", tmp_path / "big.csv"]) == batch_size(
        len(wide), wide[: 1 << 16]
    )


def test_a_big_load_stores_whole_row_groups_in_the_file_s_order(tmp_path: Path) -> None:
    """Two threads over DuckDB's 8 MB batches: the first batch (about 466,000 of these 18-byte rows) ends in
    a part-filled row group in the middle of the table. In one batch, only the last row group is short."""
    rows = 520_000
    path = tmp_path / "narrow.csv"
    with duckdb.connect() as conn:
        conn.execute(
            "COPY (SELECT i AS id, chr(65 + (i % 26)::INT) || 'XY' AS code, 10000 + i % 90000 AS value "
            f"FROM range(1000001, {1000001 + rows}) t(i)) TO '{path}' (HEADER)"
        )
    assert DUCKDB_BATCH < path.stat().st_size < 10 * MB
    load_files(tmp_path / "w.duckdb", [str(path)], LoadOptions(table="t"))
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as conn:
        order = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE id <> rowid + 1000001) FROM t"
        ).fetchone()
        groups = [
            r[0]
            for r in conn.execute(
                "SELECT max(count) FROM pragma_storage_info('t') WHERE column_name = 'id' "
                "GROUP BY row_group_id ORDER BY row_group_id"
            ).fetchall()
        ]
    assert order == (rows, 0)
    assert sum(groups) == rows
    assert all(g == ROW_GROUP_ROWS for g in groups[:-1]), groups


def test_a_csv_source_reads_with_duckdb_s_own_batches(tmp_path: Path) -> None:
    """A source's view reads the file in place for every question: a batch as big as the file would leave
    its scans on one thread."""
    from analytics_agent.db.load.source_reading import pin_csv_reading

    path = tmp_path / "wide.csv"
    line = "id," + ",".join(f"c{i}" for i in range(30)) + "\n"
    body = "".join(f"{n}," + ",".join(f"v{n % 97}x{i}" for i in range(30)) + "\n" for n in range(1000))
    path.write_text(line + body * 60)
    assert write_batch([path]) is not None  # the load's write would size its batches
    pinned = pin_csv_reading(str(path), LoadOptions(table="wide"), many=False)
    assert "buffer_size" not in pinned.read and pinned.read.get("columns")
