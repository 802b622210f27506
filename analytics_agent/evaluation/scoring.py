"""Is an answer right? Pure: a case, its expected values and an answer in; a verdict with its reason out.

Numbers are compared format-insensitively with the same reader as the groundedness check: an expected
4798 is found in "₹4,798", "4798.0" or "4.8k" (at the precision the answer writes), 23.7 in "23.7 %".
A case's ``tolerance`` widens that to a relative difference. Strings are found case-insensitively, and an
ISO date also as "24 Oct 2026", "October 24" and the like.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analytics_agent.agent.grounding import matches
from analytics_agent.agent.numbers import extract_numbers
from analytics_agent.db.values import to_jsonable
from analytics_agent.evaluation.cases import Case, Value

# What an answer says when the data cannot answer: any of these (with no invented number) is a pass.
NO_ANSWER_PHRASES = (
    "no data", "not in the data", "no orders", "no order", "no record", "no sales", "no revenue", "no such",
    "not available", "unavailable", "don't have", "do not have", "doesn't have", "does not have",
    "doesn't include", "does not include", "don't track", "not tracked", "not recorded", "no information",
    "cannot", "can't", "unable", "not found", "isn't", "is not", "only covers", "only has", "only from",
    "outside", "no cost", "no matching", "none",
)  # fmt: skip
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December")  # fmt: skip


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str
    """Empty for a right, grounded answer; otherwise what was wrong, then any unverified numbers."""


def expected_values(case: Case, sql_rows: Sequence[Sequence[Any]]) -> list[Value]:
    """The literal ``expect`` values, then every cell of the case's SQL result (NULLs left out)."""
    cells = [to_jsonable(v) for row in sql_rows for v in row if v is not None]
    return [*case.expect, *(c if isinstance(c, int | float | str) else str(c) for c in cells)]


def judge(case: Case, expected: Sequence[Value], answer: str, unverified: Sequence[str]) -> Verdict:
    """Right when every expected value appears, no forbidden one does, one of ``expect_any`` does, and
    (for a question the data cannot answer) the answer says so without an unverified number."""
    problems = []
    missing = [v for v in expected if not appears(v, answer, tolerance=case.tolerance)]
    if missing:
        problems.append("missing " + ", ".join(_show(v) for v in missing))
    forbidden = [v for v in case.forbid if appears(v, answer, tolerance=case.tolerance)]
    if forbidden:
        problems.append("says forbidden " + ", ".join(_show(v) for v in forbidden))
    wanted = case.expect_any or (list(NO_ANSWER_PHRASES) if case.no_answer else [])
    if wanted and not any(appears(w, answer, tolerance=None) for w in wanted):
        shown = wanted[:3] if case.expect_any else ["no data", "not available", "..."]
        problems.append("says none of " + ", ".join(_show(w) for w in shown))
    if case.no_answer and unverified:
        problems.append("invents a number the data does not hold")
    notes = problems + (["unverified: " + "; ".join(unverified)] if unverified else [])
    return Verdict(passed=not problems, reason="; ".join(notes))


def appears(value: Value, answer: str, *, tolerance: float | None) -> bool:
    """Whether ``value`` is in ``answer``: numbers by value (strings that are one number too), dates in
    any common form, other strings case-insensitively."""
    number = _as_number(value)
    if number is not None:
        return any(_close(m, number, tolerance) for m in extract_numbers(answer))
    text = _squash(str(value))
    haystack = _squash(answer)
    if _ISO_DATE.match(text):
        return any(_squash(form) in haystack for form in _date_forms(dt.date.fromisoformat(text)))
    return text in haystack


def _as_number(value: Value) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        return None
    mentions = extract_numbers(value)
    if len(mentions) == 1 and mentions[0].text == value.strip():
        return mentions[0].value
    return None


def _close(mention: Any, number: float, tolerance: float | None) -> bool:
    if matches(mention, number):
        return True
    return tolerance is not None and abs(mention.value - abs(number)) <= tolerance * abs(number)


def _date_forms(day: dt.date) -> list[str]:
    month = _MONTHS[day.month - 1]
    short = month[:3]
    return [
        day.isoformat(),
        f"{day.day} {month}",
        f"{day.day} {short}",
        f"{month} {day.day}",
        f"{short} {day.day}",
    ]


def _squash(text: str) -> str:
    return " ".join(text.casefold().replace("’", "'").split())


def _show(value: Value) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value) if isinstance(value, float) else repr(value)
