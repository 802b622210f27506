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


def test_a_big_tables_code_marks_rule_out_the_number_note_wherever_they_lie(tmp_path):
    """Numbers DuckDB did not read (``+3``) are named; a column showing a code (a leading zero, an
    underscore) is not, whether the code lies in the first rows (then the whole table is not read again)
    or only past them (then it is)."""
    rows = SAMPLE_ROWS + 5_000
    late = SAMPLE_ROWS + 4_000
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        conn.execute(
            f"CREATE TABLE t AS SELECT '+' || range AS delta, "
            f"CASE WHEN range = 5 THEN '007' ELSE '+' || range END AS early_zero, "
            f"CASE WHEN range = {late} THEN '007' ELSE '+' || range END AS late_zero, "
            f"CASE WHEN range = {late} THEN '41_10' ELSE '+' || range END AS late_underscore "
            f"FROM range({rows})"
        )
        columns = ["delta", "early_zero", "late_zero", "late_underscore"]
        notes = odd_value_notes(conn, "t", columns, rows=rows)
    assert notes == [
        "delta stayed text though every value reads as a number, like '+0'; add --type delta=BIGINT if "
        "they are quantities, not codes"
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
    grow to skip a value DuckDB reads). Values start with every ASCII character, not only letters: a
    pattern that matched a digit, sign or space would skip numbers."""
    import itertools

    tails = ["", "nf", "nfinity", "an", "poch", " ", "1", "2020-01-01", "-1", ".5", "e5", ":00", "/1/2020"]
    firsts = [chr(i) for i in range(1, 128)] + ["é", "Ä", "日"]
    values = [a + b + c for a, b, c in itertools.product(firsts, tails, ["", "  ", "x"])]
    conn = duckdb.connect()
    conn.execute("CREATE TABLE v AS SELECT unnest(?) AS v", [values])
    for kind, pattern in odd_values._NEVER.items():
        skipped_but_cast = conn.execute(
            f"SELECT list(v) FROM v WHERE v GLOB '{pattern}' AND TRY_CAST(v AS {kind}) IS NOT NULL"
        ).fetchone()[0]
        assert skipped_but_cast is None, (kind, skipped_but_cast)
        kept = conn.execute(
            f"SELECT list(DISTINCT v[1] ORDER BY v[1]) FROM v WHERE regexp_matches(v, '^[A-Za-z]') "
            f"AND NOT v GLOB '{pattern}' AND TRY_CAST(v AS {kind}) IS NOT NULL"
        ).fetchone()[0]
        assert kept == sorted({"DOUBLE": "iInN", "DATE": "eEiI"}[kind]), (kind, kept)
