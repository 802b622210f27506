"""Taiwanese exports (a telecom's call listing, a bank's statement): a subtotal row labelled ``小計`` and
dates in the Republic of China (Minguo) calendar, ``113/01/05`` for 2024-01-05. Each file is written here as
such an export writes it and loaded through the real loader."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from tests.db.loaded import load_text as _load
from tests.db.loaded import stored_rows as _rows
from tests.db.loaded import stored_types as _types

CALLS = "序號,通話類別,通話秒數,計費金額\n1,簡訊,,1.50\n2,市話,160,16.00\n3,網外,623,74.76\n小計,,783,92.26\n"


def test_a_subtotal_label_is_never_offered_as_a_missing_marker(tmp_path: Path) -> None:
    # the odd-value note said "add --null '小計' if it means missing": followed, the row's numbers loaded as
    # a record and every sum counted them twice
    summary = _load(tmp_path, "calls.csv", CALLS)
    assert not [n for n in summary.notes if "--null" in n], summary.notes
    assert any(
        n.startswith("the last row (序號 = '小計') holds the sums of the rows above") for n in summary.notes
    ), summary.notes
    summary = _load(tmp_path, "calls.csv", CALLS, drop_totals=True)
    assert _types(summary)["序號"] == "BIGINT"
    assert _rows(tmp_path, "SELECT sum(通話秒數), round(sum(計費金額), 2) FROM t") == [(783, 92.26)]


def test_subtotal_words_of_chinese_japanese_and_korean_are_total_labels() -> None:
    from analytics_agent.db.load.settle.total_labels import is_total_label

    assert all(
        is_total_label(w)
        for w in ("小計", "小计", "總計", "合計", "소계", "총계", "小計：", "北區小計", "서울 소계")
    )
    assert not any(is_total_label(w) for w in ("小林", "計費金額", "合計金額"))


STATEMENT = (
    "交易日期,記帳時間,摘要,支出,存入\n"
    "113/01/05,113/01/05 09:12:30,ATM轉帳,1000,\n"
    "113/02/15,113/02/15 14:00:05,薪資,,52000\n"
    "112/12/31,112/12/31 23:59:59,利息,,12\n"
)


def test_minguo_years_are_stored_as_gregorian_dates_and_said(tmp_path: Path) -> None:
    # stored as the years 112 and 113 AD: every record 1911 years early, without a word
    summary = _load(tmp_path, "statement.csv", STATEMENT)
    assert _types(summary)["交易日期"] == "DATE" and _types(summary)["記帳時間"] == "TIMESTAMP"
    assert _rows(tmp_path, "SELECT 交易日期, 記帳時間 FROM t WHERE 摘要 = '薪資'") == [
        (datetime.date(2024, 2, 15), datetime.datetime(2024, 2, 15, 14, 0, 5))
    ]
    assert summary.notes == [
        "交易日期, 記帳時間: years of the Republic of China (Minguo) calendar like '112/12/31' stored as "
        "Gregorian dates (the year plus 1911: 113 is 2024), not as the year itself; add --type 交易日期=VARCHAR "
        "(for each such column) to keep the text"
    ]
    summary = _load(tmp_path, "statement.csv", STATEMENT, types={"交易日期": "VARCHAR"})
    assert _rows(tmp_path, "SELECT 交易日期 FROM t WHERE 摘要 = '薪資'") == [("113/02/15",)]


@pytest.mark.parametrize("day", ["113.02.15", "113-02-15"])
def test_minguo_years_with_points_or_dashes_read_too(tmp_path: Path, day: str) -> None:
    _load(tmp_path, "d.csv", f"日期,金額\n{day},1.5\n{day.replace('113', '112')},2.5\n")
    assert _rows(tmp_path, "SELECT min(日期), max(日期) FROM t") == [
        (datetime.date(2023, 2, 15), datetime.date(2024, 2, 15))
    ]


def test_a_year_below_1000_that_is_no_minguo_year_keeps_the_column_text(tmp_path: Path) -> None:
    # a typo '0202' among 2024's dates was stored as the year 202, silently
    text = "day,amount\n2024-01-05,1.5\n0202-02-15,2.5\n2024-03-01,3\n"
    summary = _load(tmp_path, "d.csv", text)
    assert _types(summary)["day"] == "VARCHAR"
    assert _rows(tmp_path, "SELECT day FROM t ORDER BY amount") == [
        ("2024-01-05",),
        ("0202-02-15",),
        ("2024-03-01",),
    ]
    assert (
        "day stayed text: 1 value has a year below 1000 (like '0202-02-15'), neither four digits nor the "
        "Republic of China (Minguo) calendar's (every year 1-200); add --type day=DATE to read them as written"
    ) in summary.notes, summary.notes
    summary = _load(tmp_path, "d.csv", text, types={"day": "DATE"})
    assert _rows(tmp_path, "SELECT year(min(day)) FROM t") == [(202,)]


def test_minguo_dates_in_words_or_with_a_leap_day_are_read_from_text(tmp_path: Path) -> None:
    # '民國113年1月5日' stayed text; '113/02/29' (2024-02-29, a day the year 113 AD had not) kept the column text
    text = (
        "日期,記帳時間,金額\n民國113年1月5日,113/01/05 09:12,1.5\n民國113年2月29日,113/02/29 14:00:05,2.5\n"
    )
    summary = _load(tmp_path, "d.csv", text)
    assert _types(summary)["日期"] == "DATE" and _types(summary)["記帳時間"] == "TIMESTAMP"
    assert _rows(tmp_path, "SELECT 日期, 記帳時間 FROM t ORDER BY 金額") == [
        (datetime.date(2024, 1, 5), datetime.datetime(2024, 1, 5, 9, 12)),
        (datetime.date(2024, 2, 29), datetime.datetime(2024, 2, 29, 14, 0, 5)),
    ]
    assert summary.notes == [
        "日期, 記帳時間: years of the Republic of China (Minguo) calendar like '民國113年1月5日' stored as "
        "Gregorian dates (the year plus 1911: 113 is 2024); add --type 日期=VARCHAR (for each such column) to "
        "keep the text"
    ]


def test_two_digit_years_in_words_without_minguo_stay_text(tmp_path: Path) -> None:
    # a Japanese era's '5年1月5日' (令和) is no Minguo year: nothing says which calendar
    summary = _load(tmp_path, "d.csv", "日付,金額\n5年1月5日,1.5\n5年2月6日,2.5\n")
    assert _types(summary)["日付"] == "VARCHAR"
    assert not [n for n in summary.notes if "Minguo" in n]


def test_seven_digit_minguo_dates_in_a_date_column_are_dates(tmp_path: Path) -> None:
    summary = _load(tmp_path, "d.csv", "交易日期,金額\n1130105,1.5\n1130229,2.5\n1121231,3\n")
    assert _rows(tmp_path, "SELECT 交易日期 FROM t ORDER BY 金額") == [
        (datetime.date(2024, 1, 5),),
        (datetime.date(2024, 2, 29),),
        (datetime.date(2023, 12, 31),),
    ]
    assert summary.notes == [
        "交易日期: seven-digit numbers like 1121231 stored as DATE, years of the Republic of China (Minguo) "
        "calendar (YYYMMDD, the year plus 1911: 113 is 2024), as the column's name says it holds dates; add "
        "--type 交易日期=BIGINT (for each such column) to keep the numbers"
    ]


def test_infinite_dates_are_no_early_years(tmp_path: Path) -> None:
    # DuckDB's -infinity came to the check as the year 1: the column went back to text, said with 0 values
    summary = _load(tmp_path, "d.csv", "id,d\n1,-infinity\n2,2024-01-01\n3,infinity\n")
    assert _types(summary)["d"] == "DATE"
    assert _rows(tmp_path, "SELECT d FROM t WHERE id = 2") == [(datetime.date(2024, 1, 1),)]
    assert not summary.notes


def test_chinese_subtotals_written_after_their_group_count_as_subtotals(tmp_path: Path) -> None:
    # no space before 小計 ('北區小計'): the subtotal rows were summed as records, and 總計 was no label
    text = "地區,門市,金額\n北區,台北店,100\n北區,新竹店,50\n北區小計,,150\n南區,高雄店,70\n南區,台南店,30\n南區小計,,100\n總計,,250\n"
    summary = _load(tmp_path, "s.csv", text)
    assert any(
        n.startswith(
            "the last row (地區 = '總計') holds the sums of the rows above in 金額, with 2 subtotal rows"
        )
        for n in summary.notes
    ), summary.notes
    _load(tmp_path, "s.csv", text, drop_totals=True)
    assert _rows(tmp_path, "SELECT count(*), sum(金額) FROM t") == [(4, 250)]


def test_a_date_readers_year_below_1000_keeps_the_text_and_names_its_format(tmp_path: Path) -> None:
    # the text-date reader stored 'Jan 5 0202' as the year 202 and said only that it read dates
    text = "id,day\n1,Jan 5 0202\n2,Feb 15 2024\n"
    summary = _load(tmp_path, "d.csv", text)
    assert _types(summary)["day"] == "VARCHAR"
    assert summary.notes == [
        "day stayed text: 1 value has a year below 1000 (like 'Jan 05 0202'), neither four digits nor the "
        "Republic of China (Minguo) calendar's (every year 1-200); add --date-format day=%b %d %Y to read them "
        "as written"
    ]
    _load(tmp_path, "d.csv", text, date_format=["day=%b %d %Y"])
    assert _rows(tmp_path, "SELECT year(min(day)) FROM t") == [(202,)]
