"""A general ledger's month rows (held-out round fourteen): a Kingdee-style subsidiary ledger in GB18030 with
three title lines (one a key-value line padded to the table's width, ``科目：1002 银行存款,,,,,,,,币别：人民币``),
an opening balance row ``期初余额`` first and, after each month, ``本期合计`` (the month's debits and credits)
and ``本年累计`` (the year's so far), their date cells filled. The title was loaded as a one-column table;
with ``--skip 3`` the month rows loaded as records without a word and every sum counted each month's
records again. Each file is written here with Python's codecs and loaded through the real loader into a
DuckDB file in a temp dir."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from analytics_agent.errors import LoadError
from tests.db.loaded import load_text, stored_rows

_MONTHS = {
    1: [
        ("记-001", "收到货款", 12345.67, None),
        ("记-002", "支付房租", None, 8000.00),
        ("记-003", "提取备用金", None, 500.5),
    ],
    2: [("记-004", "收到退款", 2000.00, None), ("记-005", "银行手续费", None, 35.2)],
    3: [("记-006", "收到货款", 30500.00, None), ("记-007", "支付供应商货款", None, 12000.00)],
}
_OPENING = 950000.00


def _money(value: float | None) -> str:
    return "" if value is None else f'"{value:,.2f}"'


def _ledger(total: str = "本期合计", running: str = "本年累计", opening: str = "期初余额") -> str:
    """The ledger as Kingdee exports it: title lines, header, opening row, each month's records, its
    total and its year-to-date row (with the balance and its direction)."""
    lines = [
        "明细分类账",
        "科目：1002 银行存款,,,,,,,,币别：人民币",
        "期间：2024年1期 至 2024年3期",
        "日期,凭证字号,摘要,借方金额,贷方金额,方向,余额,核算项目,制单人",
        f"2024/1/1,,{opening},,,借,{_money(_OPENING)},,",
    ]
    balance, year_debit, year_credit = _OPENING, 0.0, 0.0
    for month, records in _MONTHS.items():
        debit = credit = 0.0
        for day, (voucher, memo, dr, cr) in enumerate(records, start=3):
            balance = round(balance + (dr or 0) - (cr or 0), 2)
            debit, credit = debit + (dr or 0), credit + (cr or 0)
            lines.append(
                f"2024/{month}/{day},{voucher},{memo},{_money(dr)},{_money(cr)},借,{_money(balance)},部门/财务部,王芳"
            )
        year_debit, year_credit = year_debit + debit, year_credit + credit
        end = f"2024/{month}/28"
        lines.append(f"{end},,{total},{_money(debit)},{_money(credit)},借,{_money(balance)},,")
        lines.append(f"{end},,{running},{_money(year_debit)},{_money(year_credit)},借,{_money(balance)},,")
    return "\r\n".join(lines) + "\r\n"


_RECORDS = [r for records in _MONTHS.values() for r in records]
_DEBITS = round(sum(r[2] or 0 for r in _RECORDS), 2)
_CREDITS = round(sum(r[3] or 0 for r in _RECORDS), 2)


def test_the_title_lines_above_a_ledger_are_named_with_their_skip(tmp_path: Path) -> None:
    # loaded as one column '明细分类账' of every line, without a word
    data = _ledger().encode("gb18030")
    with pytest.raises(LoadError) as refused:
        load_text(tmp_path, "ledger.csv", data, encoding="gb18030")
    assert str(refused.value) == (
        "ledger.csv: lines 1-3 are a title or notes ('明细分类账') above the header (line 4, 9 fields); add "
        "--skip 3 to start at the header"
    )


def test_month_totals_and_year_to_date_rows_are_said_and_dropped(tmp_path: Path) -> None:
    # 本年累计 loaded as records without a word: the debits summed to 3 months' records counted 1 + 2 + 3 times
    data = _ledger().encode("gb18030")
    summary = load_text(tmp_path, "ledger.csv", data, encoding="gb18030", skip=3)
    assert (
        "6 rows labelled like '本期合计' or '本年累计' (摘要) hold the sums of 借方金额, 贷方金额: each '本期合计' "
        "over the rows above it back to the one before, each '本年累计' over all the records above it, a running "
        "total of the year so far: loaded as rows, a sum over the table counts their rows again: add "
        "--drop-totals to load without them"
    ) in summary.notes
    assert any(
        n.startswith("the opening balance row (摘要 = '期初余额') is no record") for n in summary.notes
    )
    assert stored_rows(tmp_path, "SELECT count(*) FROM t") == [(len(_RECORDS) + 7,)]

    summary = load_text(tmp_path, "ledger.csv", data, encoding="gb18030", skip=3, drop_totals=True)
    assert (
        "--drop-totals: dropped 6 rows labelled like '本期合计' or '本年累计' (摘要), the sums of 借方金额, 贷方金额 "
        "(each '本期合计' over the rows above it back to the one before, each '本年累计' over all the records above "
        "it, a running total of the year so far); leave out --drop-totals to keep them"
    ) in summary.notes
    assert any(n.startswith("--drop-totals: dropped the opening balance row") for n in summary.notes)
    stored = stored_rows(tmp_path, "SELECT 凭证字号, 摘要, 借方金额, 贷方金额 FROM t ORDER BY 凭证字号")
    assert stored == [(v, m, dr, cr) for v, m, dr, cr in _RECORDS]
    assert stored_rows(
        tmp_path, "SELECT round(sum(借方金额), 2), round(sum(贷方金额), 2), min(日期) FROM t"
    ) == [(_DEBITS, _CREDITS, datetime.date(2024, 1, 3))]


def test_an_english_ledger_s_year_to_date_rows_are_found_too(tmp_path: Path) -> None:
    text = _ledger("Period total", "Year to date", "Opening balance")
    summary = load_text(tmp_path, "gl.csv", text, skip=3, drop_totals=True)
    assert any("rows labelled like 'Period total' or 'Year to date'" in n for n in summary.notes), (
        summary.notes
    )
    assert stored_rows(tmp_path, "SELECT count(*), round(sum(借方金额), 2) FROM t") == [
        (len(_RECORDS), _DEBITS)
    ]


def test_rows_labelled_year_to_date_whose_numbers_do_not_run_stay_records(tmp_path: Path) -> None:
    # a label alone says nothing: a '本年累计' row of other numbers is kept, and no note calls it a total
    text = _ledger().replace('本年累计,"14,345.67","8,535.70"', '本年累计,"14,000.00","8,000.00"')
    assert '"14,000.00"' in text
    summary = load_text(tmp_path, "ledger.csv", text, skip=3, drop_totals=True)
    assert not any("本年累计" in n for n in summary.notes), summary.notes
    assert stored_rows(tmp_path, "SELECT count(*) FILTER (WHERE 摘要 = '本年累计') FROM t") == [(3,)]
