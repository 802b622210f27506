"""Question files (JSONL, YAML, their mistakes) and the judging of answers."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from analytics_agent.errors import EvalFileError
from analytics_agent.evaluation.cases import Case, load_cases, select
from analytics_agent.evaluation.report import compare
from analytics_agent.evaluation.scoring import appears, judge

YAML = """\
# a comment
- id: one
  question: How did Pune do?
  expect: 4798
  today: 2026-10-25
- id: two
  question: And Mumbai?
  sql: SELECT 1
  tolerance: 0.01
  tags: [sales_summary]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_yaml_and_jsonl_give_the_same_cases(tmp_path: Path) -> None:
    from_yaml = load_cases(write(tmp_path, "q.yaml", YAML))
    lines = [
        {"id": "one", "question": "How did Pune do?", "expect": 4798, "today": "2026-10-25"},
        {
            "id": "two",
            "question": "And Mumbai?",
            "sql": "SELECT 1",
            "tolerance": 0.01,
            "tags": ["sales_summary"],
        },
    ]
    from_jsonl = load_cases(write(tmp_path, "q.jsonl", "\n".join(json.dumps(x) for x in lines) + "\n\n"))
    assert from_yaml == from_jsonl
    assert from_yaml[0].expect == [4798] and from_yaml[0].today == dt.date(2026, 10, 25)


def test_a_yaml_file_may_hold_its_list_under_cases(tmp_path: Path) -> None:
    nested = "cases:\n" + "".join("  " + line + "\n" for line in YAML.splitlines())
    assert [c.id for c in load_cases(write(tmp_path, "q.yml", nested))] == ["one", "two"]


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("q.yaml", YAML.replace("expect: 4798", "expcet: 4798"), "q.yaml:2: case 'one': expcet: unknown key"),
        ("q.yaml", YAML.replace("id: two", "id: one"), "q.yaml:6: case id 'one' is also used on line 2"),
        (
            "q.yaml",
            YAML.replace("tolerance: 0.01", "tolerance: 5"),
            "q.yaml:6: case 'two': tolerance: Input should be less than or equal to 1",
        ),
        (
            "q.yaml",
            YAML.replace("  expect: 4798\n", ""),
            "q.yaml:2: case 'one' says nothing about a right answer",
        ),
        (
            "q.yaml",
            YAML.replace("today: 2026-10-25", "today: yesterday"),
            "q.yaml:2: case 'one': today: Input should be a valid date",
        ),
        ("q.yaml", "- id: [unclosed\n", "q.yaml:2: not valid YAML"),
        ("q.yaml", "id: one\n", "q.yaml: expected a list of cases"),
        ("q.yaml", "", "q.yaml: holds no cases"),
        (
            "q.jsonl",
            '{"id": "a", "question": "q", "expect": 1}\n{"id": "b",\n',
            "q.jsonl:2: not a JSON object",
        ),
        ("q.jsonl", '["a"]\n', "q.jsonl:1: a case is a mapping with id and question"),
        ("q.csv", "id,question\n", "a question file is .jsonl, .yaml or .yml, not .csv"),
    ],
)
def test_each_mistake_in_a_file_is_one_line_naming_the_place(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    with pytest.raises(EvalFileError) as info:
        load_cases(write(tmp_path, name, text))
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_missing_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(EvalFileError, match="no such question file"):
        load_cases(tmp_path / "nope.yaml")


# --- judging -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "answer", "found"),
    [
        (4798, "Revenue was ₹4,798.", True),
        (4798, "Revenue was 4798.0 rupees.", True),
        (4798, "Revenue was about 4.8k.", True),
        (4798, "Revenue was ₹4,789.", False),
        (23.7, "a share of 23.7 %", True),
        (23.7, "a share of 0.237", False),
        (1234567, "₹12,34,567 in all", True),
        (24, "on 24 Oct 2026", False),  # a date is no quantity
        ("Pune", "PUNE led", True),
        ("Banarasi Silk Saree", "the banarasi  silk saree sold best", True),
        ("4,798", "Revenue 4798", True),  # a string that is one number is compared as a number
        ("2026-10-24", "on 24 October", True),
        ("2026-10-24", "on Oct 24", True),
        ("2026-10-24", "on 25 Oct", False),
    ],
)
def test_expected_values_are_found_format_insensitively(value, answer: str, found: bool) -> None:
    assert appears(value, answer, tolerance=None) is found


def test_tolerance_is_relative() -> None:
    assert appears(1000, "about 1,009", tolerance=0.01)
    assert not appears(1000, "1,011", tolerance=0.01)


def case(**fields) -> Case:
    return Case(id="c", question="q", **fields)


def test_judge_names_what_is_missing_and_what_is_unverified() -> None:
    verdict = judge(case(sql="x"), [4798, "Pune"], "Mumbai made ₹5,120.", ["₹5,120"])
    assert not verdict.passed
    assert verdict.reason == "missing 4,798, 'Pune'; unverified: ₹5,120"


def test_a_right_answer_with_an_unverified_number_passes_with_the_note() -> None:
    verdict = judge(case(sql="x"), [4798], "Pune made ₹4,798 from 3 orders.", ["3"])
    assert verdict.passed and verdict.reason == "unverified: 3"


def test_forbidden_values_fail_the_answer() -> None:
    verdict = judge(case(forbid=[99999], expect=[4798]), [4798], "₹4,798, or ₹99,999 as you asked", [])
    assert not verdict.passed and verdict.reason == "says forbidden 99,999"


def test_a_question_the_data_cannot_answer_must_be_declined_without_an_invented_number() -> None:
    no = case(no_answer=True)
    assert judge(no, [], "The data has no orders from Singapore.", []).passed
    invented = judge(no, [], "There is no Singapore city, but it made about ₹12,000.", ["₹12,000"])
    assert not invented.passed and "invents a number" in invented.reason
    assert not judge(no, [], "Singapore made 12 orders.", []).passed


def test_expect_any_needs_one_of_its_strings() -> None:
    assert judge(case(expect_any=["app", "web"]), [], "Mostly the App.", []).passed
    assert (
        judge(case(expect_any=["app", "web"]), [], "Mostly the store.", []).reason
        == "says none of 'app', 'web'"
    )


def test_compare_lists_regressions_first_then_improvements() -> None:
    def run(*results):
        return {
            "results": [dict(zip(("id", "model", "passed", "grounded"), r, strict=True)) for r in results]
        }

    before = run(
        ("a", "m", True, True), ("b", "m", False, False), ("c", "m", True, True), ("d", "m", True, True)
    )
    after = run(
        ("a", "m", True, True), ("b", "m", True, True), ("c", "m", False, False), ("d", "m", True, False)
    )
    changes = compare(before, after)
    assert [(c["id"], c["change"], c["before"], c["after"]) for c in changes] == [
        ("c", "regressed", "pass", "fail, ungrounded"),
        ("d", "regressed", "pass", "pass, ungrounded"),
        ("b", "improved", "fail, ungrounded", "pass"),
    ]


def test_only_picks_cases_by_id_or_tag_and_names_the_closest_for_a_typo(tmp_path: Path) -> None:
    cases = load_cases(write(tmp_path, "q.yaml", YAML))
    assert [c.id for c in select(cases, ["sales_summary"])] == ["two"]
    assert [c.id for c in select(cases, ["one", "sales_summary"])] == ["one", "two"]
    assert select(cases, []) == cases
    with pytest.raises(
        EvalFileError, match=r"--only 'sales_sumary' is no case id or tag.*did you mean 'sales_summary'"
    ):
        select(cases, ["sales_sumary"])
