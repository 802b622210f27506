"""Ledger programs' exports (round eight of the held-out files: a Logo Tiger customer statement): Turkish
text in Windows-1254, balances marked by a ledger's letters (``(B)``/``(A)``, ``S``/``H``), monthly
``Toplamı`` subtotals with a ``Genel Toplam`` row that ends in the closing balance, and a ``Devreden
Bakiye`` row above the records. Each file is written here as such a program writes it and loaded through
the real loader into a DuckDB file in a temp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics_agent.db.load.read.encodings import better_encodings
from analytics_agent.errors import LoadError
from tests.db.loaded import load_text
from tests.db.loaded import stored_rows as _rows


def _load(tmp_path: Path, text: bytes, **options: object):
    return load_text(tmp_path, "ekstre.csv", text, **options)


LOGO = (
    "Tarih;Fiş No;Fiş Türü;Açıklama;Borç;Alacak;Bakiye\r\n"
    ";;;Devreden Bakiye;;;1.000,00 (B)\r\n"
    "14.01.2024;00000421;Satış Faturası;Zeytinyağı 5 lt;2.500,00;;3.500,00 (B)\r\n"
    "16.01.2024;00000422;Banka Gelen Havale;Garanti BBVA - ödeme;;4.000,00;500,00 (A)\r\n"
    "18.01.2024;00000424;Satış Faturası;İçecek ürünleri;1.250,50;;750,50 (B)\r\n"
    ";;;Ocak Toplamı;3.750,50;4.000,00;750,50 (B)\r\n"
    "13.02.2024;00000431;Satış Faturası;Kuru gıda sevkiyatı;2.000,00;;2.750,50 (B)\r\n"
    "19.02.2024;00000433;Çek Girişi;Çek No: 5269622 İş Bankası Şişli;;1.200,25;1.550,25 (B)\r\n"
    ";;;Şubat Toplamı;2.000,00;1.200,25;1.550,25 (B)\r\n"
    ";;;Genel Toplam;5.750,50;5.200,25;1.550,25 (B)\r\n"
).encode("cp1254")


TITLE = (
    "CARİ HESAP EKSTRESİ\r\nFirma:;KARADENİZ TEKSTİL SAN. VE TİC. A.Ş.\r\nCari Hesap Kodu:;120.01.0107\r\n"
    "Cari Hesap Ünvanı:;Güneş Giyim Ltd. Şti.\r\nTarih Aralığı:;01.01.2024 - 29.02.2024\r\n"
    "Para Birimi:;TL\r\n\r\n"
).encode("cp1254")


def test_turkish_in_windows_1254_is_named_not_read_as_windows_1252(tmp_path: Path) -> None:
    # before: every byte reads in Windows-1252 too ('Açýklama'), and charset-normalizer called the file
    # French, so it loaded with a note saying Windows-1252
    with pytest.raises(LoadError, match=r"--encoding cp1254 if it is Turkish"):
        _load(tmp_path, TITLE + LOGO, skip=7)
    summary = _load(
        tmp_path, TITLE + LOGO, skip=7, encoding="cp1254", decimal=",", thousands=".", negative="CR"
    )
    assert [c.original for c in summary.columns][:4] == ["Tarih", "Fiş No", "Fiş Türü", "Açıklama"]


def test_icelandic_in_windows_1252_is_not_taken_for_turkish() -> None:
    # Icelandic writes ð, ý and þ, the bytes where Turkish has ğ, ı and ş
    icelandic = "Dagsetning;Skýring;Fjárhæð;Þjónusta;Viðskiptavinur;Greiðsla;Færslur;Mánuður;Íslandsbanki\n"
    assert better_encodings(icelandic.encode("cp1252") * 3) == []


def test_a_ledgers_balance_letters_name_both_signs_the_ledgers_first(tmp_path: Path) -> None:
    summary = _load(tmp_path, LOGO, encoding="cp1254", decimal=",", thousands=".")
    assert {c.name: c.type for c in summary.columns}["bakiye"] == "VARCHAR"
    (note,) = [n for n in summary.notes if "as credits or debits" in n]
    assert note.startswith("bakiye stayed text: its amounts are marked A or B as credits or debits")
    # a ledger program's letters: the ledger's reading first (a bank's CR/DR keep the bank's first)
    assert note.index("--negative CR if credits (A) do") < note.index("--negative DR if debits (B)")


@pytest.mark.parametrize(("negative", "sign"), [("CR", 1), ("DR", -1)])
def test_negative_reads_the_ledgers_letters(tmp_path: Path, negative: str, sign: int) -> None:
    summary = _load(tmp_path, LOGO, encoding="cp1254", decimal=",", thousands=".", negative=negative)
    balances = [b for (b,) in _rows(tmp_path, "SELECT bakiye FROM t ORDER BY rowid")]
    assert balances[:4] == [sign * 1000.0, sign * 3500.0, -sign * 500.0, sign * 750.5]
    (note,) = [n for n in summary.notes if "stored as negative numbers" in n]
    minus, plus = ("A", "B") if negative == "CR" else ("B", "A")
    assert note.startswith(f"amounts marked {minus} stored as negative numbers, those marked {plus}")
    # the debit and credit columns, written with a decimal comma, still read by the options given: before,
    # the balance read with a comma hid the --decimal advice and they stayed text without a word
    assert {c.name: c.type for c in summary.columns}["borc"] == "DOUBLE"


def test_german_soll_and_haben_letters_read_as_debit_and_credit(tmp_path: Path) -> None:
    text = b"Konto;Saldo\n1200;1.234,56 S\n1400;98,00 H\n1600;500,00 S\n"
    kept = _load(tmp_path, text, decimal=",", thousands=".")
    assert any(n.startswith("saldo stayed text: its amounts are marked H or S") for n in kept.notes)
    _load(tmp_path, text, decimal=",", thousands=".", negative="CR")
    assert _rows(tmp_path, "SELECT saldo FROM t ORDER BY konto") == [(1234.56,), (-98.0,), (500.0,)]


def test_letters_of_two_ledgers_mixed_or_a_plain_word_stay_text(tmp_path: Path) -> None:
    mixed = b"Konto;Saldo\n1200;1.234,56 S\n1400;98,00 A\n1600;500,00 S\n"
    summary = _load(tmp_path, mixed, decimal=",", thousands=".", negative="CR")
    assert {c.name: c.type for c in summary.columns}["saldo"] == "VARCHAR"
    sizes = b"Item,Size\nshirt,12 S\ncoat,14 M\nhat,10 L\n"  # sizes, not debits
    summary = _load(tmp_path, sizes, negative="CR")
    assert {c.name: c.type for c in summary.columns}["size"] == "VARCHAR"
    assert not [n for n in summary.notes if "credits or debits" in n]


def test_monthly_subtotals_and_a_grand_total_ending_in_the_balance_are_found(tmp_path: Path) -> None:
    # before: 'Ocak Toplamı' was no subtotal label, and a totals row whose balance is the closing balance
    # (no sum of the balances above) was no totals row: all five rows loaded as records, debits tripled
    options = {"encoding": "cp1254", "decimal": ",", "thousands": ".", "negative": "CR"}
    kept = _load(tmp_path, LOGO, **options)
    (note,) = [n for n in kept.notes if "Genel Toplam" in n]
    assert "the sums of the rows above in borc, alacak, with 2 subtotal rows such as 'Ocak Toplamı'" in note
    assert "--drop-totals" in note
    dropped = _load(tmp_path, LOGO, drop_totals=True, **options)
    assert _rows(tmp_path, "SELECT count(*), sum(borc), sum(alacak) FROM t") == [(5, 5750.5, 5200.25)]
    # the balance brought forward above the records goes too: a balance, not a movement
    assert _rows(tmp_path, "SELECT min(rowid) FROM t WHERE acıklama = 'Devreden Bakiye'") == [(None,)]
    assert any("opening balance row (acıklama = 'Devreden Bakiye')" in n for n in dropped.notes)


def test_a_totals_row_whose_other_number_is_no_balance_is_still_data(tmp_path: Path) -> None:
    # a 'Total' brand: its own price is neither a sum, nor the last row's value carried down
    text = b"Brand,Units,Price\nAcme,10,2.50\nZeta,20,3.00\nTotal,30,9.99\n"
    summary = _load(tmp_path, text)
    assert not [n for n in summary.notes if "--drop-totals" in n]


def test_lithuanian_in_windows_1257_is_named(tmp_path: Path) -> None:
    # SEB Lithuania's statement (held-out round nine) was read as Windows-1252: 'MOKËTOJO', 'SÀSKAITA'
    text = (
        "DATA;MOKĖTOJO ARBA GAVĖJO PAVADINIMAS;SĄSKAITA;MOKĖJIMO PASKIRTIS;SUMA\n"
        "2024-03-04;UAB „Žalgiris“;LT127044060007943210;Sąskaita už paslaugas;1250,00\n"
        "2024-03-05;Jonas Petraitis;LT817300010123456789;Grąžinimas už prekes;-45,90\n"
        "2024-03-06;UAB Šiaulių energija;LT427044060001234567;Elektros energija, kovas;-88,12\n"
    )
    with pytest.raises(LoadError, match=r"--encoding cp1257 if it is Baltic"):
        load_text(tmp_path, "seb.csv", text.encode("cp1257"))
    summary = load_text(tmp_path, "seb.csv", text.encode("cp1257"), encoding="cp1257", decimal=",")
    assert [c.original for c in summary.columns][1] == "MOKĖTOJO ARBA GAVĖJO PAVADINIMAS"


def test_german_and_french_in_windows_1252_are_not_taken_for_baltic() -> None:
    german = "Straße;Größe;Gebühr;Überweisung;Präsident;Bürgschaft;Lösung;Fußweg;Käufer\n".encode("cp1252")
    french = "Désignation;Montant réglé;Échéance;Crédit;Dépôt;Frère;Créance;Réf. opération\n".encode("cp1252")
    assert better_encodings(german * 3) == [] and better_encodings(french * 3) == []


def test_debit_and_credit_totals_under_a_statement_are_totals(tmp_path: Path) -> None:
    """Alpha Bank's statement (held-out round nine) ends in 'Σύνολο Χρεώσεων' and 'Σύνολο Πιστώσεων', each
    the sum of the amounts marked Χ or Π above, the mark in its own column: neither is a sum of all the
    rows, so both loaded as records and the sum of the amounts doubled."""
    text = (
        "Α/Α;Αιτιολογία;Ποσό;Χ/Π\n1;ΠΛΗΡΩΜΗ ΔΕΗ;252,37;Χ\n2;ΜΙΣΘΟΔΟΣΙΑ;1.200,00;Π\n3;ΣΟΥΠΕΡ ΜΑΡΚΕΤ;55,68;Χ\n"
        "4;ΕΠΙΣΤΡΟΦΗ;30,00;Π\n\nΣύνολο Χρεώσεων;;308,05;Χ\nΣύνολο Πιστώσεων;;1.230,00;Π\n"
    )
    kept = load_text(tmp_path, "alpha.csv", text.encode("utf-8"), decimal=",", thousands=".")
    (note,) = [n for n in kept.notes if "--drop-totals" in n]
    assert "'Σύνολο Χρεώσεων', 'Σύνολο Πιστώσεων'" in note
    load_text(tmp_path, "alpha.csv", text.encode("utf-8"), decimal=",", thousands=".", drop_totals=True)
    assert _rows(tmp_path, "SELECT count(*), sum(ποσό) FROM t") == [(4, 1538.05)]


def test_rows_labelled_as_totals_whose_numbers_are_their_own_are_records(tmp_path: Path) -> None:
    # two brands at the end whose names hold a totals word: their amounts are no sums of any part above
    text = "Item;Amount;Side\nA;252,37;D\nB;1.200,00;C\nC;55,68;D\nTotal Gym;99,00;D\nTotal Wine;12,00;C\n"
    summary = load_text(tmp_path, "brands.csv", text.encode("utf-8"), decimal=",", thousands=".")
    assert summary.rows_loaded == 5 and not [n for n in summary.notes if "--drop-totals" in n]


def test_debit_and_credit_totals_of_one_signed_column_are_totals(tmp_path: Path) -> None:
    """Emirates NBD's statement (held-out round ten) ends in 'Total Debits' and 'Total Credits' under a
    signed amount column ('754.64 Dr'), then a closing balance line: each total is the sum of the amounts
    of its sign, so neither was found and both loaded as records, doubling the sum of the amounts."""
    text = (
        'Date,Narration,Amount,Balance\n02-Jan-2024,POS TALABAT,754.64 Dr,"17,698.26 Cr"\n'
        '05-Jan-2024,REMITTANCE,"2,551.48 Cr","20,249.74 Cr"\n05-Jan-2024,DEWA,"1,180.93 Dr","19,068.81 Cr"\n'
        '06-Jan-2024,REFUND,100.00 Cr,"19,168.81 Cr"\n\n,Total Debits,"1,935.57 Dr",\n'
        ',Total Credits,"2,651.48 Cr",\n,Closing Balance,,"19,168.81 Cr"\n'
    )
    kept = load_text(tmp_path, "enbd.csv", text, negative="DR")
    (note,) = [n for n in kept.notes if "--drop-totals" in n]
    assert "(narration = 'Total Debits', 'Total Credits') are totals" in note, note
    load_text(tmp_path, "enbd.csv", text, negative="DR", drop_totals=True)
    assert _rows(tmp_path, "SELECT count(*), round(sum(amount), 2) FROM t") == [(4, 715.91)]


def test_totals_of_one_sign_must_each_sum_their_side(tmp_path: Path) -> None:
    # the credits' row is off by one: neither row is called a total
    text = (
        "Date,Narration,Amount\n02-Jan-2024,A,-754.64\n05-Jan-2024,B,2551.48\n05-Jan-2024,C,-1180.93\n"
        "06-Jan-2024,D,100.00\n,Total Debits,-1935.57\n,Total Credits,2652.48\n"
    )
    summary = load_text(tmp_path, "enbd.csv", text, drop_totals=True)
    assert summary.rows_loaded == 6
