"""Choose a chart from a result's shape, without asking a model. Pure: columns and rows in, a spec out.

- A date column and a number column: a line over time (dates sorted ascending; rows without a date are
  left out and the note says how many). A second text column with a few values becomes one line each.
- A text column and a number column: bars, one per category, in the result's order (a ranking stays a
  ranking). More than ``MAX_BARS`` categories: the top ones by value, and the note says so; more than
  ``MAX_CATEGORIES``: no chart (it is a list, not a ranking).
- One row, no number column, no date or text column, or only empty values: no chart.

The measure drawn is the one the rows are sorted by, else the first that reads like money or a count
(revenue, amount, total …), else the first number column. Others join it only if they share its unit and
scale, so a chart never squeezes orders (thousands) against revenue (millions) on one axis.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from analytics_agent.present.charts.spec import ChartSpec, Series

MAX_BARS = 20
MAX_CATEGORIES = 200
MAX_SERIES = 6
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}(:?\d{2})?|Z)?)?)?$")
_TIME_NAMES = {"year"}
_NOT_MEASURES = re.compile(r"(^|_)(rank|id|year|month|week|day|quarter)$")
_PERCENT = re.compile(r"(pct|percent|share|_rate|^rate)$")
_PREFERRED = ("revenue", "sales", "amount", "total", "sum", "value", "count", "orders", "units", "avg")


def parse_result(text: str) -> tuple[list[str], list[list[Any]]] | None:
    """The columns and rows of a tool's row result (the JSON a model reads); None for objects and errors."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("columns"), list):
        return None
    rows = data.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        return None
    return [str(c) for c in data["columns"]], rows


def pick_chart(columns: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str = "") -> ChartSpec | None:
    """The chart that shows this result, or None when a chart would not help."""
    if len(rows) < 2 or not columns:
        return None
    kinds = {c: _kind(c, [r[i] for r in rows]) for i, c in enumerate(columns)}
    dates = [c for c in columns if kinds[c] == "date"]
    texts = [c for c in columns if kinds[c] == "text"]
    measures = [c for c in columns if kinds[c] == "number" and not _NOT_MEASURES.search(c.lower())]
    if not measures:
        return None
    table = [dict(zip(columns, r, strict=False)) for r in rows]
    if dates:
        return _line(table, dates[0], texts, measures, title)
    if texts:
        return _bars(table, texts[0], measures, title)
    return None


def _kind(name: str, values: list[Any]) -> str:
    present = [v for v in values if v is not None]
    if not present:
        return "empty"
    if all(isinstance(v, str) and _DATE.match(v) for v in present):
        return "date"
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        if name.lower() in _TIME_NAMES and all(isinstance(v, int) and 1000 <= v <= 9999 for v in present):
            return "date"
        return "number"
    return "text"


def _line(table, x: str, texts: list[str], measures: list[str], title: str) -> ChartSpec | None:
    dated = sorted((r for r in table if r[x] is not None), key=lambda r: str(r[x]))
    left_out = len(table) - len(dated)
    labels = list(dict.fromkeys(str(r[x]) for r in dated))
    primary = _primary(measures, ())  # a ranking order means nothing over time
    if len(labels) < 2:
        return None
    by = f"{x}"
    if len(labels) < len(dated):  # several rows per date: one line per value of a text column
        pivot = _pivot(dated, x, texts, primary, labels)
        if pivot is None:
            return None
        key, series = pivot
        by = f"{x} and {key}"
    else:
        series = tuple(
            Series(m, tuple(_number(r[m]) for r in dated)) for m in _companions(primary, measures, dated)
        )
    if not any(v is not None for s in series for v in s.values):
        return None
    note = f"{left_out} row{'s' if left_out != 1 else ''} without a {x} left out" if left_out else ""
    return ChartSpec(
        kind="line", title=title or f"{primary} by {by}", x_label=x, y_label=primary, labels=tuple(labels),
        series=series, unit=_unit(primary), note=note,
    )  # fmt: skip


def _pivot(
    rows, x: str, texts: list[str], measure: str, labels: list[str]
) -> tuple[str, tuple[Series, ...]] | None:
    for key in texts:
        groups = list(dict.fromkeys(r[key] for r in rows))
        cells = {(str(r[x]), r[key]) for r in rows}
        if len(groups) > MAX_SERIES or len(cells) < len(rows):  # too many lines, or still not one per cell
            continue
        values = {(str(r[x]), r[key]): _number(r[measure]) for r in rows}
        return key, tuple(
            Series(str(g) if g is not None else "(null)", tuple(values.get((d, g)) for d in labels))
            for g in groups
        )
    return None


def _bars(table, x: str, measures: list[str], title: str) -> ChartSpec | None:
    names = [r[x] for r in table]
    if len(set(names)) < len(names) or len(table) > MAX_CATEGORIES:
        return None  # repeated categories need a second key to tell bars apart; too many is a list
    measure = _primary(measures, table)
    rows = list(table)
    note = ""
    if len(rows) > MAX_BARS:
        ranked = sorted(rows, key=lambda r: (_number(r[measure]) is None, -(_number(r[measure]) or 0)))
        rows = ranked[:MAX_BARS]
        note = f"top {MAX_BARS} of {len(table)} by {measure}"
    values = tuple(_number(r[measure]) for r in rows)
    if all(v is None for v in values):
        return None
    labels = tuple("(null)" if r[x] is None else str(r[x]) for r in rows)
    return ChartSpec(
        kind="bar", title=title or f"{measure} by {x}", x_label=x, y_label=measure, labels=labels,
        series=(Series(measure, values),), unit=_unit(measure), note=note,
    )  # fmt: skip


def _primary(measures: list[str], rows) -> str:
    """The measure the rows are ranked by, else the one that reads like the headline number."""
    ranked = [m for m in measures if _sorted_by(m, rows)]
    pool = ranked or measures
    for hint in _PREFERRED:
        for m in pool:
            if hint in m.lower():
                return m
    return pool[0]


def _sorted_by(measure: str, rows) -> bool:
    numbers = [_number(r[measure]) for r in rows]
    values = [v for v in numbers if v is not None]
    if len(values) < len(numbers) or len(set(values)) < 2:
        return False
    return values == sorted(values, reverse=True)


def _companions(primary: str, measures: list[str], rows) -> list[str]:
    """The primary measure plus others of the same unit and a similar scale (within 3x), at most four."""
    top = _peak(primary, rows)
    chosen = [primary]
    for m in measures:
        if m == primary or _unit(m) != _unit(primary) or len(chosen) == 4:
            continue
        peak = _peak(m, rows)
        if top and peak and 1 / 3 <= peak / top <= 3:
            chosen.append(m)
    return chosen


def _peak(measure: str, rows) -> float:
    return max((abs(v) for r in rows if (v := _number(r[measure])) is not None), default=0.0)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _unit(measure: str) -> str:
    return "%" if _PERCENT.search(measure.lower()) else ""
