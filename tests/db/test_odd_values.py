"""Odd values in a text column of a big table: the notes are those of the whole sample, whichever columns
the first rows already ruled out (that shortcut is a speed matter, docs/performance.md row 3; these tests
hold what the load says, not which queries it asks)."""

from __future__ import annotations

import duckdb

from analytics_agent.db.load.settle import odd_values
from analytics_agent.db.load.settle.odd_values import PROBE_ROWS, SAMPLE_ROWS, odd_value_notes


def _table(conn: duckdb.DuckDBPyConnection) -> None:
    """``name``: text throughout; ``late``: numbers, then 500 'n/k' past the first rows cast (2.5 % of
    the sample: odd); ``turns``: numbers in the first rows, text after (mostly text: no note)."""
    conn.execute(
        f"CREATE TABLE t AS SELECT 'city ' || range AS name, "
        f"CASE WHEN range BETWEEN {PROBE_ROWS} AND {PROBE_ROWS + 499} THEN 'n/k' ELSE range::VARCHAR END AS late, "
        f"CASE WHEN range < {PROBE_ROWS} THEN range::VARCHAR ELSE 'word' END AS turns "
        f"FROM range({SAMPLE_ROWS * 2})"
    )


def test_a_big_tables_notes_are_those_of_the_whole_sample(tmp_path):
    """``late``'s odd values all lie past the first rows; ``turns`` is numbers only in the first rows."""
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        _table(conn)
        notes = odd_value_notes(conn, "t", ["name", "late", "turns"])
    assert notes == [
        "late stayed text because of 500 values like 'n/k'; add --null 'n/k' if it means missing"
    ]


def test_a_table_smaller_than_the_first_rows_counts_each_odd_value_once(tmp_path):
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        conn.execute(
            "CREATE TABLE t AS SELECT CASE WHEN range = 7 THEN 'T' ELSE range::VARCHAR END AS v FROM range(100)"
        )
        notes = odd_value_notes(conn, "t", ["v"])
    assert notes == ["v stayed text because of 1 value like 'T'; add --null 'T' if it means missing"]
    assert odd_values.PROBE_ROWS < SAMPLE_ROWS


def test_odd_values_past_the_first_rows_of_a_mid_sized_table_are_found(tmp_path):
    """6,000 rows, 300 odd values past the first 4,000."""
    rows = 2 * PROBE_ROWS - 2_000
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        conn.execute(
            f"CREATE TABLE t AS SELECT 'city ' || range AS name, CASE WHEN range >= {PROBE_ROWS} AND "
            f"range < {PROBE_ROWS + 300} THEN 'n/k' ELSE range::VARCHAR END AS late FROM range({rows})"
        )
        notes = odd_value_notes(conn, "t", ["name", "late"], rows=rows)
    assert notes == [
        "late stayed text because of 300 values like 'n/k'; add --null 'n/k' if it means missing"
    ]


def test_decimal_commas_are_only_counted_where_enough_values_could_be_numbers(tmp_path):
    """``names``: text with a few commas ("Bonaire, Saba"): too few numbers and commas together to be
    numbers written with a decimal comma, so no note; ``price``: decimal commas, named."""
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        conn.execute(
            "CREATE TABLE t AS SELECT CASE WHEN range % 20 = 0 THEN 'Bonaire, Saba' ELSE 'Chad' END AS names, "
            "range || ',5' AS price FROM range(200)"
        )
        notes = odd_value_notes(conn, "t", ["names", "price"])
        assert len(notes) == 1 and notes[0].startswith("price") and "--decimal ','" in notes[0]


def test_the_casts_skipped_by_their_first_letter_are_exactly_those_duckdb_refuses():
    """``_NEVER``: a value starting with one of those letters is never cast, so it must never cast. And
    the letters left out must be needed: some value starting with each does cast (so the class cannot
    grow to skip a value DuckDB reads)."""
    import itertools
    import string

    tails = ["", "nf", "nfinity", "an", "poch", " ", "1", "2020-01-01", "-1", ".5", "e5", ":00", "/1/2020"]
    values = [a + b + c for a, b, c in itertools.product(string.ascii_letters, tails, ["", "  ", "x"])]
    conn = duckdb.connect()
    conn.execute("CREATE TABLE v AS SELECT unnest(?) AS v", [values])
    for kind, pattern in odd_values._NEVER.items():
        skipped_but_cast = conn.execute(
            f"SELECT list(v) FROM v WHERE regexp_matches(v, '{pattern}') AND TRY_CAST(v AS {kind}) IS NOT NULL"
        ).fetchone()[0]
        assert skipped_but_cast is None, (kind, skipped_but_cast)
        kept = conn.execute(
            f"SELECT list(DISTINCT v[1] ORDER BY v[1]) FROM v WHERE regexp_matches(v, '^[A-Za-z]') "
            f"AND NOT regexp_matches(v, '{pattern}') AND TRY_CAST(v AS {kind}) IS NOT NULL"
        ).fetchone()[0]
        assert kept == sorted({"DOUBLE": "iInN", "DATE": "eEiI"}[kind]), (kind, kept)
