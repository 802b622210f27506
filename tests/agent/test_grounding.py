"""The groundedness check: the number reader, the derivation search, and what is not counted."""

from __future__ import annotations

import datetime as dt
import json
import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from analytics_agent.agent.grounding import (
    Evidence,
    derived_within,
    evidence_from,
    found_directly,
    groups_for,
    unverified_numbers,
)
from analytics_agent.agent.numbers import Mention, extract_numbers
from analytics_agent.agent.results import records_of
from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)

PUNE = json.dumps(
    {"city": "Pune", "day": "2026-10-24", "orders": 3, "by_status": {"cancelled": 1}, "revenue": 4798}
)


def values_of(text: str) -> list[float]:
    return [m.value for m in extract_numbers(text)]


@pytest.mark.parametrize(
    ("written", "value", "percent"),
    [
        ("4,798", 4798, False),
        ("4798.0", 4798, False),
        ("₹4,798", 4798, False),
        ("Rs. 4,798", 4798, False),
        ("INR 4798", 4798, False),
        ("4.8k", 4800, False),
        ("23.7 %", 23.7, True),
        ("23.7%", 23.7, True),
        ("23.7 per cent", 23.7, True),
        ("1.2 million", 1_200_000, False),
        ("$3.5M", 3_500_000, False),
        ("1.2 lakh", 120_000, False),
        ("₹3L", 300_000, False),
        ("2.5 crore", 25_000_000, False),
        ("12,34,567", 1_234_567, False),
        ("1,234,567.5", 1_234_567.5, False),
        ("−5.2%", 5.2, True),
        ("2.3x", 2.3, False),
        (".75", 0.75, False),
    ],
)
def test_each_format_reads_as_one_number(written: str, value: float, percent: bool) -> None:
    [mention] = extract_numbers(f"It was {written} overall.")
    assert mention.value == pytest.approx(value)
    assert mention.percent is percent
    assert mention.text == written.lstrip("−")


@pytest.mark.parametrize(
    "text",
    [
        "on 2026-10-24",
        "for 2026-10-01..2026-10-31",
        "on 24 Oct 2026",
        "on 24th of October",
        "on Oct 24, 2026",
        "in October 2026",
        "on 24/10/2026",
        "at 10:30 am",
        "at 5 pm",
        "in the week of 19–25 October",
        "from 1 to 15 Oct",
        "over Oct 19-25",
        "order A-1042 and customer C-00042",
        "in Q3 and FY26, week 2026-W43",
        "in week 43",
        "the 3rd best",
        "over the last 7 days",
        "Pen Drive 64GB",
        "a 4.8kg bag",
        "a Pressure Cooker 3L",
    ],
)
def test_dates_identifiers_ordinals_and_units_of_products_are_not_quantities(text: str) -> None:
    assert extract_numbers(text) == []


@pytest.mark.parametrize(
    "written", ["**₹4,798**", "(4,798)", "4,798.", "₹4,798/-", "~4.8k", "`4798`", "4,798;"]
)
def test_punctuation_and_markdown_around_a_number_do_not_hide_it(written: str) -> None:
    assert unverified_numbers(f"Revenue {written}", Evidence(results=[PUNE], context=[])) == []
    assert len(extract_numbers(f"Revenue {written}")) == 1


def test_list_markers_are_skipped_but_the_numbers_on_the_line_are_read() -> None:
    text = "Top cities:\n1. Mumbai ₹12,345\n2) Delhi 10,000\n- 3. Pune 9,000"
    assert values_of(text) == [12345, 10000, 9000]


def test_precision_is_half_a_unit_of_the_last_digit_and_a_hedge_drops_trailing_zeros() -> None:
    [plain] = extract_numbers("42,000 orders")
    [hedged] = extract_numbers("about 42,000 orders")
    [scaled] = extract_numbers("4.8k")
    assert (plain.tolerance, hedged.tolerance, scaled.tolerance) == (0.5, 500, 50)


# --- the check against tool results ----------------------------------------------------------------


def test_the_reference_answer_is_grounded_and_an_invented_number_is_not() -> None:
    evidence = Evidence(results=[PUNE], context=["How did Pune do on 24 Oct 2026?"])
    good = "Pune had 3 orders on 24 Oct 2026 (₹4,798 revenue; 1 cancelled)."
    assert unverified_numbers(good, evidence) == []
    bad = "Pune had 3 orders (₹5,120 revenue) and 12 returns."
    assert unverified_numbers(bad, evidence) == ["₹5,120", "12"]


MUMBAI = json.dumps({"city": "Mumbai", "orders": 1, "revenue": 2499})


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ("Together they made ₹7,297.", "sum of the two revenues"),
        ("Pune made ₹2,299 more.", "difference of the two revenues"),
        ("Average order value ₹1,599.", "ratio revenue / orders in one result"),
        ("A third (33.3%) were cancelled.", "percentage cancelled / orders in one result"),
        ("Revenue was 92.0 % higher in Pune.", "percent change 4798 / 2499 - 1"),
        ("Mumbai's was 47.9% lower.", "percent change 2499 / 4798 - 1"),
        ("Pune made 1.9x Mumbai's revenue.", "ratio of the two revenues"),
    ],
)
def test_a_sum_difference_ratio_or_percentage_of_two_related_results_is_grounded(
    answer: str, why: str
) -> None:
    assert unverified_numbers(answer, Evidence(results=[PUNE, MUMBAI], context=[])) == [], why


def test_unrelated_numbers_are_not_paired() -> None:
    """Pune's revenue and an order's amount share neither a record nor a key: their sum explains nothing."""
    order = json.dumps({"order_id": "A-1042", "amount": 2499})
    assert unverified_numbers("Together ₹7,297.", Evidence(results=[PUNE, order], context=[])) == ["₹7,297"]


def test_a_table_pairs_within_a_row_and_within_a_column() -> None:
    table = {"columns": ["city", "orders", "revenue"], "rows": [["Pune", 4, 1000], ["Delhi", 16, 9000]]}
    groups = groups_for(records_of([json.dumps(table)]), "Pune and Delhi", [])
    assert [4.0, 1000.0] in groups and [16.0, 9000.0] in groups  # each row
    # each column with its total, both rows being named; the totals together in the table's own record
    assert [4.0, 16.0, 20.0] in groups and [1000.0, 9000.0, 10000.0] in groups
    assert [2.0, 20.0, 10000.0] in groups  # row count, total orders, total revenue
    assert [4.0, 20.0] in groups_for(records_of([json.dumps(table)]), "Pune only", [])
    evidence = Evidence(results=[json.dumps(table)], context=[])
    assert (
        unverified_numbers("Pune: ₹250 a order; revenue 10,000 in all; 80% of orders in Delhi.", evidence)
        == []
    )
    assert unverified_numbers(
        "Delhi's ₹9,000 is 9 times Pune's; 1,016 mixes two rows and two columns.", evidence
    ) == ["1,016"]


def test_a_column_total_and_a_share_of_it_are_grounded_but_not_a_mix_of_columns() -> None:
    """A grouped count's total ("1,033 of the 2,909 flights") is a sum of the whole column; a share of
    it is that column's value over the total. Numbers mixing columns of different rows still flag."""
    by_origin = {"columns": ["origin", "count"], "rows": [["EWR", 1033], ["JFK", 1008], ["LGA", 868]]}
    evidence = Evidence(results=[json.dumps(by_origin)], context=[])
    total = 1033 + 1008 + 868
    share = f"{100 * 1033 / total:.1f}%"
    assert unverified_numbers(f"Newark had 1,033 of the {total:,} flights ({share}).", evidence) == []
    assert unverified_numbers("LGA's share was 35.5%.", evidence) == ["35.5%"]  # EWR's share, named LGA
    assert unverified_numbers(f"{total + 1:,} flights in all.", evidence) == [f"{total + 1:,}"]
    delays = {"columns": ["origin", "avg_delay"], "rows": [["EWR", -3.5], ["JFK", 12.0]]}
    signed = Evidence(results=[json.dumps(delays)], context=[])
    assert unverified_numbers("Together 8.5 minutes; 15.5 would add the absolute values.", signed) == ["15.5"]


def test_numbers_from_the_question_and_the_tool_arguments_are_not_counted() -> None:
    conversation = Conversation(system="Tables: orders (42,000 rows).")
    conversation.messages += [
        UserTurn("What were the top 5 products in 2026?"),
        AssistantTurn(tool_calls=(ToolCall("c1", "top_products", '{"top": 5, "by": "units"}'),)),
        ToolResults((ToolResult("c1", '{"columns":["product"],"rows":[["Toor Dal 1kg"]],"row_count":1}'),)),
    ]
    evidence = evidence_from(conversation)
    answer = "Of the top 5 in 2026, Toor Dal 1kg led; 42,000 orders in all; 9 of them odd."
    assert unverified_numbers(answer, evidence) == ["9"]


def test_a_year_is_skipped_only_when_the_context_knows_it() -> None:
    evidence = Evidence(results=[PUNE], context=[])
    assert unverified_numbers("In 2026 Pune had 3 orders, and 2050 more were planned.", evidence) == ["2050"]


def test_a_hedged_round_number_is_grounded_but_the_same_number_stated_flat_is_not() -> None:
    evidence = Evidence(results=['{"orders": 41987}'], context=[])
    assert unverified_numbers("about 42,000 orders", evidence) == []
    assert unverified_numbers("42,000 orders", evidence) == ["42,000"]


def test_names_with_digits_the_tools_returned_are_not_numbers() -> None:
    rows = {"columns": ["product", "units"], "rows": [["Pressure Cooker 3L", 12], ["Sunscreen SPF 50", 7]]}
    evidence = Evidence(results=[json.dumps(rows)], context=[])
    assert unverified_numbers("Pressure Cooker 3L sold 12, Sunscreen SPF 50 sold 7.", evidence) == []


def test_an_error_result_and_list_lengths_are_evidence_too() -> None:
    error = "Error: grain day allows at most 50 days, use week or month"
    cities = json.dumps({"cities": ["Pune", "Delhi", "Mumbai"]})
    evidence = Evidence(results=[error, cities], context=[])
    assert unverified_numbers("Days are limited to 50; the customer ordered in 3 cities.", evidence) == []


def test_each_unverified_number_is_listed_once_in_order() -> None:
    evidence = Evidence(results=["{}"], context=[])
    assert unverified_numbers("7 and 8, then 7 again", evidence) == ["7", "8"]


# --- properties ------------------------------------------------------------------------------------


def indian(n: int) -> str:
    """12,34,567: the last three digits, then pairs."""
    digits = str(n)
    head, tail = digits[:-3], digits[-3:]
    pairs = []
    while len(head) > 2:
        pairs.insert(0, head[-2:])
        head = head[:-2]
    return ",".join([head, *pairs, tail]) if head else tail


WHOLE_FORMATS = [
    lambda v: str(v),
    lambda v: f"{v:,}",
    lambda v: f"₹{v:,}",
    lambda v: f"Rs. {v:,}",
    lambda v: f"{v}.0",
    lambda v: indian(v),
    lambda v: f"₹{indian(v)}",
    lambda v: f"{v / 1e3:.1f}k",
    lambda v: f"{v / 1e6:.2f} million",
    lambda v: f"{v / 1e5:.2f} lakh",
    lambda v: f"₹{v / 1e7:.2f} crore",
]


@given(st.integers(min_value=0, max_value=10**10), st.sampled_from(range(len(WHOLE_FORMATS))))
def test_any_whole_number_in_any_format_reads_back_within_its_written_precision(
    value: int, which: int
) -> None:
    written = WHOLE_FORMATS[which](value)
    [mention] = extract_numbers(f"Revenue: {written}.")
    assert abs(mention.value - value) <= mention.tolerance + 1e-6 * max(1, value)
    assert unverified_numbers(f"Revenue: {written}.", Evidence([json.dumps({"x": value})], [])) == []


@given(
    st.floats(min_value=0, max_value=100, allow_nan=False),
    st.integers(min_value=0, max_value=2),
    st.sampled_from(["{}%", "{} %", "{} percent"]),
    st.booleans(),
)
def test_a_percentage_is_grounded_by_the_percent_or_by_the_ratio(
    pct: float, places: int, pattern: str, as_ratio: bool
) -> None:
    written = pattern.format(f"{pct:.{places}f}")
    source = pct / 100 if as_ratio else pct
    assert unverified_numbers(f"A share of {written}.", Evidence([json.dumps([source])], [])) == []


@given(
    st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2099, 12, 31)),
    st.sampled_from(["%Y-%m-%d", "%d %b %Y", "%b %d, %Y", "%B %Y", "%d/%m/%Y", "%d %B"]),
    st.integers(min_value=0, max_value=23),
    st.integers(min_value=0, max_value=59),
)
def test_no_date_or_time_is_read_as_a_quantity(day, pattern: str, hour: int, minute: int) -> None:
    text = f"On {day.strftime(pattern)} at {hour}:{minute:02d} the order shipped."
    assert extract_numbers(text) == []


def oracle_distance(value: float, slack: float, percent: bool, pool: list[float]) -> float:
    """By brute force over every pair: how far the nearest sum, difference, ratio or percentage is from
    the written interval (negative: inside it)."""
    best = math.inf
    for a in pool:
        for b in pool:
            forms = [a + b, abs(a - b)]
            if b > 0:
                forms += [100 * a / b, abs(100 * (a / b - 1))] if percent else [a / b]
            best = min(best, *(abs(f - value) - slack for f in forms))
    return best


@given(
    st.lists(st.integers(min_value=0, max_value=5000), min_size=1, max_size=12),
    st.integers(min_value=0, max_value=12000),
    st.integers(min_value=0, max_value=2),
    st.booleans(),
)
def test_the_derivation_search_agrees_with_brute_force(
    pool: list[int], raw: int, places: int, percent: bool
) -> None:
    value = raw / 10**places
    mention = Mention(text=str(value), value=value, tolerance=0.5 / 10**places, percent=percent)
    slack = mention.tolerance + 1e-9 * max(1.0, value)
    distance = oracle_distance(value, slack, percent, [float(x) for x in pool])
    assume(abs(distance) > 1e-7 * max(1.0, value))  # not on a floating-point knife edge
    assert derived_within(mention, sorted(float(x) for x in pool)) is (distance < 0)


@given(st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=20), st.data())
def test_every_result_value_is_found_directly_whatever_the_format(pool: list[int], data) -> None:
    value = data.draw(st.sampled_from(pool))
    written = WHOLE_FORMATS[data.draw(st.sampled_from([0, 1, 2, 3, 5, 6]))](value)
    [mention] = extract_numbers(written)
    assert found_directly(mention, sorted(float(x) for x in pool))


@given(
    st.lists(st.integers(min_value=0, max_value=50_000), min_size=1, max_size=10),
    st.integers(min_value=2100, max_value=120_000),
)
def test_the_check_flags_exactly_the_numbers_no_result_explains(pool: list[int], invented: int) -> None:
    floats = [float(x) for x in pool] + [float(len(pool))]  # a list's length is evidence too
    direct = any(abs(x - invented) <= 0.5 for x in floats)
    distance = oracle_distance(float(invented), 0.5 + 1e-9 * invented, False, floats)
    assume(abs(distance) > 1e-6)
    evidence = Evidence(results=[json.dumps({"values": pool})], context=[])
    explained = direct or distance < 0
    assert (unverified_numbers(f"It came to {invented:,}.", evidence) == []) is explained


def test_a_value_after_a_month_name_is_a_quantity_not_a_day():
    """A monthly series written "Jan 33.51, Feb 28.46" once lost its whole parts to the date reader
    and flagged .51 and .46 as unverified."""
    assert values_of("Jan 33.51, Feb 28.46, Dec 19.52") == [33.51, 28.46, 19.52]
    assert values_of("33.51 Feb 28.46") == [33.51, 28.46]
    assert values_of("Jan 3,500 units; May 40") == [3500, 40]
    assert values_of("on Oct 24, 2026 and 3rd of May and 19-25 Oct") == []
