"""How much of a big file each thread of the write parses: enough rows for several whole row groups.

DuckDB's CSV reader hands each thread 8 MB of the file, and its order-keeping insert stores each such batch
apart: a batch of less than one row group (122,880 rows) is held and copied into its neighbours at the end,
and a batch of a few row groups is written with a part-filled row group at its end that the commit writes
again. Measured with DuckDB 2.0.1 on two threads, `CREATE TABLE … AS SELECT * FROM read_csv(…)` (CPU s /
wall s / file MB, median of 3):

| file | 8 MB batches (DuckDB's) | one thread | batches of >= 4 row groups |
| --- | --- | --- | --- |
| orders, 1M rows x 58 B | 1.39 / 0.87 / 30 | 0.88 / 0.87 / 15 | 0.93 / 0.61 / 16 |
| orders, 3M rows | 4.30 / 2.33 / 92 | 2.56 / 2.52 / 44 | 2.47 / 1.55 / 47 |
| voter file, 300k x 220 B | 2.45 / 1.99 / 13 | 2.04 / 2.02 / 12 | 1.93 / 1.93 / 13 |
| voter rows twice, 600k x 440 B | 9.93 / 10.1 / 51 | 7.65 / 7.70 / 47 | 8.39 / 9.54 / 60 |

So the write asks for batches of at least ``ROW_GROUPS_PER_BATCH`` row groups (``buffer_size``, which is
also the thread's share when it is set), from the width of the file's first lines; a file smaller than one
such batch is parsed by one thread, as it would be written anyway. Rows so wide that such a batch would not
fit a buffer of ``MAX_BATCH`` keep DuckDB's batches: a batch of two row groups and a part is the worst of
all (the 440-byte rows in batches of 128 MB: 10.7 s, 75 MB). One thread for the whole write is not the
answer in a load either: its insert leaves compression to the commit, and the load's checks then scan the
rows uncompressed (the 440-byte rows: 12.4 s of CPU in all, as with DuckDB's batches; in 256 MB ones 11.3).

Measured on two cores only. On many, a file smaller than one such batch (up to 256 MB of wide rows) is
parsed by one thread where DuckDB's 8 MB batches would spread it over all of them: less CPU, but the
write's wall time may grow there.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

ROW_GROUP_ROWS = 122_880
"""DuckDB's rows per row group (its ``row_group_size``)."""
ROW_GROUPS_PER_BATCH = 4
DUCKDB_BATCH = 8 << 20
"""What DuckDB's reader gives each thread by default (a quarter of its 32 MB buffer)."""
MAX_BATCH = 256 << 20
"""A thread's buffer holds its whole batch: rows wider than about 540 bytes keep DuckDB's batches."""
_HEAD = 1 << 16
_COMPRESSED = (".gz", ".gzip", ".zst", ".zstd", ".bz2", ".xz", ".zip")
"""DuckDB reads a compressed file on one thread: there is nothing to share out."""


def batch_size(size: int, head: bytes) -> int | None:
    """The bytes per thread for a file of ``size`` bytes starting with ``head``; None: DuckDB's own
    choice (a file of one default batch, rows narrow enough that 8 MB holds the row groups or too wide for
    ``MAX_BATCH`` to, or no line end to measure a row by). Pure."""
    lines = head.count(b"\n")
    if size <= DUCKDB_BATCH or lines < 2:
        return None
    wanted = len(head) * ROW_GROUPS_PER_BATCH * ROW_GROUP_ROWS // lines
    if wanted <= DUCKDB_BATCH or wanted > MAX_BATCH:
        return None
    return -(-wanted // (1 << 20)) << 20  # whole MB: a tidy number in the query


def write_batch(files: Sequence[Path]) -> int | None:
    """``batch_size`` of the largest plain file of a load (every file is read with the same options)."""
    sized = []
    for path in files:
        if path.name.lower().endswith(_COMPRESSED):
            continue
        try:
            sized.append((path.stat().st_size, path))
        except OSError:  # the write says what is wrong with the file
            continue
    if not sized:
        return None
    size, largest = max(sized)
    if size <= DUCKDB_BATCH:
        return None
    try:
        with largest.open("rb") as handle:
            head = handle.read(_HEAD)
    except OSError:
        return None
    return batch_size(size, head)
