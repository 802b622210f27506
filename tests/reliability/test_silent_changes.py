"""Loads that changed numbers or columns without a word (round three): ``--pad-short-rows`` took a
record longer than the header and added a column for it; ``--decimal ',' --thousands '.'`` on a
decimal-point file read 1.500 as 1500. Each is now refused or said in the load's notes."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError


def _tables(db: Path) -> list[str]:
    if not db.exists():
        return []
    with duckdb.connect(str(db)) as conn:
        return [
            r[0] for r in conn.execute("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'")
        ]


@pytest.mark.parametrize(
    ("text", "fields", "header"),
    [
        ("a,b\n1,2\n3,4,5\n6\n", 3, 2),
        ('name;city\n"Asha";"Pune"\n"Ravi";"Delhi";"extra"\n"Mira"\n', 3, 2),
        ("a\tb\tc\n1\t2\t3\n4\t5\t6\t7\t8\n9\n", 5, 3),
    ],
    ids=["comma", "semicolon-quoted", "tab-two-extra"],
)
def test_pad_short_rows_refuses_a_record_longer_than_the_header(
    tmp_path: Path, text: str, fields: int, header: int
) -> None:
    """It used to load, with a column DuckDB named ``column2`` holding the extra field and NULL elsewhere."""
    path = tmp_path / "rows.csv"
    path.write_text(text)
    db = tmp_path / "shop.duckdb"
    with pytest.raises(LoadError) as info:
        load_files(db, [str(path)], LoadOptions(pad_short_rows=True))
    message = str(info.value)
    assert "\n" not in message
    assert f"a record has {fields} fields, more than the header's {header}" in message
    assert _tables(db) == []


def test_pad_short_rows_still_pads_short_records(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    path.write_text("a,b,c\n1,2,3\n4\n5,6\n")
    db = tmp_path / "shop.duckdb"
    load_files(db, [str(path)], LoadOptions(pad_short_rows=True))
    with duckdb.connect(str(db)) as conn:
        assert conn.execute("SELECT * FROM rows ORDER BY a").fetchall() == [
            (1, 2, 3),
            (4, None, None),
            (5, 6, None),
        ]


@pytest.mark.parametrize(
    ("text", "decimal", "thousands", "stored", "note"),
    [
        ("item;price\nx;1.500\ny;2.250\nz;13.125\n", ",", ".", [1500, 2250, 13125], "(1.500 as 1500)"),
        ("item\tprice\nx\t1,500\ny\t22,750\n", ".", ",", [1500, 22750], "(1,500 as 1500)"),
        ("item;price\nx;1.500\ny;7.000\n", ",", ".", [1500, 7000], "(1.500 as 1500)"),
    ],
    ids=["dot-decimals-as-thousands", "comma-decimals-as-thousands", "whole-thousands"],
)
def test_thousands_read_where_no_value_has_the_decimal_mark_is_said(
    tmp_path: Path, text: str, decimal: str, thousands: str, stored: list[int], note: str
) -> None:
    """Every value fits the thousands grouping, so the load cannot tell 1.500 (1500 in a decimal-comma
    file without cents) from 1.5 (a decimal-point file): it loads as told and says how it read them."""
    path = tmp_path / "prices.csv"
    path.write_text(text)
    summary = load_files(
        tmp_path / "shop.duckdb", [str(path)], LoadOptions(decimal=decimal, thousands=thousands)
    )
    said = [n for n in summary.notes if "no value holds the decimal mark" in n]
    assert len(said) == 1 and note in said[0] and "load again without --decimal and --thousands" in said[0]
    with duckdb.connect(str(tmp_path / "shop.duckdb")) as conn:
        assert [r[0] for r in conn.execute("SELECT price FROM prices ORDER BY item").fetchall()] == stored


def test_a_file_that_uses_the_decimal_mark_gets_no_note(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text("item;price\nx;1.500,25\ny;2,5\n")
    summary = load_files(tmp_path / "shop.duckdb", [str(path)], LoadOptions(decimal=",", thousands="."))
    assert not [n for n in summary.notes if "decimal mark" in n]
    with duckdb.connect(str(tmp_path / "shop.duckdb")) as conn:
        assert [float(r[0]) for r in conn.execute("SELECT price FROM prices ORDER BY item").fetchall()] == [
            1500.25,
            2.5,
        ]


@pytest.mark.parametrize("label", ["{r} Subtotal", "Subtotal: {r}", "{r} (total)"])
def test_subtotal_rows_labelled_any_way_are_found_with_the_total(tmp_path: Path, label: str) -> None:
    """Subtotal rows were recognised only by a label starting or ending in a separate word (``North
    Total``): with ``North Subtotal`` rows the grand total (350) no longer matched the rows above (700),
    so neither it nor the subtotals were named, and a sum over the table said 1050. The true sum, 350,
    is the four data rows of the file below, added by hand."""
    rows = [("North", "A", 100), ("North", "B", 50), (label.format(r="North"), "", 150)]
    rows += [("South", "C", 200), (label.format(r="South"), "", 200), ("Grand Total", "", 350)]
    (tmp_path / "sales.csv").write_text(
        "region,city,amount\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows)
    )
    kept = load_files(tmp_path / "x.duckdb", [str(tmp_path / "sales.csv")], LoadOptions(table="kept"))
    assert any("2 subtotal rows" in note and "--drop-totals" in note for note in kept.notes), kept.notes
    load_files(tmp_path / "x.duckdb", [str(tmp_path / "sales.csv")], LoadOptions(table="s", drop_totals=True))
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        assert conn.execute("SELECT sum(amount), count(*) FROM s").fetchone() == (350, 3)


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("region;amount\nNorth;1,500\nSouth;2,250\n", [1.5, 2.25]),
        ('region,amount\nNorth,"1,500"\nSouth,"12,000"\n', [1.5, 12.0]),
        ("region;amount\nNorth;-3,125\nSouth;7\n", [-3.125, 7.0]),
    ],
    ids=["semicolon", "quoted-comma-file", "negative-and-whole"],
)
def test_decimal_comma_on_values_that_look_grouped_in_thousands_is_said(
    tmp_path: Path, text: str, stored: list[float]
) -> None:
    """``--decimal ','`` on a file writing 1,500 for fifteen hundred stored 1.5 without a word: the
    mirror of ``--decimal ',' --thousands '.'`` on a decimal-point file. Loaded as told (a file of
    three-decimal numbers is read right so), with a note saying how to read it the other way."""
    (tmp_path / "f.csv").write_text(text)
    summary = load_files(
        tmp_path / "x.duckdb", [str(tmp_path / "f.csv")], LoadOptions(table="t", decimal=",")
    )
    notes = [n for n in summary.notes if "three digits after it" in n]
    assert len(notes) == 1 and "--thousands ','" in notes[0], summary.notes
    with duckdb.connect(str(tmp_path / "x.duckdb")) as conn:
        assert [r[0] for r in conn.execute("SELECT amount FROM t ORDER BY rowid").fetchall()] == stored


def test_decimal_comma_with_other_decimals_gets_no_note(tmp_path: Path) -> None:
    (tmp_path / "f.csv").write_text("region;amount\nNorth;1,5\nSouth;2,250\n")
    summary = load_files(
        tmp_path / "x.duckdb", [str(tmp_path / "f.csv")], LoadOptions(table="t", decimal=",")
    )
    assert not [n for n in summary.notes if "three digits" in n], summary.notes


@pytest.mark.parametrize(("thousands", "decimal"), [(".", None), (",", ","), (".", ".")])
def test_one_mark_as_both_separators_is_one_line_saying_what_to_fix(
    tmp_path: Path, thousands: str, decimal: str | None
) -> None:
    """``--thousands '.'`` (the default decimal mark) ended in DuckDB's own "Binder Error: THOUSANDS must
    not appear in the DECIMAL_SEPARATOR specification"."""
    (tmp_path / "f.csv").write_text("region;amount\nNorth;1.5\n")
    from analytics_agent.db.load.options import load_options

    with pytest.raises(LoadError, match=rf"--thousands '\{thousands}' is also the decimal mark") as info:
        options = load_options(table="t", thousands=thousands, decimal=decimal)
        load_files(tmp_path / "x.duckdb", [str(tmp_path / "f.csv")], options)
    assert "Binder" not in str(info.value) and "\n" not in str(info.value)
    assert _tables(tmp_path / "x.duckdb") == []
