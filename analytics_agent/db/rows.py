"""The one row of a query that always returns one (count, EXISTS, CREATE TABLE AS), typed as such."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb


def first_row(cursor: duckdb.DuckDBPyConnection) -> tuple[Any, ...]:
    """``cursor.fetchone()`` for a query that cannot return no row; a bug (not bad input) if it does."""
    row = cursor.fetchone()
    if row is None:
        raise RuntimeError("a query that always returns a row returned none")
    return row
