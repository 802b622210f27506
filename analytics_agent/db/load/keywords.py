"""DuckDB's reserved words: a name that is one gets a trailing underscore (``names``).

Asked of DuckDB on each load, never kept per version: the question costs about 1 ms of CPU (0.56-1.3 ms
on the build machine, December 2026) of a small load's 200 ms or more, less than docs/performance.md row 3's
run-to-run spread, and a kept list went stale with every DuckDB release.
"""

from __future__ import annotations

import duckdb


def reserved_words(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    rows = conn.execute(
        "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'"
    ).fetchall()
    return frozenset(r[0] for r in rows)


def renamed_words(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """The names a stored column may not have: the reserved words, and ``rowid``, which is no keyword
    but a column so named hides DuckDB's row id (the load's footer checks read it)."""
    return reserved_words(conn) | {"rowid"}
