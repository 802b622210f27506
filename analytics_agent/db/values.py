"""Python values from DuckDB as plain JSON values a model reads without surprises. Pure."""

from __future__ import annotations

import datetime as dt
import decimal
import math
import uuid
from typing import Any

_AS_IS = frozenset({str, int, bool, type(None)})


def to_jsonable(value: Any) -> Any:
    """Dates as ISO strings, decimals as numbers, NaN as null: what a model reads without surprises."""
    if type(value) in _AS_IS:  # most values of most results, at the cost of one set lookup
        return value
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else _round(value)
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else _round(float(value))
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return str(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return f"<{len(bytes(value))} bytes>"
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [to_jsonable(v) for v in value]
    return str(value)


def _round(value: float) -> float | int:
    if value.is_integer() and abs(value) < 2**53:
        return int(value)
    # Seven significant digits, and at least two decimals: cheap in tokens, enough for any rounding a
    # question asks. A shown value ending in 5 that is not exact would round the wrong way a second time
    # (23.724999 shown as 23.725 reads as 23.73): it gets more digits until it ends in another digit.
    whole = len(str(int(abs(value)))) if abs(value) >= 1 else 0
    digits = max(7, whole + 2)
    while True:
        text = f"{value:.{digits}g}"
        shown = float(text)
        noise = abs(shown - value) <= 1e-12 * abs(value)  # 113.49999999999997 is float error for 113.5
        if noise or digits >= 17 or not text.rstrip("0").rstrip(".").endswith("5"):
            return shown
        digits += 1
