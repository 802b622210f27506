"""DuckDB's reserved words: a name that is one gets a trailing underscore (``names``).

Asking DuckDB (``duckdb_keywords()``) cost about 3 ms of CPU per load, a tenth of what a small load adds
to DuckDB's own ``read_csv``; the list changes only with DuckDB's version, so the installed version's list
is kept here and any other version is asked (``tests/db/test_keywords.py`` compares the two).
"""

from __future__ import annotations

import duckdb

KNOWN_VERSION = "2.0.1"
_KNOWN_WORDS = """
all analyse analyze and any array as asc asymmetric both case cast check collate column constraint
create default deferrable desc describe distinct do else end except false fetch for foreign from
group having in initially intersect into lambda lateral leading limit not null offset on only or
order pivot pivot_longer pivot_wider placing primary qualify references returning select show some
summarize symmetric table then to trailing true union unique unpivot using variadic when where
window with
"""
KNOWN_RESERVED = frozenset(_KNOWN_WORDS.split())
"""``duckdb_keywords()``'s reserved words in DuckDB ``KNOWN_VERSION``."""


def reserved_words(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    """DuckDB's reserved words: the kept list for the known version, otherwise asked of ``conn``."""
    if duckdb.__version__ == KNOWN_VERSION:
        return KNOWN_RESERVED
    return asked(conn)


def asked(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    rows = conn.execute(
        "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'"
    ).fetchall()
    return frozenset(r[0] for r in rows)
