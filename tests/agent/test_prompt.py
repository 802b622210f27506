"""The system prompt: today's date and zone, the real tables, and the no-guessing rule."""

from __future__ import annotations

import datetime as dt

from analytics_agent.agent.prompt import resolve_today, system_prompt
from analytics_agent.db.catalog import list_tables
from analytics_agent.workspace.workspace import Workspace


def test_the_prompt_names_today_the_zone_and_the_tables_with_row_counts(workspace: Workspace) -> None:
    tables = list_tables(workspace.cursor())
    text = system_prompt(tables, today=dt.date(2026, 10, 25), timezone="Asia/Kolkata")
    assert "Today is Sunday 2026-10-25 (Asia/Kolkata)" in text
    orders = workspace.cursor().execute("SELECT count(*) FROM orders").fetchone()[0]
    first, last = workspace.cursor().execute("SELECT min(day), max(day) FROM orders").fetchone()
    assert f"orders ({orders:,} rows, day {first}..{last})" in text  # what "last month" can mean
    assert "products (61 rows)" in text  # no date column, no range
    assert "never guess" in text
    assert len(text) < 1000  # sent with every request


def test_given_date_and_zone_win_over_the_clock() -> None:
    assert resolve_today(timezone="UTC", today=dt.date(2026, 1, 2)) == (dt.date(2026, 1, 2), "UTC")


def test_the_zone_decides_which_day_today_is() -> None:
    east, zone = resolve_today(timezone="Pacific/Kiritimati", today=None)  # UTC+14 all year
    assert zone == "Pacific/Kiritimati"
    assert east == dt.datetime.now(dt.timezone(dt.timedelta(hours=14))).date()
