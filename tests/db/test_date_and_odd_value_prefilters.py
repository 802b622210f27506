"""The plain tests put before the text-date and odd-value regexes (so a load compiles none it cannot
match) change no answer: on strings built from each regex itself (``tests.regex_examples``), the
candidates, the written-date check and the advice for odd values are those of the regexes alone, and
each plain test lets through every string its regex matches."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import pytest

from analytics_agent.db.load.settle import day_halves, odd_values, text_dates
from analytics_agent.db.load.settle.total_labels import TOTAL_LABEL
from tests.regex_examples import examples

_STAMPS = ["WRITTEN_STAMP", "NAMED_STAMP", "ZONED_STAMP", "UTC_STAMP", "YEAR_STAMP"]
_DATES = [*_STAMPS, "MONTH_PERIOD", "WRITTEN_DATE", "DATE_SHAPE"]
_VALUES = sorted(
    {v for name in _DATES for v in examples(getattr(text_dates, name))} | {"T", "0.00", "", "2024"}
)


@pytest.mark.parametrize("name", _STAMPS)
def test_every_timestamp_a_regex_matches_holds_a_colon(name: str) -> None:
    pattern = getattr(text_dates, name)
    matched = [v for v in _VALUES if re.match(pattern, v)]
    assert len(matched) >= 5 and all(":" in v for v in matched)


def test_every_month_period_passes_the_plain_test() -> None:
    matched = [v for v in _VALUES if re.match(text_dates.MONTH_PERIOD, v)]
    # each alternative reached: a month name first, a year first, a year last
    assert {"Aaa-77", "1777-7", "7/1777"} <= set(matched)
    assert all(text_dates._may_be_period(v) for v in matched)
    assert not any(map(text_dates._may_be_period, ["0.00", "T", "2024", "Jan-x"]))


def test_the_written_date_check_answers_as_its_regex() -> None:
    def old(value: str) -> bool:
        return 6 <= len(value) <= 20 and re.match(text_dates.WRITTEN_DATE, value) is not None

    assert sum(map(old, _VALUES)) >= 20  # the strings reach its alternatives
    assert [v for v in _VALUES if text_dates._date_like(v) != old(v)] == []
    assert text_dates._date_like("2024年1月31日") and text_dates._date_like("2024. 1. 31.")
    assert text_dates._date_like("01Jan24") and text_dates._date_like("Jan 31 2024\n")


def _old_candidates(text: Sequence[str], probe: dict[str, Sequence[str]]) -> tuple[object, ...]:
    """``text_dates._candidates`` as it was before the plain tests (its regexes alone)."""
    keep: dict[str, tuple[str, ...]] = {}
    shaped = {}
    local: set[str] = set()
    marked: dict[str, list[str]] = {}
    t = text_dates
    for name in text:
        values = probe[name]
        if not values:
            continue
        first = values[0]
        if 6 <= len(first) <= 32 and first[:1].isdigit() and not first.isdigit() and t.local_months(values):
            values = [t.in_english(v) for v in values]
            local.add(name)
        if marks := day_halves.day_halves(values):
            values = [day_halves.with_am_pm(v) for v in values]
            marked[name] = marks
        if all(6 <= len(v) <= 20 and re.match(t.WRITTEN_DATE, v) for v in values):
            keep[name] = t.NAMED_FORMATS if name in local else t.TEXT_DATE_FORMATS
            if all(re.match(t.DATE_SHAPE, v) for v in values):
                shaped[name] = values[0]
        elif all(len(v) <= 24 and re.match(t.WRITTEN_STAMP, v) for v in values):
            keep[name] = t._stamp_formats(t.TEXT_STAMP_FORMATS, values[0])
        elif all(len(v) <= 30 and re.match(t.NAMED_STAMP, v) for v in values):
            keep[name] = t._stamp_formats(t.NAMED_STAMP_FORMATS, values[0])
        elif all(len(v) <= 26 and re.match(t.ZONED_STAMP, v) for v in values):
            keep[name] = t.ZONED_FORMATS
        elif all(len(v) <= 28 and re.match(t.UTC_STAMP, v) for v in values):
            keep[name] = t.UTC_FORMATS
        elif all(len(v) <= 28 and re.match(t.YEAR_STAMP, v) for v in values):
            keep[name] = t.year_stamp_formats(values[0])
        elif all(len(v) <= 14 and re.match(t.MONTH_PERIOD, v) for v in values):
            keep[name] = t.MONTH_FORMATS
    return keep, shaped, local & set(keep), {n: m for n, m in marked.items() if n in keep}


def test_the_date_candidates_are_the_regexs_alone() -> None:
    """Every example as a column of its own, and beside the next one (a column of two values)."""
    probe = {f"c{i}": [v] for i, v in enumerate(_VALUES)}
    probe |= {f"p{i}": [a, b] for i, (a, b) in enumerate(itertools.pairwise(_VALUES))}
    probe |= {
        "local": ["15. März 2024", "1. Mai 2024"],
        "long": ["31 de marzo de 2024 14:03 hs."],
        "halves": ["2024/08/01 下午 03:15:22", "2024. 8. 1. 오전 3:15", "1/8/2024 3:15 p.\u00a0m."],
        "dotted": ["2024.11.21. 05:51", "2024. 11. 21. 5:51:00"],
        "empty": [],
    }
    new, old = text_dates._candidates(list(probe), probe), _old_candidates(list(probe), probe)
    assert new == old
    assert len(new[0]) >= 100  # columns of each kind were found


def _old_fix(odd: Sequence[str], *, points: bool = True) -> str:
    """``odd_values.odd_value_fix`` as it was before the plain tests (its regexes alone)."""
    if not points and all(re.fullmatch(odd_values._DECIMAL_COMMA, v) for v in odd):
        return "add --decimal ',' if ',' is their decimal mark"
    if all(re.match(odd_values._NUMBER_WITH_SEPARATORS, v) for v in odd):
        separator = next((c for c in odd[0] if c in ",.' "), ",")
        return f"add --thousands {separator!r} if {separator!r} separates thousands"
    if any(re.fullmatch(TOTAL_LABEL, v.strip(" :")) for v in odd):
        return "add --drop-totals if it labels a last row of totals (read as missing, its numbers would load as data)"
    if all(re.fullmatch(odd_values._MARKER, v) for v in odd):
        flags = " ".join(f"--null {v!r}" for v in odd)
        return f"add {flags} if {'they mean' if len(odd) > 1 else 'it means'} missing"
    return "fix them, or keep the column as text"


def test_the_advice_for_odd_values_is_the_regexs_alone() -> None:
    odd = sorted(
        {
            v
            for p in (odd_values._NUMBER_WITH_SEPARATORS, odd_values._DECIMAL_COMMA, odd_values._MARKER)
            for v in examples(p)
        }
        | {"T", "NA", "-", "+1,234", "-1.234,5", "1 234", "٣,٣٣٣", "Total", "1,5"}
    )
    groups = [[v] for v in odd] + [list(pair) for pair in itertools.pairwise(odd)]
    for points in (True, False):
        assert [
            g for g in groups if odd_values.odd_value_fix(g, points=points) != _old_fix(g, points=points)
        ] == []
    said = {odd_values.odd_value_fix(g, points=False).split()[1] for g in groups}
    assert {"--decimal", "--thousands", "--null"} <= said  # each regex's answer was given


def test_every_decimal_comma_holds_a_comma() -> None:
    matched = [v for v in examples(odd_values._DECIMAL_COMMA) if re.fullmatch(odd_values._DECIMAL_COMMA, v)]
    assert len(matched) >= 4 and all("," in v for v in matched)
