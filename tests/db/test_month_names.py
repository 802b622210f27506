"""Text dates whose month names are not English (``04-ene-2024``, ``15. März 2024``, ``3 janv. 2024``):
DuckDB's ``strptime`` reads English names only, so such a column stayed text (and its note advised
``--null`` for its dates). Now the load reads them with the names put in English and says so. Real files
through the real loader into a DuckDB file in a temp dir; the dates expected are worked out by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.db.load.settle.month_names import in_english, local_months

CASES = [
    (
        "es.csv",
        "fecha,importe\n04-ene-2024,1\n15-feb-2024,2\n31-dic-2024,3\n08-ago-2024,4\n",
        [dt.date(2024, 1, 4), dt.date(2024, 2, 15), dt.date(2024, 12, 31), dt.date(2024, 8, 8)],
    ),
    (
        "de.csv",
        "Datum;Betrag\n15. März 2024;1\n22. April 2024;2\n1. Mai 2024;3\n3. Dezember 2024;4\n",
        [dt.date(2024, 3, 15), dt.date(2024, 4, 22), dt.date(2024, 5, 1), dt.date(2024, 12, 3)],
    ),
    (
        "ventas.csv",  # Spanish long form (round six's Mercado Libre report), the dates alone
        "fecha,total\n31 de marzo de 2024,1\n1º de abril de 2024,2\n9 de diciembre de 2024,3\n",
        [dt.date(2024, 3, 31), dt.date(2024, 4, 1), dt.date(2024, 12, 9)],
    ),
    (
        "fr.csv",
        "date,montant\n3 janv. 2024,1\n24 févr. 2024,2\n4 oct. 2024,3\n22 août 2024,4\n",
        [dt.date(2024, 1, 3), dt.date(2024, 2, 24), dt.date(2024, 10, 4), dt.date(2024, 8, 22)],
    ),
]


@pytest.mark.parametrize(("name", "text", "dates"), CASES)
def test_month_names_of_other_languages_read_as_dates_and_said(tmp_path: Path, name, text, dates) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t"))
    column = summary.columns[0]
    assert column.type == "DATE", summary.notes
    (note,) = [n for n in summary.notes if n.startswith(f"{column.name}: text dates")]
    assert "month names read in English" in note and f"--type {column.name}=VARCHAR" in note
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert [r[0] for r in conn.execute(f"SELECT {column.name} FROM t").fetchall()] == dates


def test_english_words_alone_are_no_other_language_and_text_stays_text(tmp_path: Path) -> None:
    assert not local_months(["12-Mar-2024", "Jan 5 2024", "4 Oct. 2024"])
    assert local_months(["12-mar-2024", "4-ene-2024"]) and in_english("3 mag 2024") == "3 May 2024"
    path = tmp_path / "notes.csv"  # month words in text that is no date: the column stays as written
    path.write_text("note,n\n3 set up out,1\n12 mag sold,2\n5 dic left,3\n", encoding="utf-8")
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t"))
    assert summary.columns[0].type == "VARCHAR"
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT note FROM t").fetchall()[1] == ("12 mag sold",)


def test_a_long_spanish_date_with_its_hours_unit_is_a_timestamp(tmp_path: Path) -> None:
    """Mercado Libre writes ``31 de marzo de 2024 14:03 hs.``: the ``de`` between the parts and the ``hs.``
    after the time kept the column text without a word. The Python reading (``in_english``, which picks
    the format) and the SQL one (which converts) agree on it."""
    assert in_english("31 de marzo de 2024 14:03 hs.") == "31 Mar 2024 14:03"
    assert (
        in_english("Modelo de 2024") == "Modelo 2024"
        and in_english("15. März 2024 9:05 Uhr") == "15 Mar 2024 9:05"
    )
    path = tmp_path / "ventas.csv"
    rows = [
        "31 de marzo de 2024 14:03 hs.",
        "1º de abril de 2024 9:05 hs.",
        "29 de febrero de 2024 23:30 hs.",
    ]
    path.write_text("id,fecha\n" + "".join(f"{i},{r}\n" for i, r in enumerate(rows)), encoding="utf-8")
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t"))
    assert summary.columns[1].type == "TIMESTAMP", summary.notes
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert [r[0] for r in conn.execute("SELECT fecha FROM t ORDER BY id").fetchall()] == [
            dt.datetime(2024, 3, 31, 14, 3),
            dt.datetime(2024, 4, 1, 9, 5),
            dt.datetime(2024, 2, 29, 23, 30),
        ]
