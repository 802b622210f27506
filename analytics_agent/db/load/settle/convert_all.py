"""A text column converted when every value in the table reads one way (``plain_numbers``: numbers padded
or signed with a plus; ``signed_whole``: whole numbers each written with its sign): one query asks each
column whether all its values fit and for an example of the form, then each that fits is altered. Runs
inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.db.rows import first_row


def convert_all(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    columns: Sequence[str],
    *,
    fits: Callable[[str], str],
    example: Callable[[str], str],
    value: Callable[[str], str],
    kind: str,
) -> list[tuple[str, str]]:
    """The columns of ``columns`` altered to ``kind``, each with its example, when every value fits and
    an example is found. ``fits``, ``example`` and ``value`` give SQL for a quoted column: whether a
    value fits, the example (an aggregate; NULL: none, the column is left), the value stored."""
    if not columns:
        return []
    target = quote_ident(table)
    parts = []
    for col in map(quote_ident, columns):
        parts += [f"count({col}) = count(*) FILTER (WHERE {fits(col)})", example(col)]
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {target}"))
    done = []
    for i, name in enumerate(columns):
        every, written = found[2 * i : 2 * i + 2]
        if not every or written is None:
            continue
        col = quote_ident(name)
        conn.execute(f"ALTER TABLE {target} ALTER {col} TYPE {kind} USING {value(col)}")
        done.append((name, str(written)))
    return done
