"""A date made of integer parts: ``year``, ``month``, ``day`` (and ``hour``) columns stand for a time
column, so a table with only parts can still be bucketed by month, compared year against year or grouped
by weekday in one call. Pure: found from the column names and types alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from analytics_agent.db.catalog import quote_ident

_INTEGER = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT)", re.I)
PARTS = ("year", "month", "day", "hour")


@dataclass(frozen=True)
class PartsDate:
    name: str
    """The name it is asked by: ``date``, or ``date_from_parts`` when the table has a ``date`` column."""
    sql: str
    type: str
    grain: str
    """The finest part it has: year, month, day or hour (periods must hold whole ones)."""
    columns: tuple[str, ...]

    def describe(self) -> str:
        return f"{self.name} ({self.type} from {', '.join(self.columns)})"


def parts_date(columns: Mapping[str, str], alias: str = "t") -> PartsDate | None:
    """The date the integer part columns make, or None without an integer ``year`` column. Parts follow
    one another (year, month, day, hour): a ``day`` without ``month`` is not used. An impossible date
    (month 13) is NULL, not an error for the whole query."""
    found: dict[str, str] = {}
    for name, kind in columns.items():
        if name.lower() in PARTS and _INTEGER.match(kind) and name.lower() not in found:
            found[name.lower()] = name
    used = []
    for part in PARTS:
        if part not in found:
            break
        used.append(found[part])
    if not used:
        return None
    if len(used) == 1 and "quarter" in quarters(columns):
        return _quarter_date(columns, used[0], quarters(columns)["quarter"], alias)

    def col(i: int, default: str) -> str:
        return f"CAST({alias}.{quote_ident(used[i])} AS BIGINT)" if i < len(used) else default

    y, m, d = col(0, "1"), col(1, "1"), col(2, "1")
    if len(used) == 4:
        sql, kind = f"try(make_timestamp({y}, {m}, {d}, {col(3, '0')}, 0, 0))", "TIMESTAMP"
    else:
        sql, kind = f"try(make_date({y}, {m}, {d}))", "DATE"
    name = "date_from_parts" if "date" in {c.lower() for c in columns} else "date"
    return PartsDate(name, sql, kind, PARTS[len(used) - 1], tuple(used))


def quarters(columns: Mapping[str, str]) -> dict[str, str]:
    """An integer ``quarter`` column (1-4), by its lower-case name."""
    return {n.lower(): n for n, k in columns.items() if n.lower() == "quarter" and _INTEGER.match(k)}


def _quarter_date(columns: Mapping[str, str], year: str, quarter: str, alias: str) -> PartsDate:
    """``year`` and ``quarter`` (and no month): the quarter's first day, so 2015 Q3 is 2015-07-01, not one
    row per year labelled Q1. A quarter outside 1-4 makes no date (NULL)."""
    y, q = (f"CAST({alias}.{quote_ident(c)} AS BIGINT)" for c in (year, quarter))
    sql = f"try(CASE WHEN {q} BETWEEN 1 AND 4 THEN make_date({y}, 3 * {q} - 2, 1) END)"
    name = "date_from_parts" if "date" in {c.lower() for c in columns} else "date"
    return PartsDate(name, sql, "DATE", "quarter", (year, quarter))
