"""A result's columns and rows as a pyarrow, pandas or polars table, when that library is installed."""

from __future__ import annotations

import importlib
from typing import Any

from analytics_agent.errors import ExportError


def _module(name: str, method: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise ExportError(f"{method}() needs {name}, which is not installed: pip install {name}") from None


def to_arrow(columns: list[str], rows: list[list[Any]]) -> Any:
    pa = _module("pyarrow", "to_arrow")
    return pa.table({name: [row[i] for row in rows] for i, name in enumerate(_unique(columns))})


def to_pandas(columns: list[str], rows: list[list[Any]]) -> Any:
    pd = _module("pandas", "to_pandas")
    return pd.DataFrame(rows, columns=columns)


def to_polars(columns: list[str], rows: list[list[Any]]) -> Any:
    pl = _module("polars", "to_polars")
    return pl.DataFrame(rows, schema=_unique(columns), orient="row")


def _unique(columns: list[str]) -> list[str]:
    """Column names a table library accepts: a repeated name gets ``_2``, ``_3`` (a join can repeat one)."""
    seen: dict[str, int] = {}
    names = []
    for name in columns:
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return names
