"""Exports of regional shops and carriers (held-out round ten): a Baltic carrier's parcels to all three
Baltic countries in Windows-1257, yes/no flags in more languages, Turkish percents written ``%21,5``, and
Polish dates with a genitive month and a time after a comma (``9 stycznia 2024, 11:46``). Each file is
written here as such a system writes it and loaded through the real loader into a DuckDB file in a temp
dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics_agent.db.load.read.encodings import better_encodings
from analytics_agent.errors import LoadError
from tests.db.loaded import load_text, stored_rows, stored_types

OMNIVA = (
    "Saadetise number;Saaja nimi;Pakiautomaat;Kaal (kg);Kätte toimetatud\r\n"
    "CE568351434EE;Līga Bērziņa;Rīga Origo pakomāts;11,79;Jah\r\n"
    "CE044114365EE;Mari Tamm;Tartu Lõunakeskuse pakiautomaat;6,24;Jah\r\n"
    "CE287211043EE;Jānis Ozoliņš;Rīga Origo pakomāts;6,28;Ei\r\n"
    "CE311245610EE;Rūta Kazlauskienė;Vilniaus Akropolis paštomatas;2,10;Jah\r\n"
    "CE311245611EE;Tõnu Pärn;Pärnu Kaubamajakas pakiautomaat;1,05;Ei\r\n"
    "CE311245612EE;Ieva Žukauskaitė;Kauno Megos paštomatas;3,40;Jah\r\n"
)


def test_names_of_all_three_baltic_countries_in_windows_1257_are_named_baltic(tmp_path: Path) -> None:
    # before: Estonian, Latvian and Lithuanian letters together fit no one language's alphabet, so the
    # Baltic check did not fire and the file loaded as Windows-1252: 'Lîga Bçrziòa' for 'Līga Bērziņa'
    data = OMNIVA.encode("cp1257")
    with pytest.raises(LoadError, match=r"--encoding cp1257 if it is Baltic"):
        load_text(tmp_path, "omniva.csv", data)
    summary = load_text(tmp_path, "omniva.csv", data, encoding="cp1257", decimal=",")
    assert stored_rows(tmp_path, "SELECT saaja_nimi FROM t ORDER BY rowid LIMIT 1") == [("Līga Bērziņa",)]
    assert stored_types(summary)["katte_toimetatud"] == "BOOLEAN"


def test_estonian_without_letters_windows_1252_reads_otherwise_stays_windows_1252(tmp_path: Path) -> None:
    # Estonian's ä, ö, õ and ü are the same bytes in Windows-1252 and Windows-1257: both read it alike,
    # so the load reads it (and says so) rather than refuse it for a choice that changes nothing
    text = "Kuupäev;Selgitus;Müüja;Linn\n21.02.2024;Lõunasöök;Tõnu Pärn;Võru\n22.02.2024;Õhtusöök;Mari Mägi;Jõgeva\n"
    assert better_encodings(text.encode("cp1252") * 3) == []
    summary = load_text(tmp_path, "kassa.csv", text.encode("cp1252"))
    assert any("is not UTF-8 but Windows-1252" in n for n in summary.notes)
    assert stored_rows(tmp_path, "SELECT selgitus FROM t ORDER BY rowid") == [("Lõunasöök",), ("Õhtusöök",)]


def test_icelandic_german_and_french_mixed_in_windows_1252_are_not_taken_for_baltic() -> None:
    # Western letters of several languages at once read as Baltic letters in Windows-1257 (è as č, à as
    # ą): the é, ß and á beside them keep the Baltic reading below the western one
    mixed = "Straße;Gebühr;Fjárhæð;Viðskiptavinur;Désignation;Frère;Crédit;Mánuður;Größe\n".encode("cp1252")
    assert better_encodings(mixed * 3) == []


@pytest.mark.parametrize(
    ("yes", "no"),
    [("Jah", "Ei"), ("Jā", "Nē"), ("Taip", "Ne"), ("Da", "Nu"), ("Da", "Ne"), ("Да", "Не"), ("Já", "Nei")],
)
def test_yes_no_words_of_more_languages_are_booleans(tmp_path: Path, yes: str, no: str) -> None:
    # before: Estonian, Latvian, Lithuanian, Croatian, Bulgarian and Icelandic flags stayed text
    summary = load_text(tmp_path, "flags.csv", f"id,flag\n1,{yes}\n2,{no}\n3,{yes}\n")
    assert stored_types(summary)["flag"] == "BOOLEAN"
    assert stored_rows(tmp_path, "SELECT flag FROM t ORDER BY id") == [(True,), (False,), (True,)]
    assert f"flag: {yes!r} and {no!r} stored as BOOLEAN ({yes!r} true); add --type flag=VARCHAR" in "".join(
        summary.notes
    )


def test_percents_written_with_the_sign_first_read_as_percents(tmp_path: Path) -> None:
    # before: Trendyol's commission rates '%21,5' and '%17' (Turkish writes the sign first) stayed text
    text = (
        "Sipariş No;Komisyon Oranı;İndirim Oranı\r\n"
        "10001;%21,5;%0\r\n10002;%17;-%2,5\r\n10003;%21,5;%-3\r\n10004;%8,25;% 10\r\n"
    )
    summary = load_text(tmp_path, "trendyol.csv", text.encode("cp1254"), encoding="cp1254")
    types = stored_types(summary)
    assert types["komisyon_oranı"] == "DOUBLE" and types["indirim_oranı"] == "DOUBLE"
    assert stored_rows(tmp_path, "SELECT komisyon_oranı, indirim_oranı FROM t ORDER BY siparis_no") == [
        (21.5, 0.0),
        (17.0, -2.5),
        (21.5, -3.0),
        (8.25, 10.0),
    ]
    (note,) = [n for n in summary.notes if n.startswith("amounts stored as numbers")]
    assert "komisyon_oranı '%21,5' -> 21.5 (%, not 0.215)" in note
    assert note.endswith("add --type komisyon_oranı=VARCHAR (for each such column) to keep them as text")


def test_a_percent_sign_first_in_some_values_and_after_in_others_still_reads(tmp_path: Path) -> None:
    # both ways in one column, every value a percent: one unit, read alike; a lone '%' word stays text
    summary = load_text(tmp_path, "p.csv", "id,rate,code\n1,%5.5,%ab\n2,7.25%,%cd\n3,%12,%ef\n")
    assert stored_types(summary)["rate"] == "DOUBLE" and stored_types(summary)["code"] == "VARCHAR"
    assert stored_rows(tmp_path, "SELECT rate FROM t ORDER BY id") == [(5.5,), (7.25,), (12.0,)]


def test_polish_genitive_months_with_a_time_after_a_comma_are_timestamps(tmp_path: Path) -> None:
    # before: Allegro's '9 stycznia 2024, 11:46' stayed text: no Polish month names, no comma before a time
    text = (
        "Numer;Data zakupu;Kwota\n"
        "A1;9 stycznia 2024, 11:46;121,99 zł\nA2;19 lutego 2024, 06:02;7,99 zł\n"
        "A3;3 marca 2024, 20:34;1 419,99 zł\nA4;30 października 2024, 06:52;5,00 zł\n"
    )
    summary = load_text(tmp_path, "allegro.csv", text)
    assert stored_types(summary)["data_zakupu"] == "TIMESTAMP"
    assert [str(v) for (v,) in stored_rows(tmp_path, "SELECT data_zakupu FROM t ORDER BY numer")] == [
        "2024-01-09 11:46:00",
        "2024-02-19 06:02:00",
        "2024-03-03 20:34:00",
        "2024-10-30 06:52:00",
    ]
    assert (
        "data_zakupu: text dates like '9 stycznia 2024, 11:46' stored as TIMESTAMP (format %d %b %Y, %H:%M; "
        "month names read in English, '9 stycznia 2024, 11:46' as '9 Jan 2024, 11:46'); add --type "
        "data_zakupu=VARCHAR to keep them as text"
    ) in summary.notes


@pytest.mark.parametrize(
    ("written", "day"),
    [
        (["9. ledna 2024", "28. února 2024", "1. prosince 2024"], ["2024-01-09", "2024-02-28", "2024-12-01"]),
        (
            ["9 января 2024 г.", "28 февраля 2024 г.", "1 ДЕКАБРЯ 2024 г."],
            ["2024-01-09", "2024-02-28", "2024-12-01"],
        ),
        (
            ["9 січня 2024 р.", "28 лютого 2024 р.", "1 грудня 2024 р."],
            ["2024-01-09", "2024-02-28", "2024-12-01"],
        ),
        (
            ["9 Ιανουαρίου 2024", "28 ΦΕΒΡΟΥΑΡΙΟΥ 2024", "1 Μαΐου 2024"],
            ["2024-01-09", "2024-02-28", "2024-05-01"],
        ),
        (
            ["9. tammikuuta 2024", "28. helmikuuta 2024", "1. joulukuuta 2024"],
            ["2024-01-09", "2024-02-28", "2024-12-01"],
        ),
    ],
)
def test_genitive_month_names_of_more_languages_are_dates(
    tmp_path: Path, written: list[str], day: list[str]
) -> None:
    # before: Czech, Russian, Ukrainian, Greek and Finnish month names (in the case a date writes them) stayed text
    text = "id;datum\n" + "".join(f"{i};{w}\n" for i, w in enumerate(written))
    summary = load_text(tmp_path, "d.csv", text)
    assert stored_types(summary)["datum"] == "DATE", summary.notes
    assert [str(v) for (v,) in stored_rows(tmp_path, "SELECT datum FROM t ORDER BY id")] == day
    assert any(
        n.startswith("datum: text dates like") and "month names read in English" in n for n in summary.notes
    )


def test_a_numeric_date_with_a_time_after_a_comma_is_a_timestamp(tmp_path: Path) -> None:
    # a browser's toLocaleString ('1/12/2026, 6:32:00 AM') and a Polish panel's '09.01.2024, 11:46'
    text = 'id,seen,kiedy\n1,"1/12/2026, 6:32:00 AM","09.01.2024, 11:46"\n2,"1/13/2026, 11:05:00 PM","19.01.2024, 06:02"\n'
    summary = load_text(tmp_path, "c.csv", text)
    assert stored_types(summary)["seen"] == "TIMESTAMP" and stored_types(summary)["kiedy"] == "TIMESTAMP"
    assert [tuple(map(str, r)) for r in stored_rows(tmp_path, "SELECT seen, kiedy FROM t ORDER BY id")] == [
        ("2026-01-12 06:32:00", "2024-01-09 11:46:00"),
        ("2026-01-13 23:05:00", "2024-01-19 06:02:00"),
    ]
