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


def _wide_db(path, tables: int, columns: int) -> None:
    import duckdb

    with duckdb.connect(str(path)) as conn:
        for t in range(tables):
            cols = ", ".join(f"measure_{c}_value DOUBLE" for c in range(columns - 1))
            conn.execute(f"CREATE TABLE table_{t} (happened_at TIMESTAMPTZ, {cols})")


def _prompt(path) -> str:
    from analytics_agent.tools.catalog.schema_text import schema_lines

    with Workspace.open(path, timezone="America/New_York") as ws:
        schema, zone = schema_lines(ws.registry)
        return system_prompt(
            list_tables(ws.cursor()),
            today=dt.date(2026, 1, 1),
            timezone="UTC",
            schema=schema,
            business_zone=zone,
        )


def test_a_60_column_database_is_in_the_prompt_within_1500_o200k_tokens(tmp_path) -> None:
    import bpe_openai

    _wide_db(tmp_path / "wide.duckdb", tables=3, columns=20)
    text = _prompt(tmp_path / "wide.duckdb")
    assert "measure_18_value num" in text and "time: happened_at" in text  # no describe_table needed
    assert "business time zone America/New_York" in text
    assert len(bpe_openai.get_encoding("o200k_base").encode(text)) <= 1500


def test_a_database_too_wide_for_the_prompt_lists_tables_and_points_to_describe_table(tmp_path) -> None:
    import bpe_openai

    _wide_db(tmp_path / "wider.duckdb", tables=30, columns=40)
    text = _prompt(tmp_path / "wider.duckdb")
    assert "measure_1_value" not in text and "call describe_table for their columns" in text
    assert "table_29 (0 rows)" in text
    assert len(bpe_openai.get_encoding("o200k_base").encode(text)) <= 1500
