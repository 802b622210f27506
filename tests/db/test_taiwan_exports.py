"""Taiwanese exports (a telecom's call listing, a bank's statement): a subtotal row labelled ``小計`` and
dates in the Republic of China (Minguo) calendar, ``113/01/05`` for 2024-01-05. Each file is written here as
such an export writes it and loaded through the real loader."""

from __future__ import annotations

from pathlib import Path

from tests.db.loaded import load_text as _load
from tests.db.loaded import stored_rows as _rows
from tests.db.loaded import stored_types as _types

CALLS = (
    "序號,通話類別,通話秒數,計費金額\n"
    "1,簡訊,,1.50\n"
    "2,市話,160,16.00\n"
    "3,網外,623,74.76\n"
    "小計,,783,92.26\n"
)


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

    assert all(is_total_label(w) for w in ("小計", "小计", "總計", "合計", "소계", "총계", "小計："))
    assert not any(is_total_label(w) for w in ("小林", "計費金額"))
