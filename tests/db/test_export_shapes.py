"""Export shapes a reviewer found loading wrong (issue 36, "other export files"): amounts with a leading
plus, a Unicode minus, Swiss typographic apostrophes, Indian lakh grouping, German point-grouped
thousands and Excel's accounting zero; subtotal labels such as ``Zwischensumme Süden``; two-digit years
written last (``31/12/21``) that DuckDB's sniffer reads first; a report title and a blank line above the
table; Excel error values among numbers. Each file is loaded through the real loader into a DuckDB file
in a temp dir and checked against what it means, worked out by hand."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import LoadSummary, load_files
from analytics_agent.errors import LoadError


def _load(tmp_path: Path, text: str, **options: Any) -> LoadSummary:
    path = tmp_path / "export.csv"
    path.write_text(text, encoding="utf-8")
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", replace=True, **options))


def _column(tmp_path: Path, name: str) -> list[Any]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return [r[0] for r in conn.execute(f'SELECT "{name}" FROM t ORDER BY rowid').fetchall()]


@pytest.mark.parametrize(
    ("cells", "sep", "want"),
    [
        (["+5.1 %", "-0.1 %", "+15.8 %"], ",", [5.1, -0.1, 15.8]),
        (["244\u00a0543 kr", "\u221259\u00a0278 kr", "9\u00a0145 kr"], ";", [244543, -59278, 9145]),
        (["6\u2019280.35 CHF", "916.74 CHF", "49\u2019422.78 CHF"], ";", [6280.35, 916.74, 49422.78]),
        (["50,24,279", "7,33,391", "3,95,38,223"], ",", [5024279, 733391, 39538223]),
        (["\u20b96,280.35", "\u20b91,23,456.78", "\u20b9916.74"], ",", [6280.35, 123456.78, 916.74]),
        (["5.024.279", "733.391", "39.538.223"], ";", [5024279, 733391, 39538223]),
        ([" $ 305.68 ", " $ -   ", " $ (28.95)", " $ 1,949.36 "], ",", [305.68, 0.0, -28.95, 1949.36]),
    ],
)
def test_amounts_in_more_locales_are_numbers(
    tmp_path: Path, cells: list[str], sep: str, want: list[float]
) -> None:
    text = f"state{sep}amount\n" + "".join(
        f'S{i}{sep}"{c}"\n' if sep in c else f"S{i}{sep}{c}\n" for i, c in enumerate(cells)
    )
    summary = _load(tmp_path, text)
    assert {c.name: c.type for c in summary.columns}["amount"] == "DOUBLE", summary.notes
    assert _column(tmp_path, "amount") == pytest.approx(want)
    assert any("amounts stored as numbers" in n and "--type amount=VARCHAR" in n for n in summary.notes)


GERMAN_SUBTOTALS = (
    "Region;Staat;Einwohner\n"
    "Nord;A;1.200.000\nNord;B;800.000\nZwischensumme Nord;;2.000.000\n"
    "Süd;C;3.000.000\nSüd;D;500.000\nZwischensumme Süd;;3.500.000\n"
    "Gesamt;;5.500.000\n"
)


def test_subtotals_labelled_zwischensumme_and_a_name_are_dropped_with_the_total(tmp_path: Path) -> None:
    said = _load(tmp_path, GERMAN_SUBTOTALS)
    assert any("Zwischensumme Nord" in n and "--drop-totals" in n for n in said.notes), said.notes
    summary = _load(tmp_path, GERMAN_SUBTOTALS, drop_totals=True)
    assert summary.rows_loaded == 4
    assert _column(tmp_path, "einwohner") == [1200000, 800000, 3000000, 500000]


@pytest.mark.parametrize(
    ("cells", "want"),
    [
        (["31/12/21", "03/05/21", "17/06/21"], ["2021-12-31", "2021-05-03", "2021-06-17"]),
        (["26.04.21", "03.05.21", "11.05.21"], ["2021-04-26", "2021-05-03", "2021-05-11"]),
        (["28-02-21", "03-05-12", "15-11-09"], ["2021-02-28", "2012-05-03", "2009-11-15"]),
    ],
)
def test_two_digit_years_written_last_are_read_last(
    tmp_path: Path, cells: list[str], want: list[str]
) -> None:
    """DuckDB's sniffer reads ``31/12/21`` as %y/%m/%d (2031-12-21): the year is the last field."""
    summary = _load(tmp_path, "day,n\n" + "".join(f"{c},{i}\n" for i, c in enumerate(cells)))
    assert [d.isoformat() for d in _column(tmp_path, "day")] == want
    assert any("two-digit years read last" in n and "--date-format day=%y" in n for n in summary.notes)


def test_the_named_option_keeps_duckdbs_year_first_reading(tmp_path: Path) -> None:
    _load(tmp_path, "day,n\n21/12/31,1\n21/05/03,2\n", date_format="%y/%m/%d")
    assert _column(tmp_path, "day") == [datetime.date(2021, 12, 31), datetime.date(2021, 5, 3)]


TITLED = (
    "Resident Population of Selected States\n"
    "Table 1 (report generated 04/26/2021)\n"
    "\n"
    "State,FIPS,Population\n"
    "Alabama,01,5024279\nAlaska,02,733391\nArizona,04,7151502\n"
    "\n"
    "Source: U.S. Census Bureau, 2020 Census.\n"
    "Note: resident population on April 1, 2020.\n"
)
"""A report as a BI tool exports it: a title block, the table, notes below (which threw DuckDB's sniffer
off the commas: it read one column, without a word)."""


def test_a_title_and_a_blank_line_above_the_table_are_named_with_skip(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match=r"lines 1-3 are a title.*add --skip 3 to start at the header"):
        _load(tmp_path, TITLED)


def test_skip_reads_the_table_below_a_title_block(tmp_path: Path) -> None:
    """Given --skip, DuckDB's sniffer reported those lines as skipped and the load took it for a fallback
    of its own: one column named after the whole header line. The notes below are named next."""
    with pytest.raises(LoadError, match=r"add --skip-bad-rows"):
        _load(tmp_path, TITLED, skip=3)
    summary = _load(tmp_path, TITLED, skip=3, skip_bad_rows=True)
    assert [c.name for c in summary.columns] == ["state", "fips", "population"]
    assert _column(tmp_path, "fips") == ["01", "02", "04"]
    assert _column(tmp_path, "population") == [5024279, 733391, 7151502]


def test_excel_error_values_among_numbers_are_missing(tmp_path: Path) -> None:
    summary = _load(tmp_path, "state,pct\nAL,5.1\nAK,#N/A\nAZ,-0.1\nAR,#DIV/0!\nCA,6.1\n")
    assert _column(tmp_path, "pct") == [5.1, None, -0.1, None, 6.1]
    (note,) = [n for n in summary.notes if "Excel error" in n]
    assert "pct (2: #DIV/0!, #N/A)" in note and "--type pct=VARCHAR" in note


@pytest.mark.parametrize("cells", [["AL", "#N/A", "none"], ["007", "#N/A", "012"]])
def test_excel_errors_beside_text_or_codes_are_missing_and_the_rest_stays_text(
    tmp_path: Path, cells: list[str]
) -> None:
    # codes keep their leading zeros; the error is missing as in a column of numbers (it was kept as text)
    summary = _load(tmp_path, "n,code\n" + "".join(f"{i},{c}\n" for i, c in enumerate(cells)))
    assert _column(tmp_path, "code") == [cells[0], None, cells[2]]
    (note,) = [n for n in summary.notes if "Excel error" in n]
    assert "code (1: #N/A)" in note and "--type code=VARCHAR" in note


def test_decimal_commas_beside_point_grouped_whole_numbers_are_named_with_their_options(
    tmp_path: Path,
) -> None:
    """The whole numbers read as numbers (grouped with points, they read one way); the column of decimal
    commas is named with the options, which the converted column does not stand in the way of."""
    text = "staat;einwohner;gebuehr\nA;5.024.279;6.280,35\nB;733.391;916,74\nC;39.538.223;49.422,78\n"
    summary = _load(tmp_path, text)
    assert _column(tmp_path, "einwohner") == [5024279, 733391, 39538223]
    assert any(
        n.startswith("gebuehr stayed text") and "--decimal ',' --thousands '.'" in n for n in summary.notes
    )
    _load(tmp_path, text, decimal=",", thousands=".")
    assert _column(tmp_path, "einwohner") == [5024279, 733391, 39538223]
    assert _column(tmp_path, "gebuehr") == pytest.approx([6280.35, 916.74, 49422.78])


def test_windows_1252_bytes_past_the_first_block_are_named_with_an_encoding_that_reads_them(
    tmp_path: Path,
) -> None:
    """The load reads a file's first block to tell its encoding; a Windows-1252 ``€`` further down was
    named with --encoding latin-1, which DuckDB then refused too (its latin-1 lacks 0x80): no option read it."""
    rows = "".join(f"{i},Item {i},{i * 1.5:.2f}\n" for i in range(1, 4000))
    path = tmp_path / "export.csv"
    path.write_bytes(("id,name,amount\n" + rows).encode() + "4000,Café € – spécial,12.50\n".encode("cp1252"))
    with pytest.raises(LoadError, match=r"line 4001: .*Windows-1252.*add --encoding windows-1252"):
        load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t"))
    load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", encoding="windows-1252"))
    assert _column(tmp_path, "name")[-1] == "Café € – spécial"
    assert len(_column(tmp_path, "id")) == 4000


def test_windows_1252_asked_of_a_file_with_a_byte_it_lacks_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "export.csv"
    path.write_bytes(b"a,b\n1,x\x81y\n")
    with pytest.raises(LoadError, match=r"export\.csv is not cp1252 either"):  # as the user named it
        load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", encoding="cp1252"))


def test_a_note_below_a_blank_line_is_called_a_line_of_text_not_a_blank_line(tmp_path: Path) -> None:
    """DuckDB quotes a record that follows a blank line with that line's end first; the refusal read the
    empty part and called the note ("Notes:") a blank line."""
    text = "region,sales\nNorth,100\nSouth,200\n\nNotes:\nFigures in USD thousands\n"
    with pytest.raises(LoadError) as refused:
        _load(tmp_path, text)
    assert "line 5 has 1 field where the header has 2; " in str(refused.value)
    assert "blank line" not in str(refused.value) and "add --skip-bad-rows" in str(refused.value)


@pytest.mark.parametrize(
    ("cells", "want"),
    [
        (
            ["15/03/24 14:05", "16/03/24 11:59", "01/12/24 12:00"],
            ["2024-03-15 14:05", "2024-03-16 11:59", "2024-12-01 12:00"],
        ),
        (
            ["3/15/24 2:05 PM", "3/16/24 11:59 AM", "12/1/24 12:00 PM"],
            ["2024-03-15 14:05", "2024-03-16 11:59", "2024-12-01 12:00"],
        ),
    ],
)
def test_timestamps_with_two_digit_years_are_read_year_last(
    tmp_path: Path, cells: list[str], want: list[str]
) -> None:
    """DuckDB's own cast read ``15/03/24 14:05`` as 0015-03-24 14:05, silently; ``3/15/24 2:05 PM`` stayed
    text without a word."""
    summary = _load(tmp_path, "start,n\n" + "".join(f"{c},{i}\n" for i, c in enumerate(cells)))
    assert _column(tmp_path, "start") == [datetime.datetime.fromisoformat(w) for w in want]
    assert any("two-digit years" in n and "--type start=VARCHAR" in n for n in summary.notes), summary.notes


def test_point_grouped_thousands_read_as_decimals_in_a_semicolon_file_are_said(tmp_path: Path) -> None:
    """``1.234;2.500;10.000`` in a semicolon file: DuckDB stores 1.234, 2.5 and 10 without a word; the
    named options store 1234, 2500 and 10000. Decimals in a comma file, or ``0.125``, get no such line."""
    text = "k;v\nA;1.234\nB;2.500\nC;10.000\n"
    summary = _load(tmp_path, text)
    (note,) = [n for n in summary.notes if "three digits after one point" in n]
    assert note.startswith("v: ") and note.endswith("add --decimal ',' --thousands '.'")
    _load(tmp_path, text, decimal=",", thousands=".")
    assert _column(tmp_path, "v") == [1234, 2500, 10000]
    for other in ("k,v\nA,1.234\nB,2.500\n", "k;v\nA;0.125\nB;2.500\n", "k;v\nA;1.5\nB;2.500\n"):
        assert not any("three digits" in n for n in _load(tmp_path, other).notes)
