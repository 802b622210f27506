"""Whether a column's first values show a statistics office's marks (``stat_marks``): the test that picks
the columns counted whole, in Python's ``re`` with the patterns DuckDB's RE2 reads the whole column by.
Pure."""

import re
from collections.abc import Mapping, Sequence
from functools import cache

from analytics_agent.db.load.settle.stat_marks import COLON, FLAG_TAIL, NUMBER, STRIP
from analytics_agent.db.load.settle.stat_symbols import MISSING


@cache
def _first() -> dict[str, re.Pattern[str]]:
    """The first values' reading, in Python: compiled on first use (the odd values' check of a column of
    numbers imports this module and reads none: 0.8 ms)."""
    return {
        "number": re.compile(f"(?:{NUMBER['.']})|(?:{NUMBER[',']})"),
        "colon": re.compile(COLON),
        "tail": re.compile(FLAG_TAIL),
        "strip": re.compile(STRIP),
    }


_MISSING = frozenset(MISSING)


def _marked(value: str) -> bool | None:
    """Whether a first value is an office's mark (a symbol, a flagged number), False for a plain number,
    None for any other value. Pure."""
    text, first = value.strip(" "), _first()
    if text in _MISSING or first["colon"].fullmatch(text):
        return True
    if first["number"].fullmatch(text):
        return False
    core = first["strip"].sub("", text).rstrip(" ")
    if core != text and first["tail"].search(text) and first["number"].fullmatch(core):
        return True
    return None


def marked_columns(probe: Mapping[str, Sequence[str]]) -> list[str]:
    """The columns whose first values are numbers, flagged numbers or symbols, some of them marked: only
    these are counted whole. Pure."""
    found = []
    for name, values in probe.items():
        marks = [_marked(v) for v in values]
        if marks and None not in marks and any(marks):
            found.append(name)
    return found
