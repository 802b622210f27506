"""Which column types hold one plain value, and which hold many (lists, structs, maps, unions). Pure.

``aggregate`` groups and compares values; a list or map column there makes DuckDB hash or compare every
item of every value (a Parquet list column took 16 s and 3 GB for one ``max``), and a model can only read
the result cut short anyway. So those columns are refused by name, with what to do instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from analytics_agent.errors import ToolError

_NESTED = re.compile(r"(\[\d*\])$|^(STRUCT|MAP|UNION|VARIANT)\b", re.IGNORECASE)
COUNT_ONLY_FNS = frozenset({"count"})


def is_nested(type_name: str) -> bool:
    return bool(_NESTED.search(type_name.strip()))


def refuse_nested_columns(
    table: str,
    types: Mapping[str, str],
    *,
    metrics: Iterable[tuple[str, str | None]],
    group_by: Iterable[str],
) -> None:
    """ToolError naming the first list/struct/map column used where only a plain value works: any
    metric but ``count``, or a group."""
    uses = [(f"metrics: {fn}", c) for fn, c in metrics if c is not None and fn not in COUNT_ONLY_FNS]
    uses += [("group_by", c) for c in group_by]
    for where, column in uses:
        if is_nested(types[column]):
            plain = [c for c, t in types.items() if not is_nested(t)]
            raise ToolError(
                f"{where}: {column} is {types[column]}, a list/struct/map value that cannot be grouped or "
                f"compared; count it instead, or use a plain column of {table}: {', '.join(plain) or 'none'}"
            )
