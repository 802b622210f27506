"""Dates written as eight digits (a Dutch bank's ``Datum`` ``20261129``, SAP's ``YYYYMMDD``): DuckDB reads
them as BIGINT, so no question of days or months could be asked of them. A BIGINT column whose name says
it holds dates (``Datum``, ``Booking Date``; not a ``date_key`` or a ``date_id``, which join a date table
by number) and whose every value is a real date from 1900 to 2099 is stored as DATE, and said with the
``--type`` that keeps the numbers. Runs inside the load's transaction, in DuckDB's SQL."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import duckdb

from analytics_agent.db.idents import quote_ident
from analytics_agent.db.rows import first_row

_DATE_WORDS = frozenset({"date", "datum", "fecha", "data", "dato", "dt"})
"""A word of a column's name that says it holds dates (English, Dutch, German, Spanish, Portuguese …)."""
_KEY_WORDS = frozenset({"key", "id", "sk", "nr", "no", "num", "number", "code", "version"})
"""A word that says the number is a key or a code: ``date_key`` joins a date table by its number."""
_WORD = r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])"


def date_named(original: str) -> bool:
    """Whether a column's name (as the file wrote it) says dates and no key: ``Datum``, ``BookingDate``,
    ``posting_date``; not ``date_key``, ``DateID``. Pure."""
    low = original.lower()
    if not any(word in low for word in _DATE_WORDS):  # most names: a plain test, no regex compiled
        return False
    words = {w.lower() for w in re.findall(_WORD, original)}
    return bool(words & _DATE_WORDS) and not words & _KEY_WORDS


def compact_dates(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    originals: Mapping[str, str],
    types: Mapping[str, str],
    fixed: Sequence[str],
) -> list[str]:
    """Store as DATE the BIGINT columns named as dates whose every value is a ``%Y%m%d`` date; one note
    for them. ``originals``: stored name -> the file's; ``fixed``: columns the user typed."""
    named = [s for s, o in originals.items() if types.get(s) == "BIGINT" and s not in fixed and date_named(o)]
    if not named:
        return []
    t = quote_ident(table)
    parts = []
    for col in map(quote_ident, named):
        read = f"TRY_STRPTIME({col}::VARCHAR, '%Y%m%d')"
        parts += [f"count({col})", f"count({read}) FILTER (WHERE {col} BETWEEN 19000101 AND 20991231)"]
        parts.append(f"min({col})")
    found = first_row(conn.execute(f"SELECT {', '.join(parts)} FROM {t}"))
    stored = []
    for i, name in enumerate(named):
        present, fits, example = found[3 * i : 3 * i + 3]
        if present and fits == present:
            col = quote_ident(name)
            # TRY: rows deleted in this load (a totals row) are rewritten too
            conn.execute(
                f"ALTER TABLE {t} ALTER {col} TYPE DATE USING TRY_STRPTIME({col}::VARCHAR, '%Y%m%d')::DATE"
            )
            stored.append((name, example))
    if not stored:
        return []
    names = ", ".join(n for n, _ in stored)
    first, example = stored[0]
    return [
        f"{names}: eight-digit numbers like {example} stored as DATE (format %Y%m%d), as the column's name "
        f"says it holds dates; add --type {first}=BIGINT (for each such column) to keep the numbers"
    ]
