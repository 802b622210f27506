"""Months written as periods (``Jan-2024``, ``January 2024``, ``2024-01``, ``01/2024``, Excel's ``Jan-24``)
stayed text without a word: grouped, they sorted as text (``Apr`` before ``Feb``) and no time grain or
period applied. Now each is stored as the month's first day, said in one line with the undo; a column that
is not months (codes, a month 13) is not."""

from __future__ import annotations

import datetime
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files

MONTHS = [(2024, 1), (2024, 2), (2024, 4), (2023, 12)]


def _load(tmp_path: Path, cells: list[str]):
    path = tmp_path / "m.csv"
    path.write_text("period,amount\n" + "".join(f'"{c}",{i}\n' for i, c in enumerate(cells, 1)))
    return load_files(tmp_path / "t.duckdb", [str(path)], load_options(table="t", replace=True))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "form",
    ["{b}-{Y}", "{B} {Y}", "{Y}-{m:02d}", "{m:02d}/{Y}", "{b}-{y:02d}"],
    ids=["Jan-2024", "January 2024", "2024-01", "01/2024", "Jan-24"],
)
def test_month_periods_are_stored_as_each_month_s_first_day(tmp_path, form):
    cells = [
        form.format(
            b=datetime.date(y, m, 1).strftime("%b"),
            B=datetime.date(y, m, 1).strftime("%B"),
            Y=y,
            y=y % 100,
            m=m,
        )
        for y, m in MONTHS
    ]
    summary = _load(tmp_path, cells)
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        stored = conn.execute("SELECT period FROM t ORDER BY amount").fetchall()
        ordered = conn.execute("SELECT amount FROM t ORDER BY period").fetchall()
    assert [r[0] for r in stored] == [datetime.date(y, m, 1) for y, m in MONTHS]
    assert [r[0] for r in ordered] == [4, 1, 2, 3]  # December 2023 first: months, not text
    said = [n for n in summary.notes if n.startswith("period: text dates like")]
    assert len(said) == 1 and "each month as its first day" in said[0] and "--type period=VARCHAR" in said[0]


@pytest.mark.parametrize(
    "cells", [["ABC-2024", "DEF-2024"], ["A1-2024", "B2-2023"]], ids=["letters", "codes"]
)
def test_codes_shaped_like_periods_stay_text(tmp_path, cells):
    summary = _load(tmp_path, cells)
    assert next(c.type for c in summary.columns) == "VARCHAR"
