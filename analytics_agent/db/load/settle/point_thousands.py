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
    proof = _grouped_elsewhere(conn, table, text_reader, stored_to_original, [n for n, _ in named])
    if proof is not None:
        return [_read_as_thousands(conn, table, named, proof)]
    which = ", ".join(n for n, _ in named)
    example = str(named[0][1]).strip()
    return [
        f"{which}: every value is written like {example!r} (three digits after one point) in a semicolon file, "
        f"read as decimals ({example} -> {shown(float(example))}); if the points group thousands, add --decimal ',' "
        "--thousands '.'"
    ]


_PROOF = r"\s*-?[1-9][0-9]{0,2}(\.[0-9]{3}){2,}(,[0-9]+)?\s*|\s*-?[1-9][0-9]{0,2}(\.[0-9]{3})+,[0-9]+\s*"
"""A number that can only group thousands with points: two of them (``1.234.567``), or one before a decimal
comma (``1.234,56``)."""


def _grouped_elsewhere(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    text_reader: tuple[str, list[Any]],
    stored_to_original: dict[str, str],
    named: list[str],
) -> tuple[str, str] | None:
    """Another number column of the file and a value of it that groups thousands with points
    (``_PROOF``: Statistik Austria's ``4.648.186`` beside a column of ``21.491``), which the load read as
    such: the file's own proof that its points group thousands. None without one. Read only when a column
    of ``named`` was found (one more scan of the file, on this rare path)."""
    others = [
        n
        for n, kind in column_types(conn, table).items()
        if kind in ("DOUBLE", "BIGINT", "HUGEINT") and n in stored_to_original and n not in named
    ]
    if not others:
        return None
    cols = [quote_ident(stored_to_original[n]) for n in others]
    found = first_row(
        conn.execute(
            f"SELECT {', '.join(f'min({c}) FILTER (WHERE regexp_full_match({c}, $${_PROOF}$$))' for c in cols)} "
            f"FROM {text_reader[0]}",
            text_reader[1],
        )
    )
    return next(((n, str(v).strip()) for n, v in zip(others, found, strict=True) if v is not None), None)


def _read_as_thousands(
    conn: duckdb.DuckDBPyConnection, table: str, named: list[tuple[str, Any]], proof: tuple[str, str]
) -> str:
    """Store the ``named`` columns' numbers as the thousands they write (``21.491`` read as 21.491 is
    21491), and the line that says it with the file's ``proof`` and the option that keeps the decimals."""
    t = quote_ident(table)
    for name, _ in named:
        conn.execute(f"UPDATE {t} SET {quote_ident(name)} = round({quote_ident(name)} * 1000)")
    example = str(named[0][1]).strip()
    which = ", ".join(n for n, _ in named)
    return (
        f"{which}: every value is written like {example!r} (three digits after one point) in a semicolon file "
        f"whose points group thousands ({proof[1]!r} in {proof[0]}): read as thousands ({example} -> "
        f"{shown(round(float(example) * 1000))}); add --decimal '.' to read them as decimals"
    )
