"""DuckDB's reserved words: a name that is one gets a trailing underscore (``names``).

Asked of the running DuckDB, never kept per version (a kept list went stale with every release), but only
for a name that is a candidate: the first read of DuckDB's keyword list costs about 3.5 ms of CPU in a
process (the load of a 300-row file takes some 60 ms), and most files name no keyword at all.
"""

from __future__ import annotations

import duckdb

_MAY_BE = """
    all analyse analyze and anti any array as asc asof asymmetric at authorization between bigint binary
    bit boolean both by case cast char character check coalesce collate collation column columns
    concurrently constraint create cross current_catalog current_date current_role current_time
    current_timestamp current_user dec decimal default deferrable desc describe distinct do else end except
    exists extract false fetch float for foreign freeze from full generated glob grant group grouping
    grouping_id having ilike in initially inner inout int integer intersect interval into is isnull join
    lambda lateral leading left like limit localtime localtimestamp map national natural nchar none not
    notnull null nullif numeric offset on only or order out outer overlaps overlay pivot pivot_longer
    pivot_wider placing position positional precision primary qualify real references returning right row
    select semi session_user setof show similar smallint some struct substring summarize symmetric
    system_user table tablesample then time timestamp to trailing treat trim true try_cast tuple union
    unique unpack unpivot user using values varchar variadic verbose when where window with xmlattributes
    xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable
"""
MAY_BE_RESERVED = frozenset(_MAY_BE.split())
"""Every word DuckDB reserves, or may: its reserved words, the keywords it allows only as column names or
only as type and function names (the grammar it shares with PostgreSQL moves words between these), and
PostgreSQL's reserved words. ``tests/db/test_keywords.py`` fails when the installed DuckDB reserves a word
not in it."""


def reserved_words(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    rows = conn.execute(
        "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'"
    ).fetchall()
    return frozenset(r[0] for r in rows)


class RenamedWords:
    """The lowercase names a stored column may not have: DuckDB's reserved words, and ``rowid``, which is
    no keyword but a column so named hides DuckDB's row id (the load's footer checks read it). DuckDB is
    asked once, and only about a name in ``MAY_BE_RESERVED``."""

    __slots__ = ("_conn", "_words")

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self._conn = conn
        self._words: frozenset[str] | None = None

    def __contains__(self, word: object) -> bool:
        if word == "rowid":
            return True
        if not isinstance(word, str) or word not in MAY_BE_RESERVED:
            return False
        if self._words is None:
            self._words = reserved_words(self._conn)
        return word in self._words
