"""Exports in a legacy encoding told by the shape of their words (held-out round twelve): Hebrew in
Windows-1255 (a bank's statement was named Windows-1251, ``ъашйк`` for ``תאריך``), Greek and Arabic by the
same kind of check, and Western text an old Mac saved in Mac Roman (a French statement was named
Windows-1256, ``pointژe`` for ``Pointée``). Each file is written here with Python's codecs and loaded
through the real loader into a DuckDB file in a temp dir; a refusal names the encoding first, and the load
with it stores every letter."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from analytics_agent.db.load.read.encodings import better_encodings
from analytics_agent.errors import LoadError
from tests.db.loaded import load_text, stored_rows

DISCOUNT = (
    'תאריך,תיאור,מספר אסמכתא,"זכות/חובה בש""ח",יתרה,הערות\r\n'
    "15/03/24,העברה לחשבון חיסכון,0004512,-250.00,12450.75,\r\n"
    "16/03/24,משיכת מזומן בסניף,0000871,-800.00,11650.75,דחוף\r\n"
    "18/03/24,הפקדת שיק ממעסיק,0009932,7300.40,18951.15,\r\n"
    "20/03/24,עמלת ניהול חשבון,0000001,-15.90,18935.25,\r\n"
    "21/03/24,תשלום ארנונה עירייה,0045120,-612.00,18323.25,רבעון ראשון\r\n"
)
"""A Hebrew bank statement (Discount, Israel) as its site saves it: final letters (``ך ם ן ף ץ``) last in
their words, a header with a doubled quote (``בש""ח``)."""

SPARKASSE_MAC = (
    "Kontoumsätze Girokonto 1234567\r"
    "\r"
    "Buchungstag;Verwendungszweck;Empfänger;Betrag;Währung\r"
    "01.03.2024;Überweisung Miete März;Müller & Söhne GmbH;-950,00;EUR\r"
    "04.03.2024;Lastschrift Gebühr Kontoführung;Sparkasse Köln;-4,95;EUR\r"
    "05.03.2024;Gutschrift Gehalt;Bäckerei Weiß;2.310,40;EUR\r"
    "07.03.2024;Kartenzahlung Café Größenwahn;Café Größenwahn;-12,80;EUR\r"
)
"""A German statement an old Mac's Excel saved: Mac Roman, old Mac line ends (CR only), a title line."""

CREDIT_MUTUEL_MAC = (
    "Relevé de compte n° 00012345601\r"
    "Période : mars 2024\r"
    "\r"
    "Date opération;Libellé;Débit;Crédit;Catégorie\r"
    "01/03/2024;PRÉLÈVEMENT ÉLECTRICITÉ;82,15;;Énergie\r"
    "02/03/2024;Virement reçu de M. François Lefèvre;;1 250,00;Revenus\r"
    "05/03/2024;Carte Boulangerie Pâtisserie du Château;6,40;;Alimentation\r"
    "09/03/2024;Frais de tenue de compte à échéance;3,00;;Banque\r"
    "14/03/2024;Chèque n° 7781 déposé;;310,00;Revenus\r"
)
"""A French statement from an old Mac, with capitals past ASCII (``É``, ``È``) and ``à`` alone."""


def _cells(text: str, delimiter: str, skip: int = 0) -> list[list[str]]:
    lines = io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n"), newline="")
    rows = list(csv.reader(lines, delimiter=delimiter))[skip:]
    return [row for row in rows if row]


def test_hebrew_in_windows_1255_is_named_hebrew_and_loads_every_letter(tmp_path: Path) -> None:
    # before: charset-normalizer read the statement as Bulgarian and the word check as Cyrillic words, so
    # the refusal named --encoding cp1251, which stored 'ъашйк' for 'תאריך' in every cell
    data = DISCOUNT.encode("cp1255")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "discount.csv", data)
    assert str(refused.value) == (
        "discount.csv is not UTF-8, and its text reads as another encoding than latin-1; add --encoding "
        "cp1255 if it is Hebrew"
    )
    summary = load_text(tmp_path, "discount.csv", data, encoding="cp1255", date_format="%d/%m/%y")
    header, *records = _cells(DISCOUNT, ",")
    assert [c.original for c in summary.columns] == header
    rows = stored_rows(tmp_path, "SELECT * FROM t ORDER BY rowid")
    for row, record in zip(rows, records, strict=True):
        assert [row[1], row[2], row[5]] == [record[1], record[2], record[5] or None]


def test_old_mac_german_in_mac_roman_is_named_and_loads_every_letter(tmp_path: Path) -> None:
    # before: 'Umsätze' read as Windows-1252 'Ums‰tze' and 'für' as 'fŸr': every byte decodes, and the file
    # was loaded as Windows-1252 with a note saying so, every umlaut changed
    data = SPARKASSE_MAC.encode("mac_roman")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "umsaetze.csv", data, skip=2)
    assert str(refused.value).startswith(
        "umsaetze.csv is not UTF-8, and its text reads as another encoding than Windows-1252; add "
        "--encoding mac_roman if it is Western text saved on an old Mac (Mac Roman)"
    )
    summary = load_text(
        tmp_path, "umsaetze.csv", data, skip=2, encoding="mac_roman", decimal=",", thousands="."
    )
    header, *records = _cells(SPARKASSE_MAC, ";", skip=2)
    assert [c.original for c in summary.columns] == header
    rows = stored_rows(tmp_path, "SELECT verwendungszweck, empfanger, betrag FROM t ORDER BY rowid")
    assert rows == [(r[1], r[2], float(r[3].replace(".", "").replace(",", "."))) for r in records]


def test_old_mac_french_in_mac_roman_is_named_not_arabic(tmp_path: Path) -> None:
    # before: 'è' (0x8F) is no Windows-1252 byte, and charset-normalizer read the rest as Arabic: the refusal
    # named --encoding cp1256, which stored 'Libellژ' for 'Libellé'
    data = CREDIT_MUTUEL_MAC.encode("mac_roman")
    with pytest.raises(
        LoadError, match=r"; add --encoding mac_roman if it is Western text saved on an old Mac"
    ):
        load_text(tmp_path, "releve.csv", data, skip=3)
    assert "cp1256" not in " ".join(better_encodings(data))
    summary = load_text(
        tmp_path, "releve.csv", data, skip=3, encoding="mac_roman", decimal=",", thousands=" "
    )
    header, *records = _cells(CREDIT_MUTUEL_MAC, ";", skip=3)
    assert [c.original for c in summary.columns] == header
    rows = stored_rows(tmp_path, "SELECT libelle, categorie FROM t ORDER BY rowid")
    assert rows == [(r[1], r[4]) for r in records]


GREEK = (
    "ΗΜΕΡΟΜΗΝΙΑ;ΑΙΤΙΟΛΟΓΙΑ;ΠΟΣΟ\r\n13/03/2024;ΠΛΗΡΩΜΗ ΔΕΗ;-52,37\r\n02/03/2024;ΜΙΣΘΟΔΟΣΙΑ ΜΑΡΤΙΟΥ;1.200,00\r\n"
    "03/03/2024;Αγορά αναλωσίμων γραφείου;-15,80\r\n04/03/2024;Ευρωπαϊκή Τράπεζα Επενδύσεων;300,00\r\n"
)
ARABIC = (
    "التاريخ,الوصف,المبلغ,الفرع\r\n2024/03/01,دفع فاتورة الكهرباء,-250.00,الرياض\r\n"
    "2024/03/02,تحويل راتب شهر مارس,8500.00,جدة\r\n2024/03/03,رسوم خدمة البطاقة,-15.00,الدمام\r\n"
)


@pytest.mark.parametrize(
    ("text", "codec", "language"), [(GREEK, "cp1253", "Greek"), (ARABIC, "cp1256", "Arabic")]
)
def test_greek_and_arabic_are_named_by_the_shape_of_their_words(
    tmp_path: Path, text: str, codec: str, language: str
) -> None:
    # Greek capitals read as Cyrillic capitals and Arabic letters as Cyrillic ones too: the shape of the
    # words (a vowel in each, no Latin letter among Arabic ones) names each, never cp1251
    data = text.encode(codec)
    assert better_encodings(data) == [f"--encoding {codec} if it is {language}"]
    with pytest.raises(LoadError, match=f"add --encoding {codec} if it is {language}$"):
        load_text(tmp_path, "export.csv", data)
    delimiter = ";" if codec == "cp1253" else ","
    load_text(tmp_path, "export.csv", data, encoding=codec)
    _, *records = _cells(text, delimiter)
    column = stored_rows(tmp_path, "SELECT column_name FROM (DESCRIBE t)")[1][0]
    assert stored_rows(tmp_path, f'SELECT "{column}" FROM t ORDER BY rowid') == [(r[1],) for r in records]


def test_the_arabic_test_file_is_still_named_arabic() -> None:
    data = (
        Path(__file__).parent.parent / "data/exports_held_five/files/sa_sales_invoices_cp1256.csv"
    ).read_bytes()
    assert better_encodings(data) == ["--encoding cp1256 if it is Arabic"]


@pytest.mark.parametrize(
    ("text", "codec", "named"),
    [
        # Russian in capitals reads as Arabic letters alone ('ОПЛАТА' as 'خدثہزہ'): as well-shaped Cyrillic
        # words too, so Arabic is not named
        (
            "ДАТА;ОПИСАНИЕ\n01.02.2024;ОПЛАТА ЗАКАЗА\n02.02.2024;ВОЗВРАТ ТОВАРА\n03.02.2024;ПЕРЕВОД СРЕДСТВ\n",
            "cp1251",
            "cp1251",
        ),
        # Hebrew reads as Greek small letters ('ϊΰψικ'): a dialytika no Greek word begins with
        (DISCOUNT, "cp1255", "cp1255"),
        # Czech in Windows-1250 holds bytes Mac Roman reads as letters (0x9A 'š' as 'ö'), with capitals and
        # symbols inside words ('PÌÌjem')
        (
            "Datum;Popis\n01.02.2024;Šťastný Žďár nad Sázavou\n02.02.2024;Příjem z účtu\n03.02.2024;Poplatek za vedení\n",
            "cp1250",
            "cp1250",
        ),
    ],
)
def test_a_file_of_a_neighbouring_encoding_is_not_misnamed(text: str, codec: str, named: str) -> None:
    assert better_encodings(text.encode(codec))[0].startswith(f"--encoding {named} if it is")


def test_windows_1252_with_curly_quotes_and_accents_stays_windows_1252(tmp_path: Path) -> None:
    # its ’ (0x92) reads as Mac Roman's 'í' ('donít'), its 'é' (0xE9) as 'È' inside words ('RÈf'): not Mac text
    text = (
        "Date;Libellé;Montant\r\n01/02/2024;Prélèvement “EDF” – août;100 €\r\n02/02/2024;Chèque n° 123 don’t;50\r\n"
        "03/02/2024;Réf. opération l’été;3\r\n"
    )
    summary = load_text(tmp_path, "export.csv", text.encode("cp1252"))
    assert any(n.startswith("export.csv is not UTF-8 but Windows-1252") for n in summary.notes), summary.notes
    assert stored_rows(tmp_path, "SELECT libelle FROM t ORDER BY rowid") == [
        ("Prélèvement “EDF” – août",),
        ("Chèque n° 123 don’t",),
        ("Réf. opération l’été",),
    ]


def test_old_mac_french_with_only_e_acute_is_named_not_read_as_windows_1252(tmp_path: Path) -> None:
    # before: every byte decodes in Windows-1252 ('é' 0x8E is 'Ž', 'à' 0x88 is 'ˆ'), and the one letter
    # was too few to say a language: the file loaded as Windows-1252 with 'LibellŽ' in its header
    text = (
        "Date;Libellé;Référence;Catégorie\r01/03/2024;Virement à la caisse;0001;Santé\r"
        "02/03/2024;Carte payée à Paris;0002;Activité\r13/03/2024;Frais réglés;0003;Santé\r"
    )
    with pytest.raises(
        LoadError, match=r"add --encoding mac_roman if it is Western text saved on an old Mac"
    ):
        load_text(tmp_path, "releve.csv", text.encode("mac_roman"))
    summary = load_text(tmp_path, "releve.csv", text.encode("mac_roman"), encoding="mac_roman")
    header, *records = _cells(text, ";")
    assert [c.original for c in summary.columns] == header
    assert stored_rows(tmp_path, "SELECT libelle, categorie FROM t ORDER BY rowid") == [
        (r[1], r[3]) for r in records
    ]


def test_windows_1252_trademarks_and_apostrophes_stay_windows_1252(tmp_path: Path) -> None:
    # Mac Roman reads '™' as 'ô' and '’' as 'í' ('Officeô', 'donít'), words too: Windows-1252 reads them as
    # words as well, so nothing says Mac
    text = "Product,Note\r\nWindows™ 11,don’t\r\nOffice™ 365,it’s fine\r\nXbox™ One,we’re done\r\nSurface™ Pro,Macy’s\r\n"
    summary = load_text(tmp_path, "products.csv", text.encode("cp1252"))
    assert any(n.startswith("products.csv is not UTF-8 but Windows-1252") for n in summary.notes), (
        summary.notes
    )
    assert stored_rows(tmp_path, "SELECT product, note FROM t ORDER BY rowid")[0] == ("Windows™ 11", "don’t")
