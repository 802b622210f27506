"""Morning and afternoon marks of 12-hour times in other forms than ``AM``/``PM`` after the time: Chinese
``上午``/``下午`` and Korean ``오전``/``오후`` written between the date and the time (a Taiwanese bank's
``2024/08/01 下午 03:15:22``, Korean Excel's ``2024. 8. 1. 오후 3:15:22``), Japanese ``午前``/``午後``, and
``a.m.``/``p.m.`` (Spanish ``a. m.``/``p. m.``, often with a no-break space) after the time. DuckDB's
``strptime`` reads ``AM``/``PM`` after the time only, so such a column stayed text. A text timestamp
column whose first values hold them is read with the mark written as ``AM``/``PM`` after the time, in SQL,
the stored text left as written unless the column converts; the hour must then be 1 to 12 (``%I``), so
``下午 15:00`` or ``上午 00:10`` keep the column text. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence

_AM = ("上午", "午前", "오전")
_PM = ("下午", "午後", "오후")
_SPACE = "[ \u00a0\u202f]"
"""A space, a no-break space or a narrow one (Windows and ICU write ``p.\u00a0m.``)."""
_TIME = r"(\d{1,2}:\d{2}(?::\d{2})?)"


def _pattern(words: Sequence[str], letter: str) -> str:
    """The mark before or after a time at a value's end, its spaces around it (RE2 and Python alike)."""
    mark = f"(?:{'|'.join(words)}|{letter}\\.{_SPACE}?m\\.)"
    return f"(?i){_SPACE}*(?:{mark}{_SPACE}*{_TIME}|{_TIME}{_SPACE}*{mark})$"


_HALVES = (("AM", _pattern(_AM, "a")), ("PM", _pattern(_PM, "p")))
_ENDS = tuple((half, pattern.replace("$", r"\Z")) for half, pattern in _HALVES)
"""``_HALVES`` for Python's ``re``, whose ``$`` also matches before a last line break (RE2's does not)."""
_MARK = f"(?i)({'|'.join(_AM + _PM)}|[ap]\\.{_SPACE}?m\\.)"


def day_halves(values: Sequence[str]) -> list[str]:
    """The distinct marks ``values`` write before or after a time at their end (``['上午', '下午']``), in
    order of first use; none when the first value holds none. A value without one is left to the formats
    to refuse, said with the others' marks. Pure."""
    found: list[str] = []
    for i, value in enumerate(values):
        if not any(re.search(pattern, value) for _, pattern in _ENDS):
            if i == 0:
                return []
            continue
        mark = re.search(_MARK, value)
        written = re.sub(_SPACE, " ", mark[0]) if mark else ""  # ``p.\u00a0m.`` said as ``p. m.``
        if written and written not in found:
            found.append(written)
    return found


def with_am_pm(value: str) -> str:
    """``value`` with its mark written as ``AM``/``PM`` after the time (``2024/08/01 下午 03:15:22`` ->
    ``2024/08/01 03:15:22 PM``), as ``am_pm_sql`` writes it. Pure."""
    for half, pattern in _ENDS:
        value = re.sub(pattern, f" \\1\\2 {half}", value)  # an unmatched group is empty, as in RE2
    return value


def am_pm_sql(expr: str) -> str:
    """SQL: the text ``expr`` as ``with_am_pm`` writes it."""
    for half, pattern in _HALVES:
        expr = f"regexp_replace({expr}, '{pattern}', ' \\1\\2 {half}')"
    return expr


def halves_said(marks: Sequence[str]) -> str:
    """The note's words for the marks a column writes: a pair past ASCII both (``上午/下午 read as AM/PM``:
    the first rows may be mornings only), ``a.m.`` and ``p.m.`` as written. Pure."""
    words: list[str] = []
    for mark in marks:
        pair = next((f"{am}/{pm}" for am, pm in zip(_AM, _PM, strict=True) if mark in (am, pm)), mark)
        if pair not in words:
            words.append(pair)
    halves = "AM/PM" if "/" in words[0] else "/".join(_half(m) for m in words)
    return f"{' and '.join(words)} read as {halves}"


def _half(mark: str) -> str:
    return "AM" if mark[:1].lower() == "a" else "PM"


def twelve_hour_fault(value: str) -> str:
    """Why ``value`` is no 12-hour time with its mark (its hour 1 to 12, as ``%I`` reads it); ``""`` when
    it is one. Pure."""
    read = re.search(r"(\d{1,2}):\d{2}(?::\d{2})? [AP]M$", with_am_pm(value))
    if read is None:
        return "its time has no morning or afternoon mark"
    if not 1 <= int(read[1]) <= 12:
        return f"a time with a morning or afternoon mark has an hour from 1 to 12, not {read[1]}"
    return ""


def clock(value: str) -> str:
    """The 24-hour time a value with its mark reads as (``2024/08/16 下午 11:12:54`` -> ``23:12:54``;
    ``上午 12:05`` is ``00:05``); ``value`` itself when it holds no 12-hour time. Pure."""
    read = re.search(r"(\d{1,2}):(\d{2}(?::\d{2})?) ([AP])M$", with_am_pm(value))
    if read is None:
        return value
    hour = int(read[1]) % 12 + (12 if read[3] == "P" else 0)
    return f"{hour:02d}:{read[2]}"


def unread_note(name: str, values: Sequence[str], marks: Sequence[str]) -> str:
    """The note of a column of timestamps with morning and afternoon marks whose times do not read as
    12-hour ones (``下午 15:00``): it stays text, and why. Pure."""
    example = next((v for v in values if twelve_hour_fault(v)), values[0])
    why = twelve_hour_fault(example) or "its date is in a form not recognised"
    return (
        f"{name} looks like 12-hour timestamps ({'/'.join(marks)}, e.g. {example!r}) but {why}; it stayed "
        "text, as reading it would be a guess"
    )
