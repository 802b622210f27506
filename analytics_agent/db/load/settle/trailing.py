"""Empty fields past the header (``1,2,3,,`` under three columns, a trailing delimiter): DuckDB drops them
in the load; this reads the file once more with one column past the header's to count the records that
had them, so the load can say so in one line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.load.options import Dialect, LoadOptions, csv_reader_sql
from analytics_agent.db.rows import first_row


def trailing_reader_sql(path: Path, options: LoadOptions, dialect: Dialect) -> tuple[str, list[Any]]:
    """One file as text with one column past the header's: ``''`` for a record with empty fields there
    (DuckDB drops them in the load), NULL for the others (padded; what lies further is ignored)."""
    columns = {name: "VARCHAR" for name in dialect.columns}
    extra = next(f"_past_{n}" for n in range(len(columns) + 1) if f"_past_{n}" not in columns)
    padded = dialect._replace(columns={**columns, extra: "VARCHAR"})
    # no empty-string null: an empty field past the header must read as '', not NULL
    return csv_reader_sql(
        [path], options._replace(pad_short_rows=True), padded, lenient=True, strict=False, nulls=["\x01"]
    )


def trailing_note(
    conn: duckdb.DuckDBPyConnection, files: Sequence[Path], options: LoadOptions, dialect: Dialect | None
) -> list[str]:
    """One rule for empty fields past the header: dropped, and said with how many records had them.
    Counted over the whole file when its first block shows one."""
    if dialect is None or not dialect.trailing_empty or len(files) != 1:
        return []
    source, params = trailing_reader_sql(files[0], options, dialect)
    past = len(dialect.columns) + 1
    count = int(
        first_row(conn.execute(f"SELECT count(*) FILTER (WHERE trim(#{past}) = '') FROM {source}", params))[0]
    )
    if not count:
        return []
    records = "record has" if count == 1 else "records have"
    return [
        f"{count:,} {records} empty fields past the header's {len(dialect.columns)} columns (a trailing "
        "delimiter); those empty fields were dropped"
    ]
