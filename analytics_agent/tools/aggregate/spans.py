"""Time between two dates of a row: ``days(ship_date - order_date)``, as a number a metric averages, a
condition compares or a group key buckets. Pure: both names are resolved through the ``Resolver`` (a
column, ``relation.column`` or a dimension) and must be dates or timestamps; the unit picks SQL from a
fixed table, so nothing of the request's text reaches SQL.

    span := ("days" | "hours" | "months" | "years") "(" name "-" name ")"

Days and hours are elapsed time (4.5 days between a noon and a midnight; whole days between two DATEs);
months and years are whole ones completed (2020-03-01 to 2024-02-29 is 3 years), as an age is counted.
A metric's column may also be a plain ``ship_date - order_date``: days.
"""

from __future__ import annotations

import re

from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.joins.fanout import row_grain
from analytics_agent.tools.aggregate.query_plan import SPAN_UNITS as UNITS
from analytics_agent.tools.aggregate.refs import Ref, Resolver
from analytics_agent.tools.aggregate.time import TEMPORAL

_NAME = r'(?:"(?:[^"]|"")+"|[A-Za-z_]\w*)(?:\.(?:"(?:[^"]|"")+"|[A-Za-z_]\w*))?'
_SPAN = re.compile(rf"^\s*({'|'.join(UNITS)})\s*\(\s*({_NAME})\s*-\s*({_NAME})\s*\)\s*$", re.I)
_SECONDS = {"days": 86400.0, "hours": 3600.0}


def resolve(refs: Resolver, name: str, where: str, *, bucket: bool = False) -> Ref:
    """A span as a number, or any other name as ``refs`` resolves it. ``bucket``: whole units, for a
    group key (elapsed days between timestamps are fractions)."""
    match = _SPAN.match(name) if isinstance(name, str) else None
    if match is None:
        return refs.resolve(name, where)
    unit = match.group(1).lower()
    later, earlier = (refs.resolve(_unquoted(n), where) for n in match.group(2, 3))
    # whose rows it is a value of: the table's own when one date is its own, else the related table's
    grain = row_grain([(later.grain, later.via), (earlier.grain, earlier.via)])
    via = next((r.via for r in (later, earlier) if r.grain == grain), ()) if grain else ()
    sql = span_sql(unit, later, earlier, where, bucket=bucket)
    return Ref(sql, "", name, "DOUBLE", grain=grain, via=via)


def span_sql(unit: str, later: Ref, earlier: Ref, where: str, *, bucket: bool = False) -> str:
    for ref in (later, earlier):
        if not TEMPORAL.match(ref.type):
            raise ToolError(
                f"{where}: {unit}(a - b) needs two dates or timestamps; {ref.column} is {ref.type}"
            )
    a, b = later.sql, earlier.sql
    if unit in ("months", "years"):
        return f"date_sub('{unit[:-1]}', {b}, {a})"
    if later.type.upper() == earlier.type.upper() == "DATE":
        return f"({a} - {b})" if unit == "days" else f"(({a} - {b}) * 24)"
    sql = f"((epoch({a}) - epoch({b})) / {_SECONDS[unit]})"
    return f"floor{sql}" if bucket else sql


def _unquoted(name: str) -> str:
    parts = re.findall(r'"(?:[^"]|"")+"|[^.]+', name)
    return ".".join(p[1:-1].replace('""', '"') if p.startswith('"') else p for p in parts)
