"""Numbers with their thousands grouped (``1,234.50``, ``1'234``, ``2,018`` beside ``41``): which text columns
are columns of such numbers (``amounts.candidates`` reads them whole), and which decimal mark a file's
other amount columns show, so that one whose values read either way reads as they do. Pure."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from analytics_agent.db.amount_forms import INDIAN

_GROUPED = re.compile(
    "[+-]?(?:[0-9]{1,3}(?:[,'\u2019\u00a0\u202f ][0-9]{3})+|" + INDIAN + ")(?:[.][0-9]+)?"
    "|[+-]?[0-9]{1,3}(?:[.][0-9]{3}){2,}"
    "|[+-]?[0-9]{1,3}(?:['\u2019\u00a0\u202f ][0-9]{3})+,[0-9]+"
)
"""A number with its thousands grouped as a spreadsheet writes them (``1,234.50``, ``1'234``): a column
of such is one of numbers too, with no unit; a column of ``1,234`` alone reads both ways and is said so.
Whole numbers grouped with points count when no decimal point reads them (``1.234.567``, not ``1.234``);
``1.234,50`` is the odd-value check's, named with ``--decimal ','``; ``1 234,50`` (a space, as French
exports group) reads one way only."""


def _grouped(value: str) -> bool:
    return _GROUPED.fullmatch(value.strip(" \u00a0\u202f")) is not None


def grouped_column(values: Sequence[str]) -> bool:
    """Numbers written with their thousands grouped: some value only a grouping reads (``1,234.50``,
    ``1,234,567``, ``1'234``), or at least half of them grouped with commas alone (``1,234``, then said
    to read both ways), or two or more so grouped among whole numbers below 1,000 (units sold: ``2,018``
    beside ``41``, the grouped ones the thousands). A lone ``1,250`` among plain numbers is the odd-value
    check's. Pure."""
    grouped = [v.strip(" \u00a0\u202f") for v in values if _grouped(v)]
    sure = any("." in v or v.count(",") > 1 or not set(v).isdisjoint("'\u2019 \u00a0\u202f") for v in grouped)
    if sure or 2 * len(grouped) >= len(values) > 0:
        return True
    return len(grouped) >= 2 and all(_grouped(v) or _BELOW_THOUSAND.fullmatch(v.strip()) for v in values)


_BELOW_THOUSAND = re.compile("[+-]?[0-9]{1,3}")


def file_mark(counted: Mapping[str, tuple[int, int, int]]) -> tuple[str, str] | None:
    """The decimal mark the file's other amount columns show, and one such column (``counted``: each
    column's values, and those that read with a decimal point and with a comma): each that reads one way
    only (``119,869.20``: a point) reads the same way, and one does. Its columns of ``2,018`` then read as
    it does: one file writes its numbers one way. Pure."""
    shown: dict[str, str] = {}
    for name, (present, point_reads, comma_reads) in counted.items():
        point, comma = point_reads == present, comma_reads == present
        if present and point != comma:
            shown.setdefault("." if point else ",", name)
    return next(iter(shown.items())) if len(shown) == 1 else None
