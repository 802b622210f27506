"""DuckDB's reserved words, as the loader renames names by them."""

from __future__ import annotations

import duckdb

from analytics_agent.db.load.keywords import reserved_words


def test_the_reserved_words_are_those_duckdb_refuses_as_bare_names():
    """Each word reserved_words returns fails as a bare column name and works quoted; ordinary names
    (``city``, ``name``, ``date``: non-reserved keywords) are not in it."""
    with duckdb.connect() as conn:
        reserved = reserved_words(conn)
        assert {"select", "from", "order", "table"} <= reserved
        assert not {"city", "name", "date", "year"} & reserved
        for word in sorted(reserved):
            conn.execute(f'SELECT 1 AS "{word}"')
            try:
                conn.execute(f"CREATE OR REPLACE TEMP TABLE t ({word} INTEGER)")
            except duckdb.ParserException:
                continue
            raise AssertionError(f"{word} works as a bare name, yet is renamed")
