"""Arguments read without pydantic: the JSON decoding every call needs, and a quick check for ``.sql`` tools.

Building the first pydantic model in a process costs about as much CPU as importing DuckDB (pydantic loads
its schema machinery and scans the installed packages for plugins), which is most of what a one-call
command (``tools call sales_summary``) would spend on its own code. So a ``.sql`` tool's arguments are
first read by ``quick_values``, which only *accepts*: it returns the values when the input is plainly
valid, in canonical form, and exactly what the tool's pydantic model would produce; anything else (a
mistake, a value that needs coercion, a ``pattern`` parameter, whose regex dialect is pydantic's) returns
None and goes to the model, which stays the one source of every error message and of the JSON Schema.
``tests/tools/test_quick_args.py`` checks the "same as the model" promise on generated inputs.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Mapping
from typing import Any

from analytics_agent.errors import ArgumentError
from analytics_agent.tools.args.spec import ParamSpec

DEFAULT_STRING_MAX = 200
"""The length guard on a string parameter without its own maximum (``arguments`` checks the same)."""
PREVIOUS = "previous"
"""``aggregate``'s baseline that compares each time bucket with the one before (validated in ``arguments``)."""


def decode_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    """What the model sent as a dict: JSON text, an object, or nothing. Raises ArgumentError (one line)."""
    if raw is None:
        data: Any = {}
    elif isinstance(raw, str):
        if not raw.strip():
            data = {}
        else:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise ArgumentError(
                    f"arguments are not valid JSON ({exc.msg} at character {exc.pos}); send one JSON object"
                ) from None
            except ValueError:  # an integer past Python's digit limit (4,300 by default)
                raise ArgumentError(
                    "arguments are not valid JSON (a number is too long to read); send one JSON object"
                ) from None
            except RecursionError:
                raise ArgumentError(
                    "arguments are not valid JSON (nested too deeply to read); send one flat JSON object"
                ) from None
    else:
        data = raw
    if not isinstance(data, dict):
        raise ArgumentError(f"arguments must be a JSON object, not {type(data).__name__}")
    return data


def quick_values(
    params: tuple[ParamSpec, ...], choices: Mapping[str, tuple[str, ...]], data: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(values as the model's ``model_dump()``, values as its ``model_dump(mode="json")``) when every
    argument is plainly valid; None when the pydantic model must decide (and word any error)."""
    names = {p.name for p in params}
    if any(key not in names for key in data):
        return None
    values: dict[str, Any] = {}
    as_json: dict[str, Any] = {}
    for param in params:
        raw = data.get(param.name)
        if raw is None:
            if param.required:
                return None
            got = _default(param)
        else:
            got = _value(param, choices.get(param.name) or param.choices, raw)
        if got is None:
            return None
        values[param.name], as_json[param.name] = got
    return values, as_json


def _default(param: ParamSpec) -> tuple[Any, Any] | None:
    """A left-out optional parameter: the model keeps its default unvalidated, as declared."""
    default = param.default
    if default is None or (isinstance(default, int | float | str) and param.type not in ("date", "period")):
        return default, default
    return None  # a date or period default as text: how the model dumps it is the model's business


def _value(param: ParamSpec, choices: tuple[str, ...], raw: Any) -> tuple[Any, Any] | None:
    kind = param.type
    if kind == "date":
        day = _iso_day(raw)
        return None if day is None else (day, raw)
    if kind == "period":
        period = iso_period(raw)
        return None if period is None else (period, raw)
    if kind == "enum":
        return (raw, raw) if type(raw) is str and raw in choices else None
    if kind == "integer":
        if type(raw) is not int or not _within(raw, _whole(param.minimum), _whole(param.maximum)):
            return None
        return raw, raw
    if kind == "number":
        if (type(raw) is int and abs(raw) <= 2**53) or (type(raw) is float and math.isfinite(raw)):
            number = float(raw)
            return (number, number) if _within(number, param.minimum, param.maximum) else None
        return None
    if kind == "string":
        limit = param.max_length or DEFAULT_STRING_MAX
        return (raw, raw) if type(raw) is str and len(raw) <= limit and encodable(raw) else None
    return None  # pattern: pydantic's regex engine decides


def iso_period(raw: Any) -> tuple[dt.date, dt.date] | None:
    """``YYYY-MM-DD..YYYY-MM-DD`` exactly as the model dumps it, first day not after the last; else None."""
    if type(raw) is not str or len(raw) != 22 or raw[10:12] != "..":
        return None
    first, last = _iso_day(raw[:10]), _iso_day(raw[12:])
    if first is None or last is None or first > last:
        return None
    return first, last


def _iso_day(raw: Any) -> dt.date | None:
    """A ``YYYY-MM-DD`` text in ASCII digits that is a real day; anything else is the model's to judge."""
    if type(raw) is not str or len(raw) != 10 or raw[4] != "-" or raw[7] != "-":
        return None
    digits = raw[:4] + raw[5:7] + raw[8:]
    if not (digits.isascii() and digits.isdigit()):
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        return None


def _whole(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


def _within(value: float, low: float | None, high: float | None) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def encodable(text: str) -> bool:
    """No lone surrogate (JSON's ``\\ud800``): the model's serializer refuses those, so it decides."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
