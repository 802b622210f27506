"""12-hour times whose morning or afternoon mark is not ``AM``/``PM`` after the time (Taipei Fubon's
``2024/08/01 下午 03:15:22``, Korean Excel's ``2024. 8. 1. 오후 3:15:22``, Spanish ``3:15:22 p. m.``) and
times after a date with its trailing dot (GLS Hungary's ``2024.11.21. 05:51``): DuckDB left them as text,
without a word. Now they are stored as TIMESTAMP and said; a time whose hour cannot be a 12-hour one
beside its mark keeps the column text, with the reason. Real files in their own encodings through the
real loader into a DuckDB file in a temp dir; the times expected are worked out by hand."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.db.load.settle.day_halves import (
    _HALVES,
    am_pm_sql,
    clock,
    day_halves,
    with_am_pm,
)
from tests.regex_examples import examples

T = dt.datetime
NBSP = "\u00a0"

CASES = [
    (  # Taipei Fubon: big5, the mark between date and time, 12 o'clock's rules
        "fubon.csv",
        "big5",
        "交易日期時間,支出\n2024/08/01 上午 06:18:58,1\n2024/08/16 下午 11:12:54,2\n"
        "2024/08/04 下午 12:47:19,3\n2024/08/05 上午 12:03:41,4\n",
        [
            T(2024, 8, 1, 6, 18, 58),
            T(2024, 8, 16, 23, 12, 54),
            T(2024, 8, 4, 12, 47, 19),
            T(2024, 8, 5, 0, 3, 41),
        ],
        "上午/下午 read as AM/PM, '2024/08/16 下午 11:12:54' as 23:12:54",
    ),
    (  # mainland China: gb18030, no space between mark and time
        "icbc.csv",
        "gb18030",
        "交易时间,金额\n2024-08-01 下午3:15:22,1\n2024-08-02 上午9:05:00,2\n",
        [T(2024, 8, 1, 15, 15, 22), T(2024, 8, 2, 9, 5)],
        "上午/下午 read as AM/PM, '2024-08-01 下午3:15:22' as 15:15:22",
    ),
    (  # Japanese: cp932, 午前/午後, an hour without its zero
        "meisai.csv",
        "cp932",
        "日時,金額\n2024/08/01 午前 9:05,1\n2024/08/02 午後 11:59,2\n2024/08/03 午後 1:00,3\n",
        [T(2024, 8, 1, 9, 5), T(2024, 8, 2, 23, 59), T(2024, 8, 3, 13, 0)],
        "午前/午後 read as AM/PM, '2024/08/02 午後 11:59' as 23:59",
    ),
    (  # Korean Excel: euc-kr, the date with spaces and trailing dots
        "geolae.csv",
        "euc-kr",
        "거래일시,금액\n2024. 8. 1. 오후 3:15:22,1\n2024. 8. 2. 오전 12:05:00,2\n2024. 8. 3. 오후 12:30:00,3\n",
        [T(2024, 8, 1, 15, 15, 22), T(2024, 8, 2, 0, 5), T(2024, 8, 3, 12, 30)],
        "오전/오후 read as AM/PM, '2024. 8. 1. 오후 3:15:22' as 15:15:22",
    ),
    (  # Spanish Windows: cp1252, ``p. m.`` with a no-break space, day first as the 25th says
        "movimientos.csv",
        "cp1252",
        f"fecha;importe\n25/08/2024 3:15:22 p.{NBSP}m.;1\n02/08/2024 11:00:00 a.{NBSP}m.;2\n",
        [T(2024, 8, 25, 15, 15, 22), T(2024, 8, 2, 11, 0)],
        "read as PM/AM, '25/08/2024 3:15:22 p.\\xa0m.' as 15:15:22",
    ),
    (  # Japanese in words: the date's 年月日, the mark glued to the time
        "nikki.csv",
        "cp932",
        "日時,金額\n2024年8月1日 午後3:15,1\n2024年8月2日 午前11:05,2\n",
        [T(2024, 8, 1, 15, 15), T(2024, 8, 2, 11, 5)],
        "(format %Y年%m月%d日 %I:%M %p; 午前/午後 read as AM/PM, '2024年8月1日 午後3:15' as 15:15)",
    ),
    (  # English with dots, a month name
        "opens.csv",
        "utf-8",
        'opened,n\n"Jan 12, 2026 6:32 p.m.",1\n"Jan 13, 2026 10:02 a.m.",2\n',
        [T(2026, 1, 12, 18, 32), T(2026, 1, 13, 10, 2)],
        "p.m. and a.m. read as PM/AM",
    ),
]


def _load(tmp_path: Path, name: str, encoding: str, text: str):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    options = load_options(table="t", encoding=None if encoding == "utf-8" else encoding)
    return load_files(tmp_path / "t.duckdb", [str(path)], options)


def _stored(tmp_path: Path) -> list[object]:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return [r[0] for r in conn.execute("SELECT * FROM t").fetchall()]


@pytest.mark.parametrize(("name", "encoding", "text", "stamps", "said"), CASES)
def test_marks_of_morning_and_afternoon_read_as_12_hour_times_and_said(
    tmp_path: Path, name: str, encoding: str, text: str, stamps: list[dt.datetime], said: str
) -> None:
    summary = _load(tmp_path, name, encoding, text)
    column = summary.columns[0]
    assert column.type == "TIMESTAMP", summary.notes
    (note,) = [n for n in summary.notes if n.startswith(f"{column.name}: text dates")]
    assert said in note and note.endswith(f"add --type {column.name}=VARCHAR to keep them as text")
    assert _stored(tmp_path) == stamps


def test_the_fubon_note_in_full(tmp_path: Path) -> None:
    summary = _load(tmp_path, *CASES[0][:3])
    assert (
        "交易日期時間: text dates like '2024/08/16 下午 11:12:54' stored as TIMESTAMP (format %Y/%m/%d "
        "%I:%M:%S %p; 上午/下午 read as AM/PM, '2024/08/16 下午 11:12:54' as 23:12:54); add --type "
        "交易日期時間=VARCHAR to keep them as text"
    ) in summary.notes


@pytest.mark.parametrize(
    ("text", "stamps", "fmt"),
    [
        (  # GLS Hungary: ISO-8859-2, tab, the date's trailing dot, no seconds, an empty cell
            "Csomagszám\tKézbesítés ideje\n03286411143\t\n07351519381\t2024.11.07. 03:59\n"
            "07351519382\t2024.11.21. 15:51\n",
            [None, T(2024, 11, 7, 3, 59), T(2024, 11, 21, 15, 51)],
            "%Y.%m.%d. %H:%M",
        ),
        (  # Korean 24-hour: spaces after the dots, an hour without its zero
            "번호\t일시\n1\t2024. 11. 21. 5:51:00\n2\t2024. 11. 22. 15:51:30\n",
            [T(2024, 11, 21, 5, 51), T(2024, 11, 22, 15, 51, 30)],
            "%Y. %m. %d. %H:%M:%S",
        ),
    ],
)
def test_a_time_after_a_date_with_its_trailing_dot_is_a_timestamp(
    tmp_path: Path, text: str, stamps: list[object], fmt: str
) -> None:
    path = tmp_path / "csomagok.tsv"
    path.write_bytes(text.encode("iso-8859-2" if "Kézbesítés" in text else "utf-8"))
    encoding = "iso-8859-2" if "Kézbesítés" in text else None
    summary = load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", encoding=encoding))
    column = summary.columns[1]
    assert column.type == "TIMESTAMP", summary.notes
    assert any(
        n.startswith(f"{column.name}: text dates like") and f"(format {fmt})" in n for n in summary.notes
    )
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert [r[0] for r in conn.execute(f"SELECT {column.name} FROM t").fetchall()] == stamps


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        (  # 24-hour times with a mark: which is meant is a guess
            ["2024/08/01 下午 15:15:22", "2024/08/02 上午 09:00:00", "2024/08/03 下午 13:00:00"],
            "t looks like 12-hour timestamps (下午/上午, e.g. '2024/08/01 下午 15:15:22') but a time with a "
            "morning or afternoon mark has an hour from 1 to 12, not 15; it stayed text, as reading it would "
            "be a guess",
        ),
        (  # one hour past 12 among 12-hour ones
            ["2024/08/01 下午 03:15:22", "2024/08/02 上午 09:00:00", "2024/08/03 下午 13:00:00"],
            "t looks like dates (%Y/%m/%d %I:%M:%S %p) but 1 value, '2024/08/03 下午 13:00:00', does not fit; "
            "it stayed text (a time with a morning or afternoon mark has an hour from 1 to 12, not 13; fix them)",
        ),
        (  # the hour 0 beside 上午 is no 12-hour time either
            ["2024/08/01 上午 00:15:00", "2024/08/02 上午 09:00:00", "2024/08/03 下午 01:00:00"],
            "it stayed text (a time with a morning or afternoon mark has an hour from 1 to 12, not 00; fix them)",
        ),
    ],
)
def test_hours_that_are_no_12_hour_ones_beside_a_mark_keep_the_text_and_say_why(
    tmp_path: Path, rows: list[str], said: str
) -> None:
    summary = _load(tmp_path, "t.csv", "big5", "t,n\n" + "".join(f"{r},{i}\n" for i, r in enumerate(rows)))
    assert summary.columns[0].type == "VARCHAR"
    assert any(said in n for n in summary.notes), summary.notes
    assert _stored(tmp_path) == rows


def test_a_value_without_its_mark_keeps_the_column_text(tmp_path: Path) -> None:
    rows = ["2024/08/01 下午 03:15:22", "2024/08/02 上午 09:00:00", "2024/08/03 15:00:00"]
    summary = _load(tmp_path, "t.csv", "utf-8", "t,n\n" + "".join(f"{r},{i}\n" for i, r in enumerate(rows)))
    assert summary.columns[0].type == "VARCHAR"
    assert any("'2024/08/03 15:00:00', does not fit; it stayed text" in n for n in summary.notes)
    assert _stored(tmp_path) == rows


def test_words_with_marks_that_are_no_timestamps_stay_text(tmp_path: Path) -> None:
    rows = ["2 p.m. call", "下午 03:15 開會", "9 a.m.", "2024.11.21. átvéve 05:51"]
    summary = _load(tmp_path, "t.csv", "utf-8", "t,n\n" + "".join(f"{r},{i}\n" for i, r in enumerate(rows)))
    assert summary.columns[0].type == "VARCHAR" and not any(n.startswith("t") for n in summary.notes)
    assert _stored(tmp_path) == rows


def test_the_plain_test_lets_through_every_mark_and_python_reads_as_sql() -> None:
    from analytics_agent.db.load.settle.text_dates import may_mark

    values = {v for _, pattern in _HALVES for v in examples(pattern)}
    marked = [v for v in values if day_halves([v])]
    assert len(marked) >= 50 and all(may_mark(v) for v in marked)
    assert not may_mark("2024/08/01 15:15:22") and not day_halves(["Meeting at 3:15 am."])
    with duckdb.connect() as conn:
        for value in sorted(marked)[:200]:
            assert conn.execute(f"SELECT {am_pm_sql('?')}", [value]).fetchone() == (with_am_pm(value),)
    assert clock("2024/08/05 上午 12:03:41") == "00:03:41" and clock("2024. 8. 3. 오후 12:30") == "12:30"
    assert re.search(r"\d PM$", with_am_pm("2024/08/01 03:15:22 下午"))


def test_minguo_years_with_marks_read_as_both_and_said_in_one_line(tmp_path: Path) -> None:
    """A Taiwanese bank's ``113/08/16 下午 11:12:54``: the Minguo year and the 12-hour time at once."""
    text = "交易時間,金額\n113/08/01 上午 06:18:58,1\n113/08/16 下午 11:12:54,2\n113/08/05 上午 12:03:41,3\n"
    summary = _load(tmp_path, "roc.csv", "big5", text)
    assert summary.columns[0].type == "TIMESTAMP"
    assert summary.notes == [
        "交易時間: years of the Republic of China (Minguo) calendar like '113/08/16 下午 11:12:54' stored as "
        "Gregorian dates (the year plus 1911: 113 is 2024; 上午/下午 read as AM/PM, '113/08/16 下午 11:12:54' "
        "as 23:12:54); add --type 交易時間=VARCHAR to keep the text"
    ]
    assert _stored(tmp_path) == [
        T(2024, 8, 1, 6, 18, 58),
        T(2024, 8, 16, 23, 12, 54),
        T(2024, 8, 5, 0, 3, 41),
    ]


def test_minguo_years_with_24_hour_times_beside_marks_stay_text(tmp_path: Path) -> None:
    text = "交易時間,金額\n113/08/01 上午 06:18:58,1\n113/08/16 下午 15:12:54,2\n"
    summary = _load(tmp_path, "roc.csv", "big5", text)
    assert summary.columns[0].type == "VARCHAR"
    assert summary.notes == [
        "交易時間 looks like 12-hour timestamps (上午/下午, e.g. '113/08/16 下午 15:12:54') but a time with a "
        "morning or afternoon mark has an hour from 1 to 12, not 15; it stayed text, as reading it would be "
        "a guess"
    ]
    assert _stored(tmp_path) == ["113/08/01 上午 06:18:58", "113/08/16 下午 15:12:54"]


def test_the_date_format_a_refusal_names_reads_the_marks_too(tmp_path: Path) -> None:
    """Day and month both fit: the load is refused with an option for each reading, and the option read
    as given stores the times (``strptime`` alone reads no ``下午``)."""
    from analytics_agent.errors import LoadError

    text = "t,n\n01/08/2024 下午 03:15,1\n02/08/2024 上午 11:00,2\n"
    with pytest.raises(LoadError, match=r"--date-format t=%d/%m/%Y %I:%M %p if days come first"):
        _load(tmp_path, "t.csv", "utf-8", text)
    path = tmp_path / "t.csv"
    options = load_options(table="t", date_format=["t=%d/%m/%Y %I:%M %p"])
    summary = load_files(tmp_path / "t2.duckdb", [str(path)], options)
    assert summary.columns[0].type == "TIMESTAMP"
    with duckdb.connect(str(tmp_path / "t2.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT t FROM t").fetchall() == [
            (T(2024, 8, 1, 15, 15),),
            (T(2024, 8, 2, 11, 0),),
        ]


def test_month_names_and_marks_both_read_and_both_said(tmp_path: Path) -> None:
    summary = _load(
        tmp_path, "t.csv", "utf-8", "fecha,n\n15 ene 2024 3:15 p. m.,1\n2 dic 2024 11:05 a. m.,2\n"
    )
    (note,) = [n for n in summary.notes if n.startswith("fecha: text dates")]
    assert "month names read in English" in note and "p. m. and a. m. read as PM/AM" in note
    assert _stored(tmp_path) == [T(2024, 1, 15, 15, 15), T(2024, 12, 2, 11, 5)]
