"""Dates as Asian bank exports write them (round eight of the held-out files): Rakuten Bank's ``取引日``
of eight-digit ``20240303`` numbers, Shinhan's ``거래일자`` of ``2024.03.02``. Loaded through the real loader
into a DuckDB file in a temp dir."""

from __future__ import annotations

import datetime
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.db.load.settle.compact_dates import date_named


def _load(tmp_path: Path, text: str, codec: str = "utf-8", **options: object):
    path = tmp_path / "meisai.csv"
    path.write_bytes(text.encode(codec))
    options.setdefault("table", "t")
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(**options))  # type: ignore[arg-type]


def _column(tmp_path: Path, name: str) -> list:
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        return [v for (v,) in conn.execute(f'SELECT "{name}" FROM t ORDER BY rowid').fetchall()]


@pytest.mark.parametrize(
    ("name", "dated"),
    [
        ("取引日", True),  # Japanese: transaction day
        ("出荷日", True),
        ("日付", True),
        ("交易日期", True),  # Chinese
        ("거래일자", True),  # Korean
        ("거래일", True),
        ("Дата операции", True),
        ("Vade Tarihi", True),  # Turkish: due date
        ("Tanggal Transaksi", True),  # Indonesian
        ("Päivämäärä", True),
        ("曜日", False),  # a weekday
        ("요일", False),
        ("取引番号", False),  # a transaction number
        ("金額", False),
        ("Tarif", False),
    ],
)
def test_date_names_past_ascii(name: str, dated: bool) -> None:
    assert date_named(name) is dated


def test_eight_digit_dates_under_a_japanese_date_name_are_dates(tmp_path: Path) -> None:
    # before: 取引日 was no date name, so 20240303 stayed the number 20,240,303
    text = "取引日,入出金(円),取引後残高(円),入出金先内容\n20240303,-5500,120500,ｺﾝﾋﾞﾆ\n20240304,250000,370500,給与\n"
    summary = _load(tmp_path, text, "shift_jis", encoding="shift_jis")
    assert _column(tmp_path, "取引日") == [datetime.date(2024, 3, 3), datetime.date(2024, 3, 4)]
    assert any(
        n.startswith("取引日: eight-digit numbers like 20240303 stored as DATE") for n in summary.notes
    )


def test_year_first_dates_with_points_are_dates(tmp_path: Path) -> None:
    # before: '2024.03.02' (Korean and Chinese banks) stayed text without a word, when the totals row's
    # label in the column kept DuckDB's sniffer from reading it
    text = "거래일자,적요,출금(원)\n2024.03.02,체크카드,89500\n2024.03.15,이체,12000\n2024.03.18,이체,500\n합계,,102000\n"
    summary = _load(tmp_path, text, drop_totals=True)
    assert _column(tmp_path, "거래일자") == [
        datetime.date(2024, 3, 2),
        datetime.date(2024, 3, 15),
        datetime.date(2024, 3, 18),
    ]
    assert any(n.startswith("거래일자: text dates like '2024.03.02' stored as DATE") for n in summary.notes)
