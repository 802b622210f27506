"""The numbers tool results hold, by record: what the groundedness check may trace an answer's numbers to.

A record is one row of a table result (``{"columns", "rows"}``), or one object result with everything
nested in it, or one text (an error sentence, the system prompt). Each record keeps its numbers by column
or key, and its labels: the words in it (a city, a product, the month of a date) by which an answer can
name it. Pure: texts in, records out.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from analytics_agent.agent.numbers import extract_numbers

_TABLE_KEYS = ("columns", "rows")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")  # fmt: skip
MAX_LABEL_CHARS = 120


@dataclass
class Record:
    numbers: dict[str, list[float]] = field(default_factory=dict)
    """Absolute values by column or key ("" for numbers with no key, such as a list's length)."""
    labels: set[str] = field(default_factory=set)
    """Lower-case words that name the record."""
    in_table: bool = False
    """A row of a table result: one of possibly many, paired with other rows only when cited."""

    def add(self, key: str, value: float) -> None:
        self.numbers.setdefault(key, []).append(value)

    def values(self) -> list[float]:
        return [v for values in self.numbers.values() for v in values]


def records_of(contents: Iterable[str]) -> list[Record]:
    records: list[Record] = []
    for content in contents:
        records.extend(_records(content))
    return records


def _records(content: str) -> list[Record]:
    try:
        value = json.loads(content)
    except ValueError:
        text = Record()
        for mention in extract_numbers(content):
            text.add("", mention.value)
        return [text]
    if isinstance(value, dict) and all(isinstance(value.get(k), list) for k in _TABLE_KEYS):
        return _table(value)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        head = Record()
        head.add("", float(len(value)))
        return [head, *(_object(item) for item in value)]
    return [_object(value)]


def _table(value: dict[str, Any]) -> list[Record]:
    names = [str(c) for c in value["columns"]]
    rows = []
    for row in value["rows"]:
        record = Record(in_table=True)
        for name, cell in zip(names, row if isinstance(row, list) else [row], strict=False):
            _leaves(cell, name, record)
        rows.append(record)
    rest = _object({k: v for k, v in value.items() if k not in _TABLE_KEYS})  # row_count, shown, ...
    rest.add("", float(len(value["rows"])))
    for name, total in _column_totals(names, value["rows"]).items():
        rest.add(name, total)
    return [*rows, rest]


def _column_totals(names: list[str], rows: list[Any]) -> dict[str, float]:
    """Each numeric column's total over the rows: an answer says "1,033 of the 2,909 flights (35.5 %)"
    of a grouped count. In the table's own record, so the total also pairs with its column (a share of
    the total) and with the other totals (sum of distance / sum of air time)."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for row in rows:
        for name, cell in zip(names, row if isinstance(row, list) else [row], strict=False):
            if isinstance(cell, int | float) and not isinstance(cell, bool) and math.isfinite(cell):
                sums[name] = sums.get(name, 0.0) + cell
                counts[name] = counts.get(name, 0) + 1
    return {name: abs(total) for name, total in sums.items() if counts[name] > 1}


def _object(value: Any) -> Record:
    record = Record()
    _leaves(value, "", record)
    return record


def _leaves(value: Any, key: str, record: Record) -> None:
    """Every number under ``value`` (numbers written in strings too, and list lengths: a model may count
    rows) into ``record`` under its key; every string as a label."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        if math.isfinite(value):
            record.add(key, abs(float(value)))
    elif isinstance(value, str):
        record.labels.update(_labels(value))
        for mention in extract_numbers(value):
            record.add(key, mention.value)
    elif isinstance(value, list):
        record.add(key, float(len(value)))
        for item in value:
            _leaves(item, key, record)
    elif isinstance(value, dict):
        for child, item in value.items():
            _leaves(item, str(child), record)


def _labels(text: str) -> list[str]:
    """A string value as an answer names it: itself, and for a date its month ("october", "oct")."""
    label = text.strip().casefold()
    if len(label) < 3 or len(label) > MAX_LABEL_CHARS:
        return []
    try:
        month = _MONTHS[dt.date.fromisoformat(label[:10]).month - 1]
    except ValueError:
        return [label]
    return [month, month[:3]]


def strings_with_digits(content: str) -> list[str]:
    """String values of a JSON result that hold digits and letters (names like "Pen Drive 64GB")."""
    try:
        value = json.loads(content)
    except ValueError:
        return []
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if (
                any(c.isdigit() for c in item)
                and any(c.isalpha() for c in item)
                and len(item) <= MAX_LABEL_CHARS
            ):
                found.add(item)
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return sorted(found)
