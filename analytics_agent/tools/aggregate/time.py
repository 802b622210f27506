"""Time in ``aggregate``: the business time zone, day ranges and grain keys. Pure.

A TIMESTAMPTZ is an instant; which day or month it belongs to depends on the zone of the business that
asks (a New York flight at 23:30 on 31 December is a 2013 flight, though in UTC it is 2014). Such columns
are bucketed and filtered in the configured zone; TIMESTAMP and DATE columns already hold local values.
A day given to a timestamp column means the whole day: ``<= 2013-01-31`` ends at midnight after it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any

from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.query_plan import FilterPlan

if TYPE_CHECKING:  # zoneinfo: read only for a zoned column or a zone to check (~2 ms of a call's start)
    from zoneinfo import ZoneInfo

_ZONE = re.compile(r"^[A-Za-z0-9_+\-/]{1,64}$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TEMPORAL = re.compile(r"^(DATE|TIMESTAMP)", re.I)


def is_zoned(kind: str) -> bool:
    return kind.upper() in ("TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ")


def check_zone(name: str) -> ZoneInfo:
    """The zone, or ToolError; the name is later written into SQL as a literal, so it must be a plain
    IANA name (letters, digits, ``_+-/``) that the zone database knows."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not _ZONE.match(name):
        raise ToolError(f"time zone {name!r} is not an IANA name such as America/New_York")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolError(
            f"time zone {name!r} is not known; use an IANA name such as America/New_York"
        ) from None


def local(sql: str, kind: str, zone: str) -> str:
    """The column as local wall-clock time of the business zone (TIMESTAMPTZ only; others are local)."""
    return f"timezone('{zone}', {sql})" if is_zoned(kind) else sql


def day_start(day: dt.date, kind: str, zone: str) -> Any:
    """The first instant of ``day`` as the column's type compares it."""
    if kind.upper() == "DATE":
        return day
    midnight = dt.datetime.combine(day, dt.time())
    if not is_zoned(kind):
        return midnight
    from zoneinfo import ZoneInfo

    return midnight.replace(tzinfo=ZoneInfo(zone))


def day_range(first: dt.date, last: dt.date, kind: str, zone: str) -> tuple[Any, Any]:
    """``[first, last]`` as a half-open ``[start, end)`` pair: the last day is included whole."""
    return day_start(first, kind, zone), day_start(last + dt.timedelta(days=1), kind, zone)


def _as_day(value: Any) -> dt.date | None:
    if isinstance(value, str) and _DAY.match(value.strip()):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            raise ToolError(f"{value!r} is not a real calendar date") from None
    return None


def day_filter(f: FilterPlan, kind: str, zone: str) -> FilterPlan:
    """A comparison of a timestamp column with whole days, as a range in the business zone; any other
    filter unchanged. ``between`` and ``<=`` include their last day whole, ``=`` means that day."""
    if not TEMPORAL.match(kind) or kind.upper() == "DATE":
        return f
    values = f.value if f.op == "between" else [f.value]
    if f.op not in ("=", "<", "<=", ">", ">=", "between") or not isinstance(values, list):
        return f
    days = [_as_day(v) for v in values]
    if any(d is None for d in days):
        return f
    one = dt.timedelta(days=1)
    first, last = days[0], days[-1]
    assert first is not None and last is not None
    bounds = {
        "=": (first, first + one),
        "between": (first, last + one),
        "<": (None, first),
        "<=": (None, first + one),
        ">": (first + one, None),
        ">=": (first, None),
    }[f.op]
    value = [None if d is None else day_start(d, kind, zone) for d in bounds]
    return FilterPlan(f.column, "range", value, sql=f.sql, table=f.table, source=f.source)
