"""The metric condition grammar: names, operators and values come apart cleanly; anything else is one error."""

from __future__ import annotations

import pytest

from analytics_agent.errors import ToolError
from analytics_agent.tools.aggregate.conditions import OtherColumn, Term, parse_condition


def test_comparisons_lists_ranges_and_nulls_are_parsed_into_terms():
    text = "arr_delay > 15 and origin in ('JFK', 'LGA') and dep_time is not null and x between 1 and 2.5"
    assert parse_condition(text) == [
        Term("arr_delay", ">", 15),
        Term("origin", "in", ["JFK", "LGA"]),
        Term("dep_time", "not_null"),
        Term("x", "between", [1, 2.5]),
    ]


def test_keywords_are_case_blind_and_not_in_and_diamond_are_understood():
    assert parse_condition("STATUS NOT IN ('cancelled','returned') AND amount <> 0") == [
        Term("STATUS", "not_in", ["cancelled", "returned"]),
        Term("amount", "!=", 0),
    ]


def test_quotes_inside_text_and_related_or_quoted_names_survive():
    assert parse_condition("airlines.name = 'O''Hare'") == [Term("airlines.name", "=", "O'Hare")]
    assert parse_condition('"Body Mass (g)" >= -1e3') == [Term("Body Mass (g)", ">=", -1000.0)]
    assert parse_condition("sex is null and flag = true") == [Term("sex", "is_null"), Term("flag", "=", True)]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty condition"),
        ("arr_delay >", "stops early"),
        ("arr_delay > 15 or x = 1", "expected 'and' or the end"),
        ("arr_delay ~ 15", "cannot read '~ 15'"),
        ("x in 'a'", "expected '('"),
        ("x = (", "expected a value"),
        ("x like y", "expected a value"),
        ("x = 1; DROP TABLE t", "cannot read ';"),
        ("x is maybe", "expected 'null'"),
        ("x" + " and x = 1" * 60, "longer than 500"),
    ],
)
def test_anything_outside_the_grammar_is_one_error_naming_where(text, says):
    with pytest.raises(ToolError) as info:
        parse_condition(text)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_a_name_right_of_a_comparison_is_another_column_and_keywords_stay_values():
    assert parse_condition('dec > jan and "Q 1" <> "Q 2" and flag = true and y = 3') == [
        Term("dec", ">", OtherColumn("jan")),
        Term("Q 1", "!=", OtherColumn("Q 2")),
        Term("flag", "=", True),
        Term("y", "=", 3),
    ]
