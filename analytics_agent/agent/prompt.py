"""The system prompt: short, because it is sent with every request. Pure apart from reading the clock."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence

from analytics_agent.db.catalog import TableInfo
from analytics_agent.zones import local_zone_name as local_zone_name  # its old home

SCHEMA_BUDGET = 2400
"""Estimated o200k tokens the schema card may take. ``estimate_tokens`` never under-counts and over-counts
a card of names and types about 2.2 times (the whole card of a 12-table, 121-column database: 1,875
estimated, 822 real), so a card within it is about 1,100 real tokens; above it, a less detailed card,
and last the tables alone, with describe_table for their columns."""


def system_prompt(
    tables: Sequence[TableInfo],
    *,
    today: dt.date,
    timezone: str,
    schema: Mapping[str, str] | None = None,
    schema_levels: Sequence[tuple[Mapping[str, str], str]] = (),
    business_zone: str | None = None,
    charts: bool = True,
) -> str:
    """The assistant's role, today's date, the tables (with their columns: the most detailed card of
    ``schema_levels``, or ``schema``, that fits the budget, saying what it left out), the business time
    zone, and the rules that keep numbers honest. ``charts``: our own app draws the last tool result under
    the answer; an MCP client (Claude, Cursor) does not, so its model is not told so."""
    tables_text = _schema_text(tables, [(schema, "")] if schema else list(schema_levels))
    zone = (
        f"Days, months and hours of zoned timestamps are in the business time zone {business_zone}.\n"
        if business_zone
        else ""
    )
    chart_rule = (
        "The app charts your last tool result under the answer: to plot, fetch the series with a tool; "
        "never draw charts in text."
        if charts
        else "Nothing is charted for you: give several numbers as a short table."
    )
    return (
        "You are analytics-agent: you answer business questions from a DuckDB database using the tools.\n"
        f"Today is {today:%A} {today.isoformat()} ({timezone}); resolve relative dates such as "
        '"yesterday" or "last week" from it and pass dates to tools as YYYY-MM-DD.\n'
        f"{tables_text}{zone}"
        "Use the tools for every number; never guess or invent one. If a tool returns an error, fix what "
        "it names and call again. Independent calls can go in one turn.\n"
        "Answer briefly with the numbers, and say which tool each came from.\n" + chart_rule
    )


def _schema_text(tables: Sequence[TableInfo], levels: list[tuple[Mapping[str, str], str]]) -> str:
    """The first card of ``levels`` within ``SCHEMA_BUDGET``, with what it left out; else the tables."""
    from analytics_agent.tools.results.shaping import estimate_tokens

    listed = ", ".join(_describe(t) for t in tables) or "none yet"
    for lines, left_out in levels:
        card = (
            "Tables (column type; key: one row each; col→name=table: a link, use name.<column>):\n"
            + "".join(f"- {_describe(t)}: {lines[t.name]}\n" for t in tables if t.name in lines)
        )
        card += f"Summarised to fit: {left_out}.\n" if left_out else ""
        if estimate_tokens(card) <= SCHEMA_BUDGET:
            return card
    return f"Tables: {listed}; call describe_table for their columns.\n" if levels else f"Tables: {listed}.\n"


def _describe(table: TableInfo) -> str:
    span = f", {table.dates[0]} {table.dates[1]}..{table.dates[2]}" if table.dates else ""
    return f"{table.name} ({table.rows:,} rows{span})"


def resolve_today(*, timezone: str | None, today: dt.date | None) -> tuple[dt.date, str]:
    """Today's date and the zone name it is in: the given ones, else the local ones."""
    if timezone:
        from zoneinfo import ZoneInfo

        now = dt.datetime.now(ZoneInfo(timezone))
        return today or now.date(), timezone
    return today or dt.date.today(), local_zone_name()
