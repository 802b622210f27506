"""Held-out round fourteen's three misreadings, each as the general rule it broke: ids shaped like month
periods (Loyverse's ``2-1017``) stored as the months of the year 1017; a warehouse column's names
(Rivilė's ``KAUNAS``, ``CENTR`` beside codes ``01``) offered as missing markers; an Excel pivot table's
blank group labels (the label once per group, above its ``North Total`` row) loaded as NULL, so a sum by
region kept each group's first row alone. Real files, loaded into DuckDB files in ``tmp_path``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import LoadSummary, load_files


def _load(tmp_path: Path, name: str, text: str, encoding: str = "utf-8", **options: Any) -> LoadSummary:
    if encoding != "utf-8":
        options["encoding"] = encoding
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", replace=True, **options))


def _rows(tmp_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return conn.execute(sql).fetchall()


def _types(summary: LoadSummary) -> dict[str, str]:
    return {c.name: c.type for c in summary.columns}


# --- years a text date would be read in ------------------------------------------------------------

RECEIPTS = "Date,Receipt number,Net sales\n" + "".join(
    f"3/{d}/24 2:15 PM,{d % 2 + 1}-{1000 + d},{d}.50\n" for d in range(1, 21)
)


def test_ids_shaped_like_month_periods_stay_text_and_say_why(tmp_path: Path) -> None:
    summary = _load(tmp_path, "receipts.csv", RECEIPTS)
    assert _types(summary)["receipt_number"] == "VARCHAR"
    assert _rows(tmp_path, "SELECT receipt_number FROM t LIMIT 2") == [("2-1001",), ("1-1002",)]
    assert (
        "receipt_number stayed text: read as dates (%m-%Y) its values would fall before 1900 (like '2-1001', "
        "the year 1001) and its name does not say dates, as ids shaped like dates do; add --date-format "
        "receipt_number=%m-%Y to read them as dates" in summary.notes
    )
    assert not any("receipt_number: text dates" in n for n in summary.notes)


def test_month_numbers_outside_the_file_s_other_dates_stay_text(tmp_path: Path) -> None:
    """Receipt counters past 1900 (``1-2017``) fit a month too: the file's own dates are of 2024."""
    text = "Date,Receipt number,Net sales\n" + "".join(
        f"2024-03-{d:02d},{d % 2 + 1}-{2000 + d},{d}.50\n" for d in range(1, 21)
    )
    summary = _load(tmp_path, "receipts.csv", text)
    assert _types(summary)["receipt_number"] == "VARCHAR"
    assert (
        "receipt_number stayed text: read as months (%m-%Y) its values would fall in 2001-2020, outside the "
        "years of the file's other dates (2024), and its name does not say months; add --date-format "
        "receipt_number=%m-%Y to read them as months" in summary.notes
    )


def test_month_periods_under_a_period_name_or_within_the_file_s_dates_are_months(tmp_path: Path) -> None:
    """Guards: a ``Period`` column is months whatever the other dates; so is an unnamed one whose years
    are the file's."""
    text = "Invoice date,Period,Billing cycle\n" + "".join(
        f"2024-03-{d:02d},{d % 12 + 1:02d}-2019,{d % 12 + 1:02d}/2024\n" for d in range(1, 13)
    )
    summary = _load(tmp_path, "periods.csv", text)
    assert _types(summary)["period"] == "DATE" and _types(summary)["billing_cycle"] == "DATE"
    assert _rows(tmp_path, "SELECT period, billing_cycle FROM t LIMIT 1") == [
        (dt.date(2019, 2, 1), dt.date(2024, 2, 1))
    ]


def test_early_years_from_text_are_read_only_under_a_name_that_says_dates(tmp_path: Path) -> None:
    """A register's birth dates of the 1800s are dates, said; the same values under another name are no
    reading the load can vouch for: a text date the load reads (``Mar 13 1863``) and one DuckDB reads."""
    text = "Birth date,Ref,Entry\n" + "".join(
        f"Mar {d} 18{50 + d},{d:02d}/04/18{50 + d},Apr {d} 18{50 + d}\n" for d in range(13, 25)
    )
    summary = _load(tmp_path, "register.csv", text)
    types = _types(summary)
    assert (types["birth_date"], types["ref"], types["entry"]) == ("DATE", "VARCHAR", "VARCHAR")
    assert _rows(tmp_path, "SELECT birth_date, ref, entry FROM t LIMIT 1") == [
        (dt.date(1863, 3, 13), "13/04/1863", "Apr 13 1863")
    ]
    said = next(n for n in summary.notes if n.startswith("birth_date: text dates"))
    assert "years from 1863, before 1900, read as written: its name says dates" in said
    assert any(n.startswith("entry stayed text: read as dates (%b %d %Y)") for n in summary.notes)
    assert (
        "ref stayed text: its values read as dates would fall before 1900 (like '13/04/1863', the year 1863) "
        "and its name does not say dates, as ids shaped like dates do; add --type ref=DATE to read them as "
        "dates" in summary.notes
    )
    assert not any(n.startswith("ref: dates read") for n in summary.notes)


def test_dates_duckdb_reads_before_1900_under_a_date_name_are_said(tmp_path: Path) -> None:
    summary = _load(
        tmp_path,
        "born.csv",
        "Name,Date of birth\n" + "".join(f"n{i},18{60 + i}-03-0{i}\n" for i in range(1, 8)),
    )
    assert _types(summary)["date_of_birth"] == "DATE"
    assert (
        "date_of_birth: dates from the year 1861, before 1900 (like '1861-03-01'), read as written: its name "
        "says dates; add --type date_of_birth=VARCHAR to keep them as text" in summary.notes
    )


# --- words that name things are no missing marker ----------------------------------------------------


def test_warehouse_names_beside_codes_are_not_offered_as_missing(tmp_path: Path) -> None:
    names = ["KAUNAS", "CENTR", "01"]
    text = "Kodas\tSandelis\tLikutis\n" + "".join(f"{i:06d}\t{names[i % 3]}\t{i}.5\n" for i in range(1, 31))
    summary = _load(tmp_path, "stock.txt", text)
    assert not any("--null" in n for n in summary.notes), summary.notes
    assert _rows(tmp_path, "SELECT count(*) FILTER (WHERE sandelis = 'KAUNAS') FROM t") == [(10,)]


def test_two_words_outnumbering_the_numbers_are_values(tmp_path: Path) -> None:
    """A school's grade level: ``K`` and ``PK`` are grades, not missing ones."""
    grades = ["K", "PK", "K", "3", "4"]
    text = "student,grade\n" + "".join(f"s{i},{grades[i % 5]}\n" for i in range(40))
    summary = _load(tmp_path, "grades.csv", text)
    assert not any("--null" in n for n in summary.notes), summary.notes


def test_a_marker_beside_codes_or_a_word_alone_stays_a_marker(tmp_path: Path) -> None:
    """Guards: WeChat's ``/`` among merchant numbers, and one word however often (Meta's ``Ongoing``)."""
    text = "order,merchant,ends\n" + "".join(
        f"{i},{'/' if i % 3 == 0 else f'0{5560 + i}'},{'Ongoing' if i % 2 else f'2024-05-{i + 1:02d}'}\n"
        for i in range(24)
    )
    summary = _load(tmp_path, "orders.csv", text)
    assert (
        "merchant stayed text because of 8 values like '/'; add --null '/' if it means missing"
        in summary.notes
    )
    assert (
        "ends stayed text because of 12 values like 'Ongoing'; add --null 'Ongoing' if it means missing"
        in (summary.notes)
    )


def test_three_decimals_are_not_doubted_when_another_column_writes_the_decimal_mark(tmp_path: Path) -> None:
    """Rivilė's quantities ``73,210`` with ``--decimal ','``: its costs ``117,7000`` and values ``8 616,82``
    show the comma is the decimal mark; a file of three-decimal numbers alone is still said."""
    text = "Likutis;Savikaina\n" + "".join(f"{i},210;{i}7,7000\n" for i in range(1, 8))
    summary = _load(tmp_path, "stock.csv", text, decimal=",")
    assert not any("has three digits after it" in n for n in summary.notes), summary.notes
    assert _rows(tmp_path, "SELECT likutis, savikaina FROM t LIMIT 1") == [(1.21, 17.7)]
    alone = _load(
        tmp_path,
        "alone.csv",
        "Likutis;Kodas\n" + "".join(f"{i},210;a{i}\n" for i in range(1, 8)),
        decimal=",",
    )
    assert any("has three digits after it" in n for n in alone.notes)


# --- a pivot table's blank group labels --------------------------------------------------------------

PIVOT = (
    "Region\tRep\tUnits\tRevenue\n"
    "North\tAnna\t10\t$100.00\n\tAnna\t20\t$200.00\n\tBo\t30\t$300.00\n"
    "North Total\t\t60\t$600.00\n"
    "South\tCy\t5\t$50.00\n\tDi\t7\t$70.00\n"
    "South Total\t\t12\t$120.00\n"
    "Grand Total\t\t72\t$720.00\n"
)


def test_a_pivot_table_s_blank_group_labels_are_filled_and_said(tmp_path: Path) -> None:
    summary = _load(tmp_path, "Pivot.txt", PIVOT, encoding="utf-16", drop_totals=True)
    assert _rows(tmp_path, "SELECT region, rep, units FROM t ORDER BY rowid") == [
        ("North", "Anna", 10),
        ("North", "Anna", 20),
        ("North", "Bo", 30),
        ("South", "Cy", 5),
        ("South", "Di", 7),
    ]
    assert (
        "region: 3 empty cells below a group's label filled with it, as a pivot table writes each group's "
        "label once, on its first row ('North' down to its 'North Total' row); add --keep-blank-labels to "
        "keep them empty (NULL)" in summary.notes
    )


def test_pivot_labels_are_filled_with_the_totals_rows_kept_and_kept_empty_on_request(tmp_path: Path) -> None:
    summary = _load(tmp_path, "Pivot.txt", PIVOT, encoding="utf-16")
    assert _rows(tmp_path, "SELECT region, sum(units) FROM t GROUP BY 1 ORDER BY 1") == [
        ("Grand Total", 72),
        ("North", 60),
        ("North Total", 60),
        ("South", 12),
        ("South Total", 12),
    ]
    assert any(n.startswith("region: 3 empty cells below a group's label") for n in summary.notes)
    kept = _load(tmp_path, "Pivot.txt", PIVOT, encoding="utf-16", drop_totals=True, keep_blank_labels=True)
    assert _rows(tmp_path, "SELECT count(*) FILTER (WHERE region IS NULL) FROM t") == [(3,)]
    assert not any("empty cells below" in n for n in kept.notes)


def test_blanks_outside_a_closed_group_or_in_other_columns_are_never_filled(tmp_path: Path) -> None:
    """Guards: a group whose subtotal names another label, and the blank ``Rep`` cells of the groups."""
    text = PIVOT.replace("South Total", "West Total").replace("\tBo\t", "\t\t")
    summary = _load(tmp_path, "Pivot.txt", text, encoding="utf-16", drop_totals=True)
    assert not any("empty cells below" in n for n in summary.notes)
    assert (
        _rows(
            tmp_path,
            "SELECT count(*) FILTER (WHERE region IS NULL), count(*) FILTER (WHERE rep IS NULL) FROM t",
        )[0][1]
        == 1
    )


def test_a_dropped_totals_label_leaves_no_advice_on_its_code_column(tmp_path: Path) -> None:
    """Rivilė's ``Iš viso:`` under item codes ``000123``: once --drop-totals dropped the row, the column
    stays text for its codes, and the note advising --drop-totals named a value no longer there."""
    text = (
        "Kodas\tVerte\n"
        + "".join(f"{i:06d}\t$1,{i:03d}.50\n" for i in range(1, 12))
        + "Iš viso:\t$11,071.50\n"
    )
    summary = _load(tmp_path, "stock.txt", text, drop_totals=True)
    assert not any(n.startswith("kodas stayed text") for n in summary.notes), summary.notes
    assert any(
        n.startswith("--drop-totals: dropped the last row (kodas = 'Iš viso:')") for n in summary.notes
    )
    assert _rows(tmp_path, "SELECT count(*), min(kodas) FROM t") == [(11, "000001")]
