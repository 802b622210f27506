"""Central European text in ISO-8859-2 (Unix, older web shops' and carriers' exports) or in Windows-1250:
the two read alike but for bytes 0x80-0xbf, where ISO-8859-2's ``ą ś ź Ą Ś Ź š ť ž Š Ť Ž ľ Ľ`` are other
characters in Windows-1250 (``±``, ``¶``, ``Ľ``, ``©``...). An InPost shipment list in ISO-8859-2 (held-out
round thirteen) was named ``--encoding cp1250``, which stored ``Łódź`` as ``ŁódĽ`` without a word. The
encoding named is the one whose reading makes words of one language; when both read the file's words
alike (Hungarian ``ő ű`` sit where both have them), Windows-1250 is named as before. Each file is written
here with Python's codecs and loaded through the real loader into a DuckDB file in a temp dir."""

from __future__ import annotations

from pathlib import Path

import pytest

from analytics_agent.errors import LoadError
from tests.db.loaded import load_text, stored_rows

INPOST = (
    "Numer przesyłki|Miasto|Ulica|Ubezpieczenie|\r\n"
    "653653294485386446421601|Łódź|Piotrkowska 5|Nie|\r\n"
    "684081410310914823583620|Gdańsk|Długa 3|Tak|\r\n"
    "656893573698144674783091|Świętochłowice|Źródlana 2|Nie|\r\n"
    "600548177637921189480833|Środa Śląska|Wąska 7|Tak|\r\n"
    "681604209246838829042435|Kraków|Floriańska 1|Nie|\r\n"
)
CZECH = (
    "Město;Popis\r\n"
    "Plzeň;Šumperk\r\n"
    "Žďár nad Sázavou;šťastný zákazník\r\n"
    "Kroměříž;účet za plyn\r\n"
    "Třeboň;Přerov\r\n"
    "Ústí nad Labem;Košťany\r\n"
)
SLOVAK = (
    "Mesto;Popis\r\n"
    "Košice;platba kartou\r\n"
    "Žilina;podľa zmluvy\r\n"
    "Šaľa;Ľubica Šťastná\r\n"
    "Trenčín;Ľudovít Štúr\r\n"
    "Banská Bystrica;daňový úrad\r\n"
)
CROATIAN = (
    "Grad;Opis\r\n"
    "Šibenik;plaćanje računa\r\n"
    "Čakovec;račun za struju\r\n"
    "Đakovo;uplata štednje\r\n"
    "Žalec;Murska Sobota\r\n"
    "Varaždin;čišćenje\r\n"
)


def _first_column_pairs(text: str) -> list[tuple[str, str]]:
    rows = [line.split(";" if ";" in line else "|") for line in text.splitlines()[1:]]
    return [(r[0], r[1]) for r in rows]


@pytest.mark.parametrize("text", [CZECH, SLOVAK, CROATIAN], ids=["czech", "slovak", "croatian"])
def test_iso_8859_2_is_named_and_the_option_stores_every_letter(tmp_path: Path, text: str) -> None:
    data = text.encode("iso8859-2")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "f.csv", data)
    assert str(refused.value).endswith("add --encoding iso8859-2 if it is Central European (ISO-8859-2)")
    summary = load_text(tmp_path, "f.csv", data, encoding="iso8859-2")
    assert summary.notes == []
    first, second = (c.name for c in summary.columns)
    assert stored_rows(tmp_path, f"SELECT {first}, {second} FROM t ORDER BY rowid") == _first_column_pairs(
        text
    )


def test_a_polish_carriers_list_keeps_lodz(tmp_path: Path) -> None:
    # before: '--encoding cp1250' was named, and 'Łódź' was stored as 'ŁódĽ', 'Świętochłowice' as '¦więtochłowice'
    data = INPOST.encode("iso8859-2")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "inpost.csv", data)
    assert str(refused.value) == (
        "inpost.csv is not UTF-8, and its text reads as another encoding than latin-1; "
        "add --encoding iso8859-2 if it is Central European (ISO-8859-2)"
    )
    load_text(tmp_path, "inpost.csv", data, encoding="iso8859-2")
    assert stored_rows(tmp_path, "SELECT miasto, ulica FROM t ORDER BY rowid") == [
        ("Łódź", "Piotrkowska 5"),
        ("Gdańsk", "Długa 3"),
        ("Świętochłowice", "Źródlana 2"),
        ("Środa Śląska", "Wąska 7"),
        ("Kraków", "Floriańska 1"),
    ]


def test_one_word_apart_is_enough_when_only_one_reading_makes_it_a_word(tmp_path: Path) -> None:
    # the held-out list's only word the two read apart: 'Łódź', which Windows-1250 reads 'ŁódĽ'
    text = "Miasto;Kod\r\nŁódź;90-001\r\nGdańsk;80-001\r\nPoznań;60-101\r\nKraków;31-123\r\nŁomża;18-400\r\n"
    with pytest.raises(
        LoadError, match=r"add --encoding iso8859-2 if it is Central European \(ISO-8859-2\)$"
    ):
        load_text(tmp_path, "m.csv", text.encode("iso8859-2"))


WINDOWS_POLISH = (
    "Miasto;Opis\r\nBędzin;Będą dwie\r\nWąchock;Dąbrowa Górnicza\r\nGdańsk;Kraków\r\nŁęczyca;mąka pszenna\r\n"
)
WINDOWS_SLOVAK = (
    "Mesto;Popis\r\nZvolen;podľa zmluvy\r\nĽubica;Ľudovít\r\nTrenčín;úhrada účtu\r\nBánovce;ľudia v meste\r\n"
)
WINDOWS_FULL = (
    "Miasto;Ulica\r\n"
    "Łódź;Świętokrzyska 5\r\n"
    "Środa Śląska;Źródlana 2\r\n"
    "Žďár nad Sázavou;šťastný\r\n"
    "Plzeň;Šumperk\r\n"
)


@pytest.mark.parametrize(
    "text", [WINDOWS_POLISH, WINDOWS_SLOVAK, WINDOWS_FULL], ids=["polish-a", "slovak-l", "with-c1-bytes"]
)
def test_windows_1250_is_still_named_cp1250(tmp_path: Path, text: str) -> None:
    # Polish 'ą' (0xb9) and Slovak 'ľ' (0xbe) are ISO-8859-2's 'š' and 'ž': 'Będš' and 'podža' are no one
    # language's words, or no more than Windows-1250's, which stays named
    data = text.encode("cp1250")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "f.csv", data)
    assert "add --encoding cp1250 if it is Central European" in str(refused.value)
    assert "iso8859-2" not in str(refused.value)
    summary = load_text(tmp_path, "f.csv", data, encoding="cp1250")
    first, second = (c.name for c in summary.columns)
    assert stored_rows(tmp_path, f"SELECT {first}, {second} FROM t ORDER BY rowid") == _first_column_pairs(
        text
    )


def test_hungarian_reads_alike_in_both_and_stays_cp1250(tmp_path: Path) -> None:
    # 'ő' and 'ű' are 0xf5 and 0xfb in both encodings: the Windows-1250 reading stores the same letters
    text = (
        "Város;Közlemény\r\nGyőr;fűtés díja\r\nPécs;számla kiegyenlítése\r\n"
        "Székesfehérvár;átutalás\r\nDebrecen;késedelmi kamat\r\nSzőlőskert;tűzifa\r\n"
    )
    data = text.encode("iso8859-2")
    assert data == text.encode("cp1250")
    with pytest.raises(LoadError, match=r"--encoding cp1250 if it is Central European$"):
        load_text(tmp_path, "f.csv", data)
    load_text(tmp_path, "f.csv", data, encoding="cp1250")
    assert stored_rows(tmp_path, "SELECT varos, kozlemeny FROM t ORDER BY rowid") == _first_column_pairs(text)


def test_western_text_with_guillemets_and_units_names_no_central_european_encoding(tmp_path: Path) -> None:
    # '«', '»', '©', '®' and 'µ' are ISO-8859-2's 'Ť', 'ť', 'Š', 'Ž' and 'ľ': 'ŤCréditť' is no word either
    text = (
        "Titre;Note\r\n«Crédit» agricole;Société Générale®\r\nÉtat civil;10µm\r\n"
        "Noël;Pâques ©2024\r\nCafé crème;Élève\r\n"
    )
    summary = load_text(tmp_path, "f.csv", text.encode("latin-1"))
    assert summary.notes == [
        "f.csv is not UTF-8 but Windows-1252 (what Excel on Windows saves), every byte of it: read as such "
        "(give --encoding to read it otherwise)"
    ]
    assert stored_rows(tmp_path, "SELECT titre, note FROM t ORDER BY rowid") == _first_column_pairs(text)


def test_cp1250_given_for_iso_8859_2_is_read_as_given_and_said(tmp_path: Path) -> None:
    summary = load_text(tmp_path, "inpost.csv", INPOST.encode("iso8859-2"), encoding="cp1250")
    assert stored_rows(tmp_path, "SELECT miasto FROM t ORDER BY rowid LIMIT 1") == [("ŁódĽ",)]
    assert (
        "inpost.csv read as cp1250, as given, though its words read as iso8859-2 ('Łódź', which cp1250 reads "
        "'ŁódĽ'); add --encoding iso8859-2 to read it so"
    ) in summary.notes


def test_iso_8859_2_given_for_windows_1250_is_read_as_given_and_said(tmp_path: Path) -> None:
    # ISO-8859-2 reads Windows-1250's 'Š' (0x8a) as a control character: stored, but not without a word
    summary = load_text(tmp_path, "f.csv", WINDOWS_FULL.encode("cp1250"), encoding="latin2")
    assert stored_rows(tmp_path, "SELECT ulica FROM t ORDER BY rowid")[3] == ("\x8aumperk",)
    assert summary.notes == [
        "f.csv read as iso8859-2, as given, though its words read as cp1250 ('Łódź', which iso8859-2 reads "
        "'Łód\\x9f'); add --encoding cp1250 to read it so"
    ]


@pytest.mark.parametrize(
    ("text", "codec"), [(INPOST, "iso8859-2"), (WINDOWS_FULL, "cp1250"), (WINDOWS_POLISH, "cp1250")]
)
def test_the_encoding_a_file_is_in_given_loads_without_a_word(tmp_path: Path, text: str, codec: str) -> None:
    summary = load_text(tmp_path, "f.csv", text.encode(codec), encoding=codec)
    assert not any("as given" in n for n in summary.notes)
