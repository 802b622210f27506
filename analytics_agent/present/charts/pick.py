"""Choose a chart from a result's shape, without asking a model. Pure: columns and rows in, a spec out.

- A date column and a number column: a line over time (dates sorted ascending; rows without a date are
  left out and the note says how many). A second text column with a few values becomes one line each.
- A text column and a number column: bars, one per category, in the result's order (a ranking stays a
  ranking). More than ``MAX_BARS`` categories: the top ones by value, and the note says so; more than
  ``MAX_CATEGORIES``: no chart (it is a list, not a ranking).
- Two text columns whose values repeat alone but not together (carrier and origin): one bar per pair.
- One row, no number column, no date or text column, or only empty values: no chart, and
  ``no_chart_reason`` says which of these it was.

The measure drawn is the one the rows are sorted by, else the first that reads like money or a count
(revenue, amount, total …), else the first number column. Others join a line only if they share its unit
and scale, so a chart never squeezes orders (thousands) against revenue (millions) on one axis; the note
names every measure left out and why, and the HTML page's table keeps every column.

A result cut at its row limit (``total`` more than the rows given) is never drawn as if complete: the
title says "first 50 of 365 days" (or last, or which rows when the rows were in no date order).
"""

from __future__ import annotations

import itertools
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


def result_total(text: str) -> int | None:
    """A row result's ``row_count`` (all matching rows, shown or not), or None when it has none."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    count = data.get("row_count") if isinstance(data, dict) else None
    return count if isinstance(count, int) and not isinstance(count, bool) else None


def pick_chart(
    columns: Sequence[str], rows: Sequence[Sequence[Any]], *, title: str = "", total: int | None = None
) -> ChartSpec | None:
    """The chart that shows this result, or None when a chart would not help. ``total``: how many rows
    the result had before it was cut to ``rows`` (its ``row_count``)."""
    spec, _ = _choose(columns, rows, title, total)
    return spec


def no_chart_reason(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Why this result makes no chart, in words a user can act on ("" when it makes one)."""
    return _choose(columns, rows, "", None)[1]


def _choose(columns, rows, title: str, total: int | None) -> tuple[ChartSpec | None, str]:
    if not columns or len(rows) < 2:
        return None, "a chart needs two or more rows"
    kinds = {c: _kind(c, [r[i] for r in rows]) for i, c in enumerate(columns)}
    dates = [c for c in columns if kinds[c] == "date"]
    texts = [c for c in columns if kinds[c] == "text"]
    measures = [c for c in columns if kinds[c] == "number" and not _NOT_MEASURES.search(c.lower())]
    if not measures:
        return None, "the result has no number column to draw (ids, ranks and date parts are not measures)"
    table = [dict(zip(columns, r, strict=False)) for r in rows]
    if dates:
        spec = _line(table, dates[0], texts, measures, title, total)
        reason = (
            f"{dates[0]} repeats and no text column with at most {MAX_SERIES} values tells the lines apart"
        )
    elif texts:
        spec, reason = _bars(table, texts, measures, title, total)
    else:
        return None, "the result has no date or category column to draw the numbers against"
    if spec is None:
        return None, reason if dates or reason else "every value of the measure is empty"
    whole = (tuple(str(c) for c in columns), tuple(tuple(r) for r in rows))
    return ChartSpec(**{**spec.__dict__, "table_columns": whole[0], "table_rows": whole[1]}), ""


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


def _line(
    table, x: str, texts: list[str], measures: list[str], title: str, total: int | None
) -> ChartSpec | None:
    given = [str(r[x]) for r in table if r[x] is not None]
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
        drawn = [primary]
    else:
        drawn = _companions(primary, measures, dated)
        series = tuple(Series(m, tuple(_number(r[m]) for r in dated)) for m in drawn)
    if not any(v is not None for s in series for v in s.values):
        return None
    notes = [f"{left_out} row{'s' if left_out != 1 else ''} without a {x} left out"] if left_out else []
    notes += _left_out_measures(measures, drawn, primary, "line")
    cut = _cut(given, len(table), total, _grain(labels) if len(labels) == len(dated) else "rows")
    return ChartSpec(
        kind="line", title=(title or f"{primary} by {by}") + cut, x_label=x, y_label=primary,
        labels=tuple(labels), series=series, unit=_unit(primary), note="; ".join(notes),
    )  # fmt: skip


def _cut(given: list[str], shown: int, total: int | None, unit: str) -> str:
    """ ", first 50 of 365 days" when the tool cut the result; which 50 from the order the rows came in."""
    if total is None or total <= shown:
        return ""
    if given == sorted(given):
        which = "first "
    elif given == sorted(given, reverse=True):
        which = "last "
    else:
        which = ""
    return f" ({which}{shown} of {total} {unit}; the result was cut)"


def _grain(labels: list[str]) -> str:
    """What one point is: days, weeks, months, quarters or years when the dates step evenly, else rows."""
    import datetime as dt

    if all(len(x) == 4 for x in labels):
        return "years"
    try:
        days = [dt.date.fromisoformat(x[:10]) for x in labels]
    except ValueError:
        return "rows"
    if any(len(x) > 10 and x[10:].strip("T 0:") for x in labels):
        return "rows"  # times of day: not a calendar grain
    steps = {(b - a).days for a, b in itertools.pairwise(days)}
    if steps <= {1}:
        return "days"
    if steps <= {7}:
        return "weeks"
    if all(d.day == 1 for d in days):
        months = {(b.year - a.year) * 12 + b.month - a.month for a, b in itertools.pairwise(days)}
        if months <= {1}:
            return "months"
        if months <= {3}:
            return "quarters"
        if months <= {12}:
            return "years"
    return "rows"


def _left_out_measures(measures: list[str], drawn: list[str], primary: str, kind: str) -> list[str]:
    """The note naming the measures a chart does not draw, and why, so none disappears silently."""
    rest = [m for m in measures if m not in drawn]
    if not rest:
        return []
    names = ", ".join(rest)
    if kind == "bar":
        return [f"not drawn: {names} (bars show one measure: {primary})"]
    return [f"not drawn: {names} (another unit or scale than {primary})"]


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


def _bars(
    table, texts: list[str], measures: list[str], title: str, total: int | None
) -> tuple[ChartSpec | None, str]:
    if len(table) > MAX_CATEGORIES:
        return None, f"{len(table)} categories are a list, not a chart (at most {MAX_CATEGORIES})"
    keys = _category_key(table, texts)
    if keys is None:
        named = texts[0] if len(texts) == 1 else " and ".join(texts)
        return None, f"{named} repeat{'s' if len(texts) == 1 else ''}: no category column names each row once"
    measure = _primary(measures, table)
    label_of = {id(r): " · ".join("(null)" if r[k] is None else str(r[k]) for k in keys) for r in table}
    rows = list(table)
    notes = []
    if len(rows) > MAX_BARS:
        ranked = sorted(rows, key=lambda r: (_number(r[measure]) is None, -(_number(r[measure]) or 0)))
        rows = ranked[:MAX_BARS]
        notes.append(f"top {MAX_BARS} of {len(table)} by {measure}")
    values = tuple(_number(r[measure]) for r in rows)
    if all(v is None for v in values):
        return None, f"every value of {measure} is empty"
    notes += _left_out_measures(measures, [measure], measure, "bar")
    x = " · ".join(keys)
    cut = (
        f" ({len(table)} of {total} rows; the result was cut)"
        if total is not None and total > len(table)
        else ""
    )
    return ChartSpec(
        kind="bar", title=(title or f"{measure} by {x}") + cut, x_label=x, y_label=measure,
        labels=tuple(label_of[id(r)] for r in rows), series=(Series(measure, values),), unit=_unit(measure),
        note="; ".join(notes),
    ), ""  # fmt: skip


def _category_key(table, texts: list[str]) -> list[str] | None:
    """The text column that names each row once, else the first pair of text columns that does."""
    for key in ([texts[0]], *([texts[0], t] for t in texts[1:])):
        if len({tuple(r[k] for k in key) for r in table}) == len(table):
            return key
    return None


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
