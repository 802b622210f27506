"""Exports in a double-byte East Asian encoding (held-out round fourteen): a Taiwanese power company's bill
history in Big5, whose only Chinese is its header and a few words in two columns, was refused with
``--encoding latin-1`` (charset-normalizer read its few characters as Shift-JIS), which stores every
Chinese character as two Western letters. Chinese (GB18030, Big5), Korean (EUC-KR) and Japanese
(Shift-JIS) files are named by their own encoding, a name or two in an English file too, and bytes past
the first block as well; Western files keep their names. Each file is written here with Python's codecs
and loaded through the real loader into a DuckDB file in a temp dir."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest

from analytics_agent.db.load.read.encodings import better_encodings
from analytics_agent.errors import LoadError
from tests.db.loaded import load_text, stored_rows, stored_types

_BILL_HEADER = "電號,計費期間起,計費期間迄,用電度數,流動電費,基本電費,應繳總金額,繳費期限,繳費狀態,是否逾期"


def _bill() -> tuple[str, list[tuple]]:
    """A Taipower bill history as its site saves it (3 meters x 12 months, ROC dates, ``"1,733"``), and
    the records it means: meter, start date, kWh, total, overdue."""
    rand = random.Random(14)
    lines, records = [_BILL_HEADER], []
    for meter in ("07-12-3456-78-9", "07-12-3456-80-1", "16-05-0021-33-0"):
        base = 262 if meter.startswith("16") else 0
        for month in range(12):
            year, number = 2023 + (month + 2) // 12, (month + 2) % 12 + 1
            kwh = rand.randint(200, 1400)
            fee = round(kwh * 2.63)
            late = rand.random() < 0.15
            day = f"{year - 1911}/{number:02d}"
            lines.append(
                f"{meter},{day}/05,{day}/28,{_thousands(kwh)},{_thousands(fee)},{base},"
                f"{_thousands(fee + base)},{day}/20,{'未繳費' if late else '已繳費'},{'是' if late else '否'}"
            )
            records.append((meter, datetime.date(year, number, 5), kwh, fee + base, late))
    return "\r\n".join(lines) + "\r\n", records


def _thousands(value: int) -> str:
    return f'"{value:,}"' if value >= 1000 else str(value)


def test_a_taiwanese_power_bill_in_big5_is_named_big5_not_latin_1(tmp_path: Path) -> None:
    # refused with "add --encoding latin-1": followed, '電號' was stored as '¹q¸¹' and every word so
    text, records = _bill()
    data = text.encode("big5")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "電費帳單查詢結果.csv", data)
    assert str(refused.value) == (
        "電費帳單查詢結果.csv is not UTF-8, and its text reads as another encoding than latin-1; add "
        "--encoding big5 if it is Chinese (Big5)"
    )
    summary = load_text(tmp_path, "電費帳單查詢結果.csv", data, encoding="big5", decimal=".")
    assert [c.name for c in summary.columns] == _BILL_HEADER.split(",")
    types = stored_types(summary)
    assert (types["電號"], types["計費期間起"], types["應繳總金額"], types["是否逾期"]) == (
        "VARCHAR",
        "DATE",
        "DOUBLE",
        "BOOLEAN",
    )
    stored = stored_rows(tmp_path, "SELECT 電號, 計費期間起, 用電度數, 應繳總金額, 是否逾期 FROM t")
    assert stored == records
    assert stored_rows(tmp_path, "SELECT DISTINCT 繳費狀態 FROM t ORDER BY 1") == [("已繳費",), ("未繳費",)]
    assert stored_rows(tmp_path, "SELECT sum(應繳總金額), count(*) FROM t") == [
        (sum(r[3] for r in records), 36)
    ]
    assert any(
        n.startswith("計費期間起, 計費期間迄, 繳費期限: years of the Republic of China")
        for n in summary.notes
    )


SMALL = {
    "gb18030": (
        "日期,金额,状态\n"
        + "".join(f"2024-{m:02d}-01,{m * 100},{'已付' if m % 3 else '未付'}\n" for m in range(1, 13)),
        "Chinese",
    ),
    "cp932": (
        "日付,金額,状態\n"
        + "".join(f"2024-{m:02d}-01,{m * 100},{'済' if m % 3 else '未'}\n" for m in range(1, 13)),
        "Japanese",
    ),
    "cp949": ("id,name,amount\n1,김민수,10\n2,Smith,30\n", "Korean"),
}
"""Small files whose few characters charset-normalizer read as another language's (EUC-JP, Korean, Big5)."""


@pytest.mark.parametrize("codec", list(SMALL))
def test_a_small_file_of_few_characters_is_named_by_its_own_encoding(tmp_path: Path, codec: str) -> None:
    text, language = SMALL[codec]
    data = text.encode(codec)
    assert better_encodings(data)[0] == f"--encoding {codec} if it is {language}"
    with pytest.raises(LoadError, match=f"; add --encoding {codec} if it is {language}"):
        load_text(tmp_path, "small.csv", data)
    load_text(tmp_path, "small.csv", data, encoding=codec)
    header = text.splitlines()[0].split(",")
    assert stored_rows(tmp_path, f"SELECT {header[1]}, {header[2]} FROM t LIMIT 1") == [
        tuple(int(v) if v.isdigit() else v for v in text.splitlines()[1].split(",")[1:])
    ]


def test_two_chinese_names_in_an_english_file_are_named_chinese(tmp_path: Path) -> None:
    # named cp949 (Korean): followed, '王芳' was stored as '珙렐'
    data = "id,name,amount\n1,王芳,10\n2,李娜,20\n3,Smith,30\n".encode("gb18030")
    with pytest.raises(LoadError, match=r"; add --encoding gb18030 if it is Chinese$"):
        load_text(tmp_path, "names.csv", data)
    load_text(tmp_path, "names.csv", data, encoding="gb18030")
    assert stored_rows(tmp_path, "SELECT name, amount FROM t ORDER BY id") == [
        ("王芳", 10),
        ("李娜", 20),
        ("Smith", 30),
    ]


def test_a_chinese_name_past_the_first_block_is_named_chinese(tmp_path: Path) -> None:
    # the first 64 KB are ASCII, read as UTF-8 until DuckDB met the name: "give its encoding, e.g.
    # --encoding latin-1", which stored '王芳' as 'Íõ·¼'
    lines = ["id,name,amount", *(f"{i},name {i},{i}" for i in range(1, 6000)), "6000,王芳,6000"]
    data = ("\r\n".join(lines) + "\r\n").encode("gb18030")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "late.csv", data)
    assert str(refused.value) == (
        "late.csv: line 6001: the file is not UTF-8, and its text there reads as another encoding than "
        "latin-1; add --encoding gb18030 if it is Chinese"
    )
    load_text(tmp_path, "late.csv", data, encoding="gb18030")
    assert stored_rows(tmp_path, "SELECT max(name), count(*), sum(amount) FROM t") == [
        ("王芳", 6000, 18003000)
    ]


def test_a_korean_file_is_named_korean_alone() -> None:
    # EUC-KR's hangul rows are rows of GB2312's and Big5's most used characters: its Chinese readings
    # are as common, and not named
    data = (
        "청구월,요금,납부여부\n" + "".join(f"2023년 {m:02d}월,{m * 1100},납부\n" for m in range(1, 13))
    ).encode("cp949")
    assert better_encodings(data) == ["--encoding cp949 if it is Korean"]


def test_a_western_file_of_few_accents_is_still_named_latin_1(tmp_path: Path) -> None:
    # Big5 reads '°C' and 'Äp' as one of its most used characters each: one alone is no Chinese word
    text = "Messpunkt,Temp (°C),Temp (°F)\nÄpfelkeller,12.5,54.5\nÅsa Lager,8.0,46.4\n"
    with pytest.raises(LoadError, match="it looks like latin-1: add --encoding latin-1"):
        load_text(tmp_path, "sensor.csv", text.encode("latin-1"))
    load_text(tmp_path, "sensor.csv", text.encode("latin-1"), encoding="latin-1")
    assert stored_rows(tmp_path, "SELECT * FROM t") == [("Äpfelkeller", 12.5, 54.5), ("Åsa Lager", 8.0, 46.4)]


def test_a_western_latin_1_file_is_still_read_as_windows_1252(tmp_path: Path) -> None:
    text = "Cliente;Situação\nMaria José;Recebido\nAçougue São João;Atrasado\nÓtica Visão;A Vencer\n"
    summary = load_text(tmp_path, "contas.csv", text.encode("latin-1"))
    assert summary.notes[0].startswith("contas.csv is not UTF-8 but Windows-1252")
    assert stored_rows(tmp_path, "SELECT * FROM t") == [
        ("Maria José", "Recebido"),
        ("Açougue São João", "Atrasado"),
        ("Ótica Visão", "A Vencer"),
    ]


def test_western_letters_past_the_first_block_still_name_latin_1(tmp_path: Path) -> None:
    lines = ["id,name,amount", *(f"{i},name {i},{i}" for i in range(1, 6000)), "6000,Müller Café,6000"]
    with pytest.raises(
        LoadError, match=r"line 6001: the file is not UTF-8; give its encoding, e\.g\. --encoding latin-1$"
    ):
        load_text(tmp_path, "late.csv", ("\n".join(lines) + "\n").encode("latin-1"))


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("Name;Straße;Betrag\nMüller;Hauptstraße 5;1.234,56\nBäcker;Größenweg;9,99\n", "cp1252"),
        ("Libellé;Débit\nPRÉLÈVEMENT ÉLECTRICITÉ;82,15\nChèque déposé;310,00\n", "cp1252"),
        ("Ort;Temp\nÄpfelkeller;12 °C\nÅsa;8 °C\n", "latin-1"),
    ],
)
def test_western_bytes_are_not_read_as_east_asian(text: str, codec: str) -> None:
    from analytics_agent.db.load.read.wide import wide_readings

    assert wide_readings(text.encode(codec), cut=False) == []
    assert not any(
        c in " ".join(better_encodings(text.encode(codec))) for c in ("big5", "gb18030", "cp949", "cp932")
    )
