"""A printed report's page breaks repeat the header line among its records (``Txn Date,Value Date,…`` every
30 rows). DuckDB reads each as a record: the rows loaded as data and kept every column text (its dates
and amounts too) without a word. A row whose every named cell is its column's own header text is no
record: it is left out, and said. Runs inside the load's transaction on the freshly written table."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row


def drop_repeated_headers(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    stored: Sequence[str],
    cells: Sequence[str],
    types: dict[str, str],
) -> int:
    """Delete the rows that repeat the header (``cells``, the file's header as written, beside ``stored``,
    the stored names) and return how many. Only asked when every column with a name is text (``types``):
    a header's words kept any other type out of them."""
    named = [(s, c.strip()) for s, c in zip(stored, cells, strict=False) if c.strip()]
    if len(named) < 2 or any(types.get(s) != "VARCHAR" for s, _ in named):
        return 0
    where = " AND ".join(f"trim({quote_ident(s)}) = ?" for s, _ in named)
    t, values = quote_ident(table), [c for _, c in named]
    repeats, rows = first_row(
        conn.execute(f"SELECT count(*) FILTER (WHERE {where}), count(*) FROM {t}", values)
    )
    if not repeats or repeats * _PAGE_ROWS > rows:
        return 0  # most rows alike: a column of one value each, not a page's header
    conn.execute(f"DELETE FROM {t} WHERE {where}", values)
    return int(repeats)


_PAGE_ROWS = 5
"""A page holds at least this many rows, its header one of them: more repeats are values, not headers (a
test file of twenty ``valid,valid,valid`` lines under the same header)."""


def repeated_headers_note(count: int) -> list[str]:
    """The note of ``drop_repeated_headers``' rows. Pure."""
    if not count:
        return []
    rows = "line repeats" if count == 1 else "lines repeat"
    return [f"{count:,} {rows} the header (a printed report's page breaks): not loaded as rows"]
