"""The file's own line numbers for the records DuckDB names. DuckDB numbers records (a multi-line quoted
value counts once), so a refusal and the ``<table>_rejects`` table would otherwise name different lines
for one record; both go through ``physical_lines``. And a ``--skip-bad-rows`` load read without a quote
character (none in DuckDB's sample) says which set-aside records read right with ``--quote '"'``."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.load.options import Dialect


def physical_lines(path: Path, records: Iterable[int], dialect: Dialect) -> dict[int, int]:
    """Each of DuckDB's ``records`` (header = 1) -> the line of the file where it starts, counting the extra
    lines of multi-line quoted values before it, in one pass. A record is its own line when nothing can
    span lines (no quote), when DuckDB already counts physical lines (``skip``, ``comment``), or for a
    compressed file."""
    wanted = sorted(set(records))
    same = {n: n for n in wanted}
    if (
        not wanted
        or path.suffix.lower() in (".gz", ".zst", ".zstd")
        or not dialect.quote
        or dialect.skip
        or dialect.comment
        or len(dialect.delimiter) != 1
        or len(dialect.quote) != 1
    ):
        return same
    found: dict[int, int] = {}
    try:
        with path.open(newline="", encoding="utf-8", errors="replace") as handle:
            reader = csv.reader(handle, delimiter=dialect.delimiter, quotechar=dialect.quote)
            previous_end, at = 0, 0
            for number, _ in enumerate(reader, start=1):
                if number == wanted[at]:
                    found[number] = previous_end + 1
                    at += 1
                    if at == len(wanted):
                        break
                previous_end = reader.line_num
    except (OSError, csv.Error):
        return same
    return same | found


def renumber_rejects(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    files: Sequence[Path],
    labels: Sequence[str],
    dialect: Dialect | None,
) -> tuple[list[tuple[str, int]], list[str]]:
    """Give ``<table>_rejects`` the file's own line numbers (as a refusal names them); returns each
    set-aside record as (file as named, line), in the order the files were given, and a note when some set-aside records read right with ``--quote '"'``."""
    rejects = quote_ident(f"{table}_rejects")
    if dialect is not None:
        for path, label in zip(files, labels, strict=True):
            records = [
                r[0] for r in conn.execute(f"SELECT line FROM {rejects} WHERE file = ?", [label]).fetchall()
            ]
            moved = {k: v for k, v in physical_lines(path, records, dialect).items() if k != v}
            if moved:
                conn.execute(
                    f"UPDATE {rejects} SET line = MAP(?::BIGINT[], ?::BIGINT[])[line] "
                    "WHERE file = ? AND line IN (SELECT unnest(?::BIGINT[]))",
                    [list(moved), list(moved.values()), label, list(moved)],
                )
    # one record per (file, line): two files' line 3 are two records (counting distinct lines said
    # "Skipped 2 bad records (lines 3, 5)" for three)
    records = conn.execute(
        f"SELECT DISTINCT file, line, list_position(?::VARCHAR[], file) AS file_order FROM {rejects} ORDER BY file_order, line",
        [list(labels)],
    ).fetchall()
    return [(str(r[0]), int(r[1])) for r in records], _quoted_note(conn, rejects, dialect)


def _quoted_note(conn: duckdb.DuckDBPyConnection, rejects: str, dialect: Dialect | None) -> list[str]:
    """Set-aside records that have the header's field count once ``"`` quotes are read as quotes: good
    records the load dropped only because it read the file without a quote character."""
    if dialect is None or dialect.quote or len(dialect.delimiter) != 1 or not dialect.columns:
        return []
    texts = conn.execute(
        f"SELECT line, text FROM {rejects} WHERE contains(text, '\"') ORDER BY line"
    ).fetchall()
    fit = [line for line, text in texts if _fields(text, dialect.delimiter) == len(dialect.columns)]
    if not fit:
        return []
    shown = ", ".join(map(str, fit[:5])) + (" …" if len(fit) > 5 else "")
    return [
        f"{len(fit):,} of the set-aside records (line{'s' if len(fit) > 1 else ''} {shown}) read right once "
        'their "..." quotes are read as quotes (none in the lines DuckDB sampled); load again with '
        "--quote '\"' to keep them"
    ]


def _fields(text: str, delimiter: str) -> int:
    try:
        return len(next(csv.reader([text], delimiter=delimiter, quotechar='"', strict=True), []))
    except csv.Error:
        return -1
