"""The one row of a query that always returns one (count, EXISTS, CREATE TABLE AS), typed as such, and
which of a row's values are numbers."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb


def first_row(cursor: duckdb.DuckDBPyConnection) -> tuple[Any, ...]:
    """``cursor.fetchone()`` for a query that cannot return no row; a bug (not bad input) if it does."""
    row = cursor.fetchone()
    if row is None:
        raise RuntimeError("a query that always returns a row returned none")
    return row


def is_number(value: Any) -> bool:
    """A number as DuckDB returns one, not a flag (a bool is an int) nor a date. Pure."""
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)
