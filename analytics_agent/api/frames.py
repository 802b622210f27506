"""A result's columns and rows as a pyarrow, pandas or polars table, when that library is installed.

A result is the JSON a model reads, where a date is ISO text; a table library should get the values it
means. A column becomes dates (``datetime64`` in pandas) only when every value in it is ISO text of one
form: all ``YYYY-MM-DD`` (a DATE, a period's first day), or all ``YYYY-MM-DD HH:MM:SS[.f][+HH:MM]`` (a
TIMESTAMP, zoned when every value carries an offset). Numbers stay numbers, nested values (an object
result's ``by_status``) stay dicts and lists, anything else stays as it is.
"""

from __future__ import annotations

import datetime as dt
import importlib
import re
from typing import Any

from analytics_agent.errors import ExportError

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?")
_ZONED = re.compile(_STAMP.pattern + r"[+-]\d{2}(:\d{2}){1,2}")


def _module(name: str, method: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise ExportError(f"{method}() needs {name}, which is not installed: pip install {name}") from None


def typed_columns(columns: list[str], rows: list[list[Any]]) -> dict[str, list[Any]]:
    """Each column's values, dates and timestamps as ``datetime`` objects (see the module's rule)."""
    return {name: _typed([row[i] for row in rows]) for i, name in enumerate(_unique(columns))}


def _typed(values: list[Any]) -> list[Any]:
    present = [v for v in values if v is not None]
    if not present or not all(isinstance(v, str) for v in present):
        return values
    for pattern, parse in ((_DATE, dt.date.fromisoformat), (_STAMP, _stamp), (_ZONED, _stamp)):
        if all(pattern.fullmatch(v) for v in present):
            try:
                return [None if v is None else parse(v) for v in values]
            except ValueError:  # 2026-02-30 has the form of a date and is none: the column stays text
                return values
    return values


def _stamp(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def to_arrow(columns: list[str], rows: list[list[Any]]) -> Any:
    pa = _module("pyarrow", "to_arrow")
    return pa.table(typed_columns(columns, rows))


def to_pandas(columns: list[str], rows: list[list[Any]]) -> Any:
    pd = _module("pandas", "to_pandas")
    data = {}
    for name, values in typed_columns(columns, rows).items():
        data[name] = _pandas_column(pd, values)
    return pd.DataFrame(data, columns=list(data))


def _pandas_column(pd: Any, values: list[Any]) -> Any:
    """pandas keeps ``datetime.date`` objects as object dtype; a date column becomes ``datetime64``."""
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, dt.date) for v in present):
        zoned = any(isinstance(v, dt.datetime) and v.tzinfo is not None for v in present)
        return pd.to_datetime(pd.Series(values, dtype=object), utc=zoned)
    return pd.Series(values, dtype=object).infer_objects() if values else pd.Series(values)


def to_polars(columns: list[str], rows: list[list[Any]]) -> Any:
    pl = _module("polars", "to_polars")
    return pl.DataFrame(typed_columns(columns, rows))


def _unique(columns: list[str]) -> list[str]:
    """Column names a table library accepts: a repeated name gets ``_2``, ``_3`` (a join can repeat one)."""
    seen: dict[str, int] = {}
    names = []
    for name in columns:
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return names
