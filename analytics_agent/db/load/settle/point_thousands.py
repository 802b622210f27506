"""Whole numbers grouped with points in a semicolon file (``1.234;2.500;10.000``, a German or Dutch export of
counts or whole euros below a million): DuckDB reads each as a decimal (1.234, 2.5, 10.0), and the table
is a thousand times off without a word. A semicolon file is written where the comma is the decimal mark,
so a number column whose every value has one point followed by exactly three digits, and none starts
``0.``, is said with the options that read the points as thousands. Runs inside the load's transaction.
"""

from __future__ import annotations

from typing import Any

import duckdb

from analytics_agent.db.amount_forms import shown
from analytics_agent.db.catalog import column_types, quote_ident
from analytics_agent.db.rows import first_row

_GROUPED = r"\s*-?[1-9][0-9]{0,2}\.[0-9]{3}\s*"


def point_thousands_notes(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_reader: tuple[str, list[Any]],
    stored_to_original: dict[str, str],
) -> list[str]:
    """One line naming the DOUBLE columns of ``table`` whose every value in the file (read as text) is
    written like ``1.234`` or ``10.000``, with ``--decimal ',' --thousands '.'``; none when no such column."""
    columns = [
        n for n, kind in column_types(conn, table).items() if kind == "DOUBLE" and n in stored_to_original
    ]
    if not columns:
        return []
    parts = []
    for col in (quote_ident(stored_to_original[name]) for name in columns):
        parts += [
            f"count({col})",
            f"count(*) FILTER (WHERE regexp_full_match({col}, '{_GROUPED}'))",
            f"min({col})",
        ]
    source, params = text_reader
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {source}", params))
    named = [
        (n, found[3 * i + 2])
        for i, n in enumerate(columns)
        if found[3 * i] and found[3 * i] == found[3 * i + 1]
    ]
    if not named:
        return []
    which = ", ".join(n for n, _ in named)
    example = str(named[0][1]).strip()
    return [
        f"{which}: every value is written like {example!r} (three digits after one point) in a semicolon file, "
        f"read as decimals ({example} -> {shown(float(example))}); if the points group thousands, add --decimal ',' "
        "--thousands '.'"
    ]
