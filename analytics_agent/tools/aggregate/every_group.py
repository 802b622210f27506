"""The grouping level of a grouped period comparison that reads only the rows of its two periods, yet
keeps every group. Pure: SQL fragments in, SQL text out.

Grouped, a comparison shows every group that has a row passing the filters, also one with no row in
either period (0 or NULL, not gone). Grouping every row with the periods only in each metric's FILTER
gives that, but reads the whole table. Here the groups come from a DISTINCT over the keys (reading only
the key and filter columns), the metrics from the rows of either period (which lets DuckDB skip row
groups by their zone maps), joined back on the keys. A group with no row in either period takes each
metric's value over no rows, computed by the same expressions over an empty input, so a count is 0, a sum
NULL and an expression metric whatever its arithmetic makes of those, as when every row is grouped.

It pays when the groups are few: the DISTINCT then costs little (16 ms on 10M orders) and the metrics'
FILTERs run on two months of rows, not all (revenue by channel, September against August: 121 -> 47 ms
of CPU). With many groups the DISTINCT costs about what grouping every row does, so the query reads more
(30,000 groups 1.14x, 1.4M groups 1.45x the one-pass CPU for a count): ``few_groups`` decides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from analytics_agent.db.catalog import quote_ident
from analytics_agent.tools.aggregate.query_plan import PART_LABELS, KeyPlan

FEW_GROUPS = 1_000
"""Groups up to which ``every_group`` was measured faster than grouping every row (10M orders, 1,000 groups:
0.72-0.76x CPU; 30,000: 0.87-1.14x)."""
_PART_SIZES = {"hour": 24, **{grain: len(labels) for grain, labels in PART_LABELS.items()}}

_JOINED = re.compile(r'\br\d+\."')
"""A column of a joined table as ``refs`` writes it (``r1."region"``); may also match inside an odd quoted
name, which only costs the faster query, never a wrong one."""

HIT = quote_ident("in periods")
"""Marks the groups with a row in either period; a space no output name can hold, so it meets none."""


def few_groups(keys: Sequence[KeyPlan], listed: Mapping[str, int]) -> bool:
    """Whether the groups are known to be at most ``FEW_GROUPS``: each key a numbered date part (weekday,
    hour, month of year) or a column of the table whose profile lists its values (``listed``: column to
    number of values); any other key (an id, a number, a day) may have millions."""
    count = 1
    for k in keys:
        size = _PART_SIZES.get(k.grain or "") if k.grain else listed.get(k.alias)
        if size is None or (not k.grain and k.sql != f"t.{quote_ident(k.alias)}"):
            return False
        count *= size + 1  # and NULL
    return count <= FEW_GROUPS


def reads_joins(texts: Sequence[str]) -> bool:
    """Whether any of these SQL fragments reads a column of a joined table."""
    return any(_JOINED.search(t) for t in texts)


def every_group(
    keys: Sequence[str],
    metrics: Sequence[tuple[str, str]],
    *,
    table: str,
    source: str,
    kept: str,
    periods: str,
) -> str:
    """One row per group of ``table`` rows meeting ``kept`` (keys that read no joined table), with each
    metric (expression, quoted name) over the rows of ``source`` meeting ``kept`` and ``periods``. The
    columns are named as the one-pass grouping names them: ``_k0``... then the metrics."""
    names = [quote_ident(f"_k{i}") for i in range(len(keys))]
    keyed = [f"{k} AS {n}" for k, n in zip(keys, names, strict=True)]
    measured = [f"{e} AS {n}" for e, n in metrics]
    rows = " AND ".join(f"({c})" for c in (kept, periods) if c)
    groups = f"SELECT DISTINCT {', '.join(keyed)} FROM {table} AS t" + (f" WHERE {kept}" if kept else "")
    hit = (
        f"SELECT {', '.join([*keyed, *measured])}, TRUE AS {HIT} FROM {source} WHERE {rows} "
        f"GROUP BY {', '.join(str(i) for i in range(1, len(keys) + 1))}"
    )
    empty = f"SELECT {', '.join(measured)} FROM {source} WHERE FALSE"  # one row: each metric over no rows
    on = " AND ".join(f"h.{n} IS NOT DISTINCT FROM k.{n}" for n in names)
    columns = [f"k.{n}" for n in names] + [
        f"CASE WHEN h.{HIT} THEN h.{n} ELSE e.{n} END AS {n}" for _, n in metrics
    ]
    return (
        f"SELECT {', '.join(columns)} FROM ({groups}) AS k LEFT JOIN ({hit}) AS h ON {on} "
        f"CROSS JOIN ({empty}) AS e"
    )
