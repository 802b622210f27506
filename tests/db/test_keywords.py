"""DuckDB's reserved words: kept for the installed version (asking cost a small load ~3 ms of CPU), asked
of DuckDB for any other."""

from __future__ import annotations

import duckdb
import pytest

from analytics_agent.db.load import keywords


class _NoQueries:
    def execute(self, *_: object) -> None:
        raise AssertionError("asked DuckDB for its keywords")


def test_the_kept_list_is_duckdbs_own_for_its_version():
    if duckdb.__version__ != keywords.KNOWN_VERSION:
        pytest.skip(f"DuckDB {duckdb.__version__}: the kept list is for {keywords.KNOWN_VERSION}")
    with duckdb.connect() as conn:
        assert keywords.asked(conn) == keywords.KNOWN_RESERVED


def test_the_known_version_asks_nothing_and_another_version_asks(monkeypatch):
    with duckdb.connect() as conn:
        truth = keywords.asked(conn)
        monkeypatch.setattr(keywords, "KNOWN_VERSION", duckdb.__version__)
        monkeypatch.setattr(keywords, "KNOWN_RESERVED", truth)
        assert keywords.reserved_words(_NoQueries()) == truth  # type: ignore[arg-type]
        monkeypatch.setattr(keywords, "KNOWN_VERSION", "0.0.0")
        monkeypatch.setattr(keywords, "KNOWN_RESERVED", frozenset())
        assert keywords.reserved_words(conn) == truth
    assert {"select", "from", "table"} <= truth
