"""Every database file we create or write is stored in a format the oldest supported DuckDB reads, so
installing the ``lake`` extra (an older DuckDB) never makes a user's databases unreadable. The end-to-end
check (files made here, opened by DuckDB 1.5.5) is tests/db/linked_ext/test_made_before.py, run by CI."""

from __future__ import annotations

import struct
from pathlib import Path

import duckdb

from analytics_agent.db.connect import _explain_open_failure, ensure_database
from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files

# The storage version number in DuckDB's main header (bytes 12..20 after the "DUCK" magic) of the v1.3.0
# format, which DuckDB 1.3 to 1.5 read; a newer DuckDB writes a higher number by default. (v1.1.0's 64 cost
# a load about a quarter more CPU: its strings are compressed without DuckDB 1.3's dictionary FSST.)
READABLE_BY_1_X = 66


def _header_version(path: Path) -> int:
    head = path.read_bytes()[:20]
    assert head[8:12] == b"DUCK"
    return struct.unpack("<Q", head[12:20])[0]


def test_the_sample_database_and_a_loaded_one_are_stored_for_duckdb_1_x(tmp_path: Path) -> None:
    sample = tmp_path / "sample.duckdb"
    assert ensure_database(sample, sample_data=True)
    assert _header_version(sample) == READABLE_BY_1_X
    own = tmp_path / "own.duckdb"
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,x\n2,y\n")
    load_files(own, [str(csv)], LoadOptions())
    assert _header_version(own) == READABLE_BY_1_X


def test_a_loaded_table_s_strings_are_stored_in_the_newer_compression(tmp_path: Path) -> None:
    # what the v1.3.0 format buys: DuckDB 1.3's dictionary FSST (v1.1.0 stored these as a plain Dictionary)
    csv = tmp_path / "t.csv"
    csv.write_text("code\n" + "".join(f"value-{i % 50}\n" for i in range(300_000)))
    load_files(tmp_path / "own.duckdb", [str(csv)], LoadOptions())
    with duckdb.connect(str(tmp_path / "own.duckdb"), read_only=True) as conn:
        kinds = conn.execute(
            "SELECT DISTINCT compression FROM pragma_storage_info('t') WHERE segment_type = 'VARCHAR'"
        ).fetchall()
    assert kinds == [("DICT_FSST",)]


def test_a_newer_format_is_explained_in_one_line_with_what_to_do(tmp_path: Path) -> None:
    raw = duckdb.IOException(
        "IO Error: Trying to read a database file with version number 999, but we can only read versions "
        "between 64 and 68.\nThe database file was created with an newer version of DuckDB."
    )
    text = _explain_open_failure(tmp_path / "x.duckdb", raw)
    assert "\n" not in text and "newer DuckDB" in text and "lake" in text and "999" not in text
