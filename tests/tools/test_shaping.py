"""Result shaping: compact JSON, rows and tokens capped, truncation said; the token estimate is safe."""

from __future__ import annotations

import datetime as dt
import decimal
import json
import math
import uuid

import bpe_openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics_agent.tools.results.shaping import (
    KNOWN_WORDS,
    MAX_ROWS,
    MAX_TOKENS,
    SINGLE_TOKEN_PUNCTUATION,
    Rows,
    dumps,
    estimate_tokens,
    shape_object,
    shape_rows,
    to_jsonable,
)

O200K = bpe_openai.get_encoding("o200k_base")


def real_tokens(text: str) -> int:
    return len(O200K.encode(text))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_the_token_estimate_never_undercounts_o200k_on_json(value):
    text = dumps(value)
    assert estimate_tokens(text) >= real_tokens(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(
            st.text(alphabet=st.characters(codec="utf-8"), max_size=40) | st.integers(),
            min_size=1,
            max_size=4,
        ),
        min_size=1,
        max_size=30,
    )
)
def test_the_token_estimate_never_undercounts_o200k_on_shaped_rows_of_any_text(rows):
    shaped = shape_rows(Rows(columns=("a", "b", "c", "d"), rows=[tuple(r) for r in rows]))
    assert shaped.tokens == estimate_tokens(shaped.text) >= real_tokens(shaped.text)


def test_the_estimate_is_not_wildly_pessimistic_on_typical_results():
    rows = Rows(
        columns=("city", "day", "orders", "revenue"),
        rows=[("Pune", dt.date(2026, 10, d), d * 7, d * 1299) for d in range(1, 31)],
    )
    text = shape_rows(rows).text
    assert real_tokens(text) <= estimate_tokens(text) <= 1.3 * real_tokens(text)


def test_a_describe_table_result_is_estimated_within_1_3x():
    columns = [
        {"name": f"{base}_{i}", "type": kind, "nulls": i * 37, "min": i, "max": i * 1000 + 7}
        for i, (base, kind) in enumerate(
            [("dep_delay", "BIGINT"), ("distance", "DOUBLE"), ("day", "DATE")] * 6
        )
    ]
    text = dumps({"table": "flights", "rows": 336776, "columns": columns})
    assert real_tokens(text) <= estimate_tokens(text) <= 1.3 * real_tokens(text)


@pytest.mark.parametrize("run", sorted(SINGLE_TOKEN_PUNCTUATION))
def test_each_known_punctuation_run_is_one_o200k_token_alone_and_two_at_most_after_a_space(run):
    assert real_tokens(run) == 1 and real_tokens(" " + run) <= 2


@pytest.mark.parametrize(("word", "tokens"), sorted(KNOWN_WORDS.items()))
def test_each_known_word_has_its_o200k_count_and_one_more_at_most_with_a_leading_character(word, tokens):
    assert real_tokens(word) == tokens
    for lead in ' _"-.:,[{':
        assert real_tokens(lead + word) <= tokens + 1


def test_every_one_to_three_digit_string_is_one_token():
    assert all(real_tokens(f"{n:0{width}d}") == 1 for width in (1, 2, 3) for n in range(10**width))


def test_values_serialise_cleanly():
    value = {
        "day": dt.date(2026, 10, 24),
        "at": dt.datetime(2026, 10, 24, 9, 30),
        "price": decimal.Decimal("12.50"),
        "whole": decimal.Decimal("4798"),
        "none": None,
        "nan": math.nan,
        "id": uuid.UUID(int=1),
        "blob": b"\x00\x01",
        "share": 0.123456789,
        "big": 1234567.891,
    }
    assert to_jsonable(value) == {
        "day": "2026-10-24",
        "at": "2026-10-24 09:30:00",
        "price": 12.5,
        "whole": 4798,
        "none": None,
        "nan": None,
        "id": "00000000-0000-0000-0000-000000000001",
        "blob": "<2 bytes>",
        "share": 0.1234568,
        "big": 1234567.89,
    }


def test_rows_within_the_caps_come_back_whole_and_unflagged():
    shaped = shape_rows(Rows(columns=("a",), rows=[(i,) for i in range(3)], total=3))
    assert json.loads(shaped.text) == {"columns": ["a"], "rows": [[0], [1], [2]], "row_count": 3}
    assert not shaped.truncated


def test_more_rows_than_the_cap_are_cut_and_the_result_says_so():
    fetched = [(i, f"name {i}") for i in range(MAX_ROWS + 1)]
    shaped = shape_rows(Rows(columns=("id", "name"), rows=fetched, total=1234))
    payload = json.loads(shaped.text)
    assert len(payload["rows"]) == MAX_ROWS == payload["shown"] == shaped.rows
    assert payload["truncated"] is True and payload["row_count"] == 1234
    assert "narrow" in payload["hint"]


def test_wide_rows_are_cut_to_the_token_cap_and_the_result_says_so():
    fetched = [("x" * 300, i) for i in range(40)]
    shaped = shape_rows(Rows(columns=("text", "n"), rows=fetched, total=40))
    payload = json.loads(shaped.text)
    assert shaped.truncated and payload["truncated"] is True and payload["row_count"] == 40
    assert 0 < len(payload["rows"]) < 40
    assert real_tokens(shaped.text) <= MAX_TOKENS


def test_an_object_with_a_huge_list_is_cut_and_flagged():
    shaped = shape_object({"order_id": "A-1", "items": [{"product": f"p{i}", "qty": i} for i in range(2000)]})
    payload = json.loads(shaped.text)
    assert payload["truncated"] is True and payload["truncated_lists"] == {"items": 2000}
    assert 0 < len(payload["items"]) < 2000
    assert real_tokens(shaped.text) <= MAX_TOKENS


@pytest.mark.parametrize("size", [10, 5000])
def test_an_object_too_large_without_lists_becomes_an_explicit_notice(size):
    shaped = shape_object({"text": "y" * size})
    assert real_tokens(shaped.text) <= MAX_TOKENS
    assert shaped.truncated == (size > 100)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(sorted(KNOWN_WORDS) + sorted(SINGLE_TOKEN_PUNCTUATION))
        | st.text(max_size=4)
        | st.sampled_from([" ", "_", "é", "₹", "日", "😀", "'s", "\n"]),
        max_size=30,
    )
)
def test_known_words_and_runs_next_to_anything_are_never_undercounted(pieces):
    text = "".join(pieces)
    assert estimate_tokens(text) >= real_tokens(text)


def test_every_bundled_tool_result_on_the_sample_data_is_estimated_close_and_never_under(workspace):
    from tests.bench.workload import domain_arguments

    ratios = []
    for name, arguments in domain_arguments(workspace.cursor(), workspace.registry).items():
        text = workspace.executor.execute(name, arguments).text
        real = real_tokens(text)
        assert real <= estimate_tokens(text) <= 1.6 * real, name
        ratios.append(estimate_tokens(text) / real)
    assert sorted(ratios)[len(ratios) // 2] <= 1.3  # the median result


_PIECES = [*'aAbBzZ0 9_-"{}:,éß₹', "iPhone", "ABCdef", "EAAH", "revenue", "McDonald"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_the_fast_letter_runs_are_the_patterns_own_runs(text):
    """``_letter_runs`` finds whole letter runs first and splits only mixed-case ones: the same runs, in
    the same order, as ``_LETTER_RUNS.findall``, whose split by case o200k's estimate relies on."""
    from analytics_agent.tools.results.shaping import _LETTER_RUNS, _letter_runs

    assert _letter_runs(text) == _LETTER_RUNS.findall(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300), st.integers(min_value=0, max_value=400))
def test_a_text_left_uncounted_is_within_the_budget(text, budget):
    """over_budget skips counting a text of at most ``budget`` bytes: the estimate never exceeds the bytes."""
    from analytics_agent.tools.results.shaping import over_budget

    over = over_budget(text, budget)
    assert over == (estimate_tokens(text) if estimate_tokens(text) > budget else None)


def test_a_short_result_is_shaped_without_counting_its_tokens_until_they_are_read(monkeypatch):
    import analytics_agent.tools.results.shaping as shaping

    counted: list[str] = []
    real = shaping.estimate_tokens
    monkeypatch.setattr(shaping, "estimate_tokens", lambda text: counted.append(text) or real(text))
    shaped = shape_object({"city": "Pune", "orders": 3})
    assert counted == []  # 30 bytes cannot be over 1,000 tokens
    assert shaped.tokens == real(shaped.text) and counted == [shaped.text]


@pytest.mark.parametrize("text", ['":{"\n', 'x":{"\n', '},{"\r\n', '"],\n\n', '":["\n'])
def test_a_punctuation_run_before_a_line_end_is_not_counted_as_one_token(text):
    # o200k's pre-tokenizer joins a punctuation run and the line end after it into one piece, which BPE
    # splits apart again: '":{"\n' is 3 tokens, not the run's 1 and the line end's 1 (found by hypothesis)
    assert estimate_tokens(text) >= real_tokens(text)
