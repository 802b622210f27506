"""Which column types hold one plain value, and which hold many (lists, structs, maps, unions). Pure.

``aggregate`` groups and compares values; a list or map column there makes DuckDB hash or compare every
item of every value (a Parquet list column took 16 s and 3 GB for one ``max``), and a model can only read
the result cut short anyway. So those columns are refused by name, with what to do instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from analytics_agent.errors import ToolError

_NESTED = re.compile(r"(\[\d*\])$|^(STRUCT|MAP|UNION|VARIANT)\b", re.IGNORECASE)
COUNT_ONLY_FNS = frozenset({"count", "pct"})


def is_nested(type_name: str) -> bool:
    return bool(_NESTED.search(type_name.strip()))


def refuse_nested(where: str, column: str, type_name: str, table: str, types: Mapping[str, str]) -> None:
    """ToolError if ``column`` holds lists, structs or maps, naming the plain columns of ``table``."""
    if is_nested(type_name):
        plain = [c for c, t in types.items() if not is_nested(t)]
        raise ToolError(
            f"{where}: {column} is {type_name}, a list/struct/map value that cannot be grouped or "
            f"compared; count it instead, or use a plain column of {table}: {', '.join(plain) or 'none'}"
        )


def kind_family(kind: str) -> str:
    """Which types compare without surprise: numbers, dates and times, booleans, or text."""
    upper = kind.upper()
    if upper.startswith(("DATE", "TIME")):
        return "temporal"
    if upper == "BOOLEAN":
        return "boolean"
    numeric = ("INT", "DOUBLE", "FLOAT", "DECIMAL", "REAL", "NUMERIC", "HUGEINT")
    return "number" if any(n in upper for n in numeric) else "text"
