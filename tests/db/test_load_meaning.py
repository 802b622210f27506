"""A load stores what the file means, or says in one line what it changed and how to undo it (issue 21)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError


def _load(tmp_path: Path, name: str, text: str | bytes, **options: object):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    options.setdefault("table", "t")
    return load_files(tmp_path / "t.duckdb", [str(path)], LoadOptions(**options))  # type: ignore[arg-type]


def _rows(tmp_path: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def test_a_country_column_of_na_and_no_stays_text_and_the_na_that_became_null_is_said(tmp_path: Path) -> None:
    summary = _load(tmp_path, "c.csv", "country,iso\nNamibia,NA\nNorway,NO\nSweden,SE\n")
    assert {c.name: c.type for c in summary.columns}["iso"] == "VARCHAR"
    assert _rows(tmp_path, "SELECT iso FROM t ORDER BY country") == [(None,), ("NO",), ("SE",)]
    assert any(n.startswith("iso: 1 value 'NA' read as missing") and "--null ''" in n for n in summary.notes)


def test_the_option_named_keeps_the_token(tmp_path: Path) -> None:
    _load(tmp_path, "c.csv", "country,iso\nNamibia,NA\nNorway,NO\n", null_tokens=("",))
    assert _rows(tmp_path, "SELECT iso FROM t ORDER BY country") == [("NA",), ("NO",)]


def test_a_true_false_column_is_still_boolean(tmp_path: Path) -> None:
    summary = _load(tmp_path, "b.csv", "id,ok\n1,true\n2,false\n3,\n")
    assert {c.name: c.type for c in summary.columns}["ok"] == "BOOLEAN"


def test_a_header_named_na_keeps_its_name(tmp_path: Path) -> None:
    summary = _load(tmp_path, "h.csv", "id,NA,null\n1,2,3\n4,5,6\n")
    assert [c.original for c in summary.columns] == ["id", "NA", "null"]


def test_stray_quotes_load_every_row(tmp_path: Path) -> None:
    summary = _load(tmp_path, "q.tsv", 'id\ttitle\n1\t"Swing it" magistern\n2\tplain\n')
    assert summary.rows_loaded == 2
    assert _rows(tmp_path, "SELECT title FROM t ORDER BY id")[0] == ('"Swing it" magistern',)


def test_allow_empty_never_empties_a_file_with_data(tmp_path: Path) -> None:
    """Whatever made the read find no rows, --allow-empty must not turn a file with data into an empty table."""
    from analytics_agent.db.load.options import Input
    from analytics_agent.db.load.write import refuse_empty as _refuse_empty

    path = tmp_path / "x.csv"
    path.write_text('id,name\n1,"stray\n2,b\n')
    with duckdb.connect() as conn, pytest.raises(LoadError, match="of data by DuckDB's own reading"):
        _refuse_empty(conn, 0, [], [path], [Input(path)], "t", LoadOptions(allow_empty=True))
    path.write_text("id,name\n")
    with duckdb.connect() as conn:
        _refuse_empty(conn, 0, [], [path], [Input(path)], "t", LoadOptions(allow_empty=True))


def test_text_dates_load_as_dates_and_say_so(tmp_path: Path) -> None:
    summary = _load(tmp_path, "s.csv", "month,close\nJan 1 2009,10\nFeb 1 2009,11\nMar 2 2009,12\n")
    assert {c.name: c.type for c in summary.columns}["month"] == "DATE"
    assert any(
        "month: text dates like 'Jan 1 2009' stored as DATE (format %b %d %Y)" in n for n in summary.notes
    )


def test_an_ambiguous_day_month_reading_is_refused_naming_both(tmp_path: Path) -> None:
    # nothing in the file says which: guessing day-first stored 4 March as 3 April (tests/db/test_exports.py)
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, "d.csv", "day,n\n03/04/2024,1\n05/06/2024,2\n")
    assert "--date-format day=%m/%d/%Y" in str(refused.value) and "--date-format day=%d/%m/%Y" in str(
        refused.value
    )


def test_a_binary_file_named_csv_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="not a text CSV file") as caught:
        _load(tmp_path, "b.csv", bytes(range(256)) * 40)
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "t.duckdb").exists()


def test_utf16_names_the_encoding_and_the_option_loads_it(tmp_path: Path) -> None:
    text = "a,b\r\n1,é\r\n".encode("utf-16")
    with pytest.raises(LoadError, match="--encoding utf-16"):
        _load(tmp_path, "u.csv", text)
    assert _load(tmp_path, "u.csv", text, encoding="utf-16").rows_loaded == 1


def test_a_comment_above_the_header_is_named(tmp_path: Path) -> None:
    text = "# exported 2024-01-01\nid,name\n1,a\n"
    with pytest.raises(LoadError, match="--comment '#'"):
        _load(tmp_path, "c.csv", text)
    assert _load(tmp_path, "c.csv", text, comment="#").rows_loaded == 1
    assert _load(tmp_path, "c2.csv", text, skip=1, table="t2").rows_loaded == 1


def test_a_hundred_thousand_columns_is_refused_at_once(tmp_path: Path) -> None:
    header = ",".join(f"c{i}" for i in range(100_000))
    with pytest.raises(LoadError, match="columns on its first line; at most 10,000 can load"):
        _load(tmp_path, "wide.csv", header + "\n" + ",".join("1" * 100_000) + "\n")


def test_a_file_named_with_brackets_loads_by_its_literal_name(tmp_path: Path) -> None:
    assert _load(tmp_path, "[avalon] daily.csv", "a,b\n1,2\n").rows_loaded == 1


def test_a_record_after_a_multi_line_value_is_named_by_its_own_line(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="line 5 has 3 fields where the header has 2"):
        _load(tmp_path, "m.csv", 'a,b\n1,"x\ny\nz"\n2,3,4\n')


def test_field_counts_are_the_real_ones(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="line 2 has 5 fields where the header has 3"):
        _load(tmp_path, "f.csv", "a,b,c\n1,2,3,,x\n4,5,6\n")


def test_a_short_record_is_reported_as_one_not_as_a_conversion(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="line 3 has 2 fields where the header has 3"):
        _load(tmp_path, "s.csv", "a,b,c\n1,2,3\nfoo,bar\n")


def test_a_record_too_long_for_duckdb_to_quote_whole_is_counted_as_a_floor(tmp_path: Path) -> None:
    # DuckDB quotes only the first 10,000 characters of a bad record: 5,001 fields of "x," here, not 100,000.
    with pytest.raises(LoadError, match=r"line 3 has at least 5,000 fields where the header has 3") as caught:
        _load(tmp_path, "wide.csv", "a,b,c\n1,2,3\n" + ",".join("x" * 100_000) + "\n4,5,6\n")
    assert "5,001" not in str(caught.value)


def test_a_text_column_of_numbers_duckdb_did_not_read_is_named_with_the_type_that_stores_it(tmp_path):
    """DuckDB keeps ``+1.2`` and ``inf`` as text; the load says so, with the --type that stores them, and
    says nothing of codes that read as numbers (a leading zero, an underscore DuckDB's cast would drop).
    Signed whole numbers (``+3``, ``-2``) are stored as BIGINT and said (``signed_whole``)."""
    csv = tmp_path / "deltas.csv"
    csv.write_text(
        "id,delta,change,rate,zip,subplot\n1,+3,+1.2,inf,02134,41_10_1\n2,-2,-0.5,2.5,10001,41_10_2\n"
        "3,+5,+7,1,94105,41_11_1\n",
        encoding="utf-8",
    )
    summary = load_files(tmp_path / "a.duckdb", [str(csv)], LoadOptions())
    named = {note.split(" ")[0]: note for note in summary.notes if "reads as a number" in note}
    assert set(named) == {"change", "rate"}
    assert any(
        n.startswith("delta: whole numbers each written with its sign, like '+3'") for n in summary.notes
    )
    assert "--type change=DOUBLE" in named["change"] and "like 'inf'" in named["rate"]
    typed = LoadOptions(types={"delta": "BIGINT", "change": "DOUBLE", "rate": "DOUBLE"})
    again = load_files(tmp_path / "b.duckdb", [str(csv)], typed)
    assert not [note for note in again.notes if "reads as a number" in note]
    with duckdb.connect(str(tmp_path / "b.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT sum(delta), sum(change) FROM deltas").fetchone() == (
            6,
            pytest.approx(7.7),
        )


def test_an_integer_column_written_in_hexadecimal_is_said_with_the_option_that_keeps_its_text(tmp_path):
    """DuckDB reads ``0x10`` as 16: before, a column of hex codes became numbers without a sign."""
    csv = tmp_path / "codes.csv"
    rows = "".join(f"{i},0x{i * 16:X},0x{i}z,{i}\n" for i in range(1, 6))
    csv.write_text("id,code,label,plain\n" + rows, encoding="utf-8")
    summary = load_files(tmp_path / "a.duckdb", [str(csv)], LoadOptions())
    types = {c.name: c.type for c in summary.columns}
    assert types["code"] == "BIGINT" and types["label"] == "VARCHAR"
    hex_lines = [note for note in summary.notes if "hexadecimal" in note]
    assert hex_lines == [
        "code: 5 values written in hexadecimal, like '0x10', stored as the numbers they write (16); "
        "add --type code=VARCHAR to keep them as written"
    ]
    kept = load_files(tmp_path / "b.duckdb", [str(csv)], LoadOptions(types={"code": "VARCHAR"}))
    assert not [note for note in kept.notes if "hexadecimal" in note]
    with duckdb.connect(str(tmp_path / "b.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT min(code) FROM codes").fetchone() == ("0x10",)


@pytest.mark.parametrize(
    ("block", "seen"),
    [("a,b\n1,0x1F\n", True), ('a,b\n1,"0X1f"\n', True), ("a;b\n1; -0x2\n", True), ("0x10,b\n", True),
     ("a,b\n1,10x2\n", False), ("a,b\n1,ab0x1\n", False), ("a,b\n1,0xZ\n", False), ("a,b\n1,2\n", False)],
)  # fmt: skip
def test_the_first_block_shows_a_field_written_in_hexadecimal(block, seen):
    from analytics_agent.db.load.settle.hex_values import written_in_hex

    assert written_in_hex(block) is seen
