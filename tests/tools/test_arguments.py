"""Argument validation: precise, field-first messages; one model is both schema and validator."""

from __future__ import annotations

import datetime as dt

import pytest

from analytics_agent.errors import ArgumentError
from analytics_agent.tools.args.models import arguments_model, parse_arguments
from analytics_agent.tools.sqlfile.parse import parse_sql_tool

SPEC = parse_sql_tool(
    """\
-- name: t
-- description: d
-- param city: enum(Pune, Mumbai) | City.
-- param day: date | Day.
-- param top: integer(1, 50) = 10 | Top.
-- param note: string(5) = null | Note.
SELECT $city, $day, $top, $note
"""
)
MODEL = arguments_model("t", SPEC.params)


def errors_for(raw) -> list[str]:
    with pytest.raises(ArgumentError) as info:
        parse_arguments(MODEL, raw)
    return str(info.value).splitlines()


def test_valid_json_text_and_objects_give_the_same_arguments():
    from_text = parse_arguments(MODEL, '{"city": "Pune", "day": "2026-10-24"}')
    from_object = parse_arguments(MODEL, {"city": "Pune", "day": "2026-10-24"})
    assert from_text == from_object
    assert from_text.day == dt.date(2026, 10, 24) and from_text.top == 10 and from_text.note is None


def test_a_day_that_is_not_iso_names_the_field_and_the_format():
    assert errors_for({"city": "Pune", "day": "24 Oct 2026"}) == [
        "day: Input should be a valid date in YYYY-MM-DD format"
    ]


def test_an_impossible_calendar_day_is_refused_with_the_reason():
    (line,) = errors_for({"city": "Pune", "day": "2026-02-30"})
    assert line.startswith("day: Input should be a real calendar date")


def test_every_problem_gets_its_own_line_field_first():
    lines = errors_for({"city": "pune", "top": 99, "include_items": True})
    assert "day: Field required" in lines
    assert any(line.startswith("city: Input should be one of 'Pune' or 'Mumbai'") for line in lines)
    assert "top: Input should be less than or equal to 50" in lines
    assert "include_items: Extra inputs are not permitted" in lines
    assert len(lines) == 4


@pytest.mark.parametrize("raw", ['{"city": ', "[1, 2]", '"Pune"', "null"])
def test_arguments_that_are_not_a_json_object_are_refused_clearly(raw):
    (line,) = errors_for(raw)
    assert "JSON" in line


@pytest.mark.parametrize(
    ("raw", "reason"),
    [('{"top": ' + "9" * 5000 + "}", "a number is too long to read"), ("[" * 100_000, "nested too deeply")],
)
def test_json_that_python_cannot_read_is_refused_as_bad_json_not_a_crash(raw, reason):
    (line,) = errors_for(raw)
    assert line.startswith("arguments are not valid JSON (")
    assert reason in line


def test_null_for_an_optional_parameter_means_its_default():
    args = parse_arguments(MODEL, {"city": "Pune", "day": "2026-10-24", "top": None})
    assert args.top == 10


def test_null_for_a_required_parameter_is_an_error():
    assert errors_for({"city": None, "day": "2026-10-24"})[0].startswith("city:")


def test_integers_are_not_silently_taken_from_strings_or_floats():
    assert errors_for({"city": "Pune", "day": "2026-10-24", "top": "7"})[0].startswith("top:")
    assert errors_for({"city": "Pune", "day": "2026-10-24", "top": 7.5})[0].startswith("top:")


def test_string_length_limit_is_enforced():
    assert errors_for({"city": "Pune", "day": "2026-10-24", "note": "too long"})[0].startswith("note:")
