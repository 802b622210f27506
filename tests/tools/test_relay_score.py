"""The relay's scorer (tests/bench/relay/score.py) reads month numbers in the truth as the months an answer
names: a right answer written with month names was scored wrong (held-out v4, k04)."""

from __future__ import annotations

from pathlib import Path

from tests.bench.relay.score import names_the_month, score_one


def _data(tmp_path: Path) -> Path:
    (tmp_path / "sales.csv").write_text("month,amount\n1,10\n2,20\n3,30\n")
    return tmp_path


def test_month_numbers_match_month_names_in_a_month_column() -> None:
    assert names_the_month("month", 3, "March was highest")
    assert names_the_month("sale_month", 1, "in Jan the total was 10")
    assert names_the_month("m", 4, "Apr: $51.62")  # month(invoice_date) AS m (held-out v5, c17)
    assert not names_the_month("month", 3, "May was highest")
    assert not names_the_month("amount", 3, "March was highest")  # a count of 3 is still a number to find
    assert not names_the_month("month", 13, "March")


def test_an_answer_with_month_names_is_right_and_one_with_a_wrong_value_is_not(tmp_path: Path) -> None:
    data = _data(tmp_path)
    question = {"id": "q", "sql": "SELECT month, amount FROM sales ORDER BY month"}
    right = score_one(question, {"answer": "Jan 10, Feb 20, Mar 30", "tool_calls": []}, data)
    wrong = score_one(question, {"answer": "Jan 10, Feb 20, Mar 31", "tool_calls": []}, data)
    assert right["verdict"] == "right"
    assert wrong["verdict"] == "wrong" and wrong["missing"] == [30.0]


def test_a_refusal_that_repeats_the_questions_year_is_right_and_one_with_new_numbers_is_checked(
    tmp_path: Path,
) -> None:
    question = {"id": "q", "question": "What was Amazon's average close in 2010?", "unanswerable": True}
    declines = score_one(
        question, {"answer": "There is no Amazon data, so no 2010 figure.", "tool_calls": []}, tmp_path
    )
    guesses = score_one(
        question, {"answer": "There is no Amazon data; maybe 130.5 in 2010.", "tool_calls": []}, tmp_path
    )
    assert declines["verdict"] == "right"
    assert guesses["verdict"] == "check"
