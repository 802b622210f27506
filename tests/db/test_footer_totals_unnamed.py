"""Totals rows and tables held-out rounds twelve and thirteen showed the loader did not know (2026-12-08):
a grand total labelled in words no list held (GLS Hungary's ``Mindösszesen: 60 csomag`` under its daily
``Összesen`` subtotals), any last row whose numbers are sums of the rows above whatever its label says,
and a Bulgarian statement's ``Общо обороти`` (turnover) between its records and the closing balance, with
the opening and closing balances in the credit column. Each loaded as records: every sum counted the rows
twice, without a word. Real files through the real loader into a DuckDB file in a temp dir."""

from __future__ import annotations

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


def _one(tmp_path: Path, sql: str) -> tuple[Any, ...]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        found = conn.execute(sql).fetchone()
    assert found is not None
    return found


ITEMS = [("Nord", 3, 120.5), ("Süd", 5, 80.25), ("West", 2, 99.0), ("Ost", 7, 10.75)]
PLAIN = "region,qty,amount\n" + "".join(f"{r},{q},{a}\n" for r, q, a in ITEMS)


def test_a_last_row_of_sums_under_a_label_no_list_holds_is_said_and_dropped(tmp_path: Path) -> None:
    text = PLAIN + "Alles zusammen,17,310.5\n"
    kept = _load(tmp_path, text)
    (note,) = [n for n in kept.notes if "--drop-totals" in n]
    assert "the last row (region = 'Alles zusammen') holds the sums of the rows above in qty, amount" in note
    summary = _load(tmp_path, text, drop_totals=True)
    assert summary.rows_loaded == 4
    assert _one(tmp_path, "SELECT sum(qty), sum(amount) FROM t") == (17, 310.5)


def test_a_large_last_row_whose_numbers_are_no_sums_is_data(tmp_path: Path) -> None:
    summary = _load(tmp_path, PLAIN + "Zentrale,40,900.0\n")
    assert not any("--drop-totals" in n for n in summary.notes), summary.notes
    assert summary.rows_loaded == 5


def test_a_last_row_summing_one_column_alone_is_data(tmp_path: Path) -> None:
    """One sum may be chance (an id, a count that happens to add up); two are not."""
    summary = _load(tmp_path, PLAIN + "Zentrale,17,900.0\n")
    assert not any("--drop-totals" in n for n in summary.notes), summary.notes
    assert summary.rows_loaded == 5


GLS = (
    "Csomagszám\tCímzett\tSúly (kg)\tUtánvét\n"
    "03286411143\tNagy Éva\t5,09\t2 800 Ft\n"
    "\tÖsszesen: 1 csomag\t5,09\t2 800 Ft\n"
    "07387780492\tSzabó Ödön\t1,12\t8 100 Ft\n"
    "07351519381\tKovács Péter\t15,86\t0 Ft\n"
    "\tÖsszesen: 2 csomag\t16,98\t8 100 Ft\n"
    "\tMindösszesen: 3 csomag\t22,07\t10 900 Ft\n"
)


def test_a_hungarian_grand_total_under_daily_subtotals_is_dropped_with_them(tmp_path: Path) -> None:
    kept = _load(tmp_path, GLS, decimal=",")
    assert any("'Mindösszesen: 3 csomag'" in n and "--drop-totals" in n for n in kept.notes), kept.notes
    summary = _load(tmp_path, GLS, decimal=",", drop_totals=True)
    assert summary.rows_loaded == 3
    assert _one(tmp_path, "SELECT sum(suly_kg), sum(utanvet) FROM t") == (22.07, 10900)


BULBANK = (
    "Дата;Референция;Вид операция;Дебит;Кредит\n"
    ";;Начално салдо;;12 450,00\n"
    "02.05.2024;240502160932;Входящ превод;;2 505,69\n"
    "02.05.2024;240502889626;Изходящ превод;-1 338,70;\n"
    "04.05.2024;240504336739;Входящ превод;;11 553,01\n"
    "06.05.2024;240506120001;Такса;-306,74;\n"
    ";;Общо обороти;-1 645,44;14 058,70\n"
    ";;Крайно салдо;;24 863,26\n"
)


def test_a_turnover_row_above_the_closing_balance_is_no_record(tmp_path: Path) -> None:
    """The opening and closing balances in the credit column, the turnover row between the records and
    the closing one: the opening plus the records' movements is the closing balance."""
    kept = _load(tmp_path, BULBANK)
    assert any("Начално салдо" in n and "Общо обороти" in n for n in kept.notes), kept.notes
    summary = _load(tmp_path, BULBANK, drop_totals=True)
    assert summary.rows_loaded == 4
    assert _one(tmp_path, "SELECT sum(дебит), sum(кредит), min(дата) FROM t")[:2] == (-1645.44, 14058.7)


_SSB_ROWS = [
    f"30{i:02d} Kommune {i};{'..' if i == 0 else 1000 + i};{10 + i % 9},{i % 10};{':' if i == 4 else f'{200 + i},{i % 7}5'}"
    for i in range(30)
]
SSB = (
    "12871: Befolkning og areal, etter region, statistikkvariabel og år\n\n"
    "region;Folkemengde 2022;Andel 67 år og over (prosent);Landareal km²\n"
    + "\n".join(_SSB_ROWS)
    + "\n\n¹ Foreløpige tall.\n..  Tall kan ikke offentliggjøres\nKilde: Statistisk sentralbyrå\n"
)
"""Statistics Norway's table: a title whose commas DuckDB's sniffer took for the delimiter, as two decimal
commas split most records into as many fields as the title has (an office's marks, ``..`` and ``:``, in
some), and notes below it."""


def test_a_title_whose_commas_the_sniffer_took_names_the_skip_to_the_table(tmp_path: Path) -> None:
    path = tmp_path / "ssb.csv"
    path.write_text(SSB, encoding="utf-8")
    with pytest.raises(LoadError) as refused:
        load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", replace=True))
    message = str(refused.value)
    assert "lines 1-2 are a title or notes" in message and "add --skip 2" in message, message
    summary = _load(tmp_path, SSB.split("\n", 2)[2], decimal=",", skip_bad_rows=True)  # the notes below
    assert summary.rows_loaded == 30
    assert _one(tmp_path, "SELECT sum(andel_67_ar_og_over_prosent), count(landareal_km2) FROM t") == (
        sum(10 + i % 9 + (i % 10) / 10 for i in range(30)),
        29,
    )


def test_a_column_of_decimal_commas_beside_one_with_an_offices_marks_is_named(tmp_path: Path) -> None:
    """The marks' column read with its decimal commas counted as a column of decimal points: the option
    for the other column's commas was not named, and it stayed text without a word."""
    summary = _load(tmp_path, "r;andel;areal\nx;30,1;297,64\ny;25,3;:\nz;13,0;2381,69\n")
    assert (
        "andel stayed text: its values are numbers with a decimal comma, like '13,0'; add --decimal ',' to "
        "read them as numbers" in summary.notes
    ), summary.notes


CITADELE = (
    "Datums;Saņēmējs;Summa;Valūta\n"
    ";Sākuma atlikums;2 340,18;EUR\n"
    "03.05.2024;Rimi Latvia;-703,74;EUR\n"
    "05.05.2024;Alga;1 690,56;EUR\n"
    "12.05.2024;Rimi Latvia;-121,75;EUR\n"
    ";Apgrozījums;865,07;EUR\n"
    ";Beigu atlikums;3 205,25;EUR\n"
)
NBG = (
    "Α/Α;Ημερομηνία;Περιγραφή;Ποσό;Χ/Π;Υπόλοιπο\n"
    ";;Υπόλοιπο έναρξης;;;4.210,35\n"
    "1;02/02/2024;ΠΛΗΡΩΜΗ ΔΕΗ;892,12;Χ;3.318,23\n"
    "2;05/02/2024;ΜΙΣΘΟΔΟΣΙΑ;534,36;Π;3.852,59\n"
    "3;13/02/2024;ΑΝΑΛΗΨΗ ATM;345,33;Χ;3.507,26\n"
    ";;Υπόλοιπο λήξης;;;3.507,26\n"
)


def test_latvian_opening_turnover_and_closing_rows_are_no_records(tmp_path: Path) -> None:
    """Citadele (round thirteen): `Sākuma atlikums`, `Apgrozījums`, `Beigu atlikums` loaded as records."""
    kept = _load(tmp_path, CITADELE)
    assert any("'Sākuma atlikums', 'Apgrozījums', 'Beigu atlikums'" in n for n in kept.notes), kept.notes
    summary = _load(tmp_path, CITADELE, drop_totals=True)
    assert summary.rows_loaded == 3
    assert _one(tmp_path, "SELECT round(sum(summa), 2) FROM t") == (865.07,)


def test_greek_opening_and_closing_rows_around_a_running_balance_are_no_records(tmp_path: Path) -> None:
    """National Bank of Greece (round thirteen): `Υπόλοιπο έναρξης` and `Υπόλοιπο λήξης`."""
    summary = _load(tmp_path, NBG, drop_totals=True, decimal=",", thousands=".")
    assert summary.rows_loaded == 3
    assert _one(tmp_path, "SELECT count(*), min(α_α) FROM t") == (3, 1)
