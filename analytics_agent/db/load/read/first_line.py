"""A file's first line as DuckDB reads it (so ``.gz``, ``.zst``, ``--encoding``, ``--skip`` and
``--comment`` work as in the load): what the dialect checks read when the sniff fell back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.load.options import LoadOptions, duckdb_path

_UNIT_SEPARATOR = "\x1f"  # never in a header line, so the whole line reads as one value


def first_line(
    conn: duckdb.DuckDBPyConnection, path: Path, options: LoadOptions, label: str | None = None
) -> str:
    """The file's first line as text, read by DuckDB (so .gz, .zst and --encoding work as in the load).
    ``label``: the file's name in a message (``path`` may be a copy, unpacked)."""
    params: list[Any] = [duckdb_path(path), _UNIT_SEPARATOR]
    encoding = ""
    if options.encoding:
        encoding, params = ", encoding = ?", [*params, options.encoding]
    skip = f", skip = {int(options.skip or 0)}"
    if options.comment:
        encoding, params = f"{encoding}, comment = ?", [*params, options.comment]
    if options.max_line_size:
        skip += f", max_line_size = {int(options.max_line_size)}"
    try:
        row = conn.execute(
            "SELECT line FROM read_csv(?, auto_detect = false, header = false, delim = ?, quote = '', "
            f"escape = '', columns = {{'line': 'VARCHAR'}}, strict_mode = false{encoding}{skip}) LIMIT 1",
            params,
        ).fetchone()
    except duckdb.Error as exc:  # not UTF-8 past the peeked block, or unreadable: said in one line
        from analytics_agent.db.load.read.late_bytes import read_refusal  # error path only

        raise read_refusal(str(exc), [path], label or path.name) from None
    return (row[0] or "") if row else ""
