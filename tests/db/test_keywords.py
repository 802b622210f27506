"""DuckDB's reserved words, as the loader renames names by them."""

from __future__ import annotations

import duckdb
import pytest

from analytics_agent.db.load.keywords import MAY_BE_RESERVED, RenamedWords, reserved_words
from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files


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


def test_every_word_duckdb_reserves_is_a_candidate():
    """The loader asks DuckDB only about names in MAY_BE_RESERVED: a release that reserves a word beyond it
    would keep a column so named unrenamed, and this fails first (CI installs the newest DuckDB)."""
    with duckdb.connect() as conn:
        assert reserved_words(conn) <= MAY_BE_RESERVED


def test_renamed_words_ask_duckdb_only_about_a_candidate():
    """A name outside the candidates is answered without the connection (a closed one raises if asked);
    a candidate is answered by DuckDB's own list: ``select`` is reserved, ``time`` (a candidate DuckDB
    allows as a column name) and ``date`` are not; ``rowid`` is renamed though no keyword."""
    conn = duckdb.connect()
    conn.close()
    closed = RenamedWords(conn)
    assert "city" not in closed and "order_date" not in closed and "rowid" in closed
    with pytest.raises(duckdb.ConnectionException):
        _ = "select" in closed
    with duckdb.connect() as conn:
        words = RenamedWords(conn)
        assert "select" in words and "order" in words
        assert "time" not in words and "date" not in words and "Select" not in words


def test_a_loaded_keyword_column_is_renamed_and_said(tmp_path):
    """Through the load: a header of reserved words is renamed with a note; a non-reserved candidate
    (``time``) keeps its name."""
    csv = tmp_path / "k.csv"
    csv.write_text("select,time,city\n1,10:00,Oslo\n2,11:00,Bergen\n", encoding="utf-8")
    summary = load_files(tmp_path / "k.duckdb", [str(csv)], LoadOptions())
    assert [c.name for c in summary.columns] == ["select_", "time", "city"]
    assert any("select is an SQL keyword, stored as select_" in n for n in summary.notes)
