"""The system prompt: short, because it is sent with every request. Pure apart from reading the clock."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from analytics_agent.db.catalog import TableInfo

SCHEMA_BUDGET = 1100
"""Estimated o200k tokens the schema may take (an over-estimate: the prompt stays under 1,500 real ones);
above it, the tables alone, and describe_table for their columns."""


def system_prompt(
    tables: Sequence[TableInfo],
    *,
    today: dt.date,
    timezone: str,
    schema: Mapping[str, str] | None = None,
    business_zone: str | None = None,
    charts: bool = True,
) -> str:
    """The assistant's role, today's date, the tables (with their columns when ``schema`` fits the
    budget), the business time zone, and the rules that keep numbers honest. ``charts``: our own app
    draws the last tool result under the answer; an MCP client (Claude, Cursor) does not, so its model is
    not told so."""
    from analytics_agent.tools.shaping import estimate_tokens

    listed = ", ".join(_describe(t) for t in tables) or "none yet"
    tables_text = (
        f"Tables: {listed}; call describe_table for their columns.\n" if schema else f"Tables: {listed}.\n"
    )
    if schema:
        full = "Tables (column type, ...):\n" + "".join(
            f"- {_describe(t)}: {schema[t.name]}\n" for t in tables if t.name in schema
        )
        if estimate_tokens(full) <= SCHEMA_BUDGET:
            tables_text = full
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


def local_zone_name() -> str:
    """The IANA name of the local zone when the system says it, else its abbreviation (e.g. "UTC")."""
    value = os.environ.get("TZ", "").lstrip(":")
    if value and "/" in value and not value.startswith("/"):
        return value
    try:
        target = Path("/etc/localtime").resolve()
        parts = target.parts
        if "zoneinfo" in parts:
            return "/".join(parts[parts.index("zoneinfo") + 1 :])
    except OSError:
        pass
    return dt.datetime.now().astimezone().tzname() or "local time"
