"""A prepared statement's arguments as SQL literals, each of exactly the type DuckDB's Python client binds
the same Python value as.

DuckDB runs a statement prepared with ``PREPARE`` by ``EXECUTE name(arg := value, …)``, and that statement
takes no bound parameters of its own ("this type of statement can't be prepared"): its values are SQL text.
So this is the one place that writes a value into SQL. It knows a few types and nothing else (a value of
any other type has no literal here and the caller binds it as before): text is quoted with its quotes
doubled (DuckDB's standard strings have no other escape), numbers and days are written from Python's
own exact text. Each literal carries an explicit type, the client's own (an ``int`` is INTEGER while it fits
32 bits, then BIGINT; a ``float`` DOUBLE), so the statement binds the same types, and gives the same
result, as the query run with bound parameters.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INT32 = 2**31
_INT64 = 2**63


def execute_arguments(params: Sequence[Any] | Mapping[str, Any] | None) -> str | None:
    """``(name := literal, …)`` (or positional) for ``EXECUTE``, or None when a value has no literal here."""
    if not params:
        return ""
    if isinstance(params, Mapping):
        parts = []
        for name, value in params.items():
            text = literal(value)
            if text is None or type(name) is not str or not _NAME.fullmatch(name):
                return None
            parts.append(f"{name} := {text}")
    else:
        parts = [text for text in map(literal, params) if text is not None]
        if len(parts) != len(params):
            return None
    return f"({', '.join(parts)})"


def literal(value: Any) -> str | None:
    """``value`` as a SQL literal of the type DuckDB's Python client binds it as; None if not one of ours."""
    kind = type(value)  # exact types: a subclass (bool is an int, datetime a date) is not the same value
    if value is None:
        return "NULL"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        if -_INT32 <= value < _INT32:
            return f"CAST({value} AS INTEGER)"
        return f"CAST({value} AS BIGINT)" if -_INT64 <= value < _INT64 else None
    if kind is float:
        return f"CAST('{value!r}' AS DOUBLE)" if math.isfinite(value) else None
    if kind is str:
        # a NUL would end the statement's text early in DuckDB's parser: bound as a parameter instead
        return None if "\x00" in value else f"CAST('{value.replace(chr(39), chr(39) * 2)}' AS VARCHAR)"
    if kind is dt.date:
        return f"DATE '{value.isoformat()}'"
    return None
