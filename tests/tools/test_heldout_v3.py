"""The third held-out set (tests/data/heldout_v3): questions and ground truth written before reading what
``aggregate`` can do, over three public datasets no other test uses. Each question's one call
(``calls.yaml``) runs over the files loaded by our loader with default options; the ground truth runs over
the same files read by DuckDB's own ``read_csv`` (its column names, e.g. "Sub-Category")."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.tools.heldout import assert_one_call_answers, loaded_workspace, truth_connection

DATA = Path(__file__).parents[1] / "data" / "heldout_v3"
FILES = {"superstore": "superstore.csv.gz", "seattle_weather": "seattle_weather.csv",
         "us_marriages_divorces": "us_marriages_divorces.csv"}  # fmt: skip
QUESTIONS = yaml.safe_load((DATA / "questions.yaml").read_text(encoding="utf-8"))
CALLS = yaml.safe_load((DATA / "calls.yaml").read_text(encoding="utf-8"))
ANSWERABLE = [q for q in QUESTIONS if CALLS.get(q["id"], {}).get("call")]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory):
    yield from loaded_workspace(tmp_path_factory.mktemp("v3") / "heldout.duckdb", DATA, FILES)


@pytest.fixture(scope="module")
def truth():
    yield from truth_connection(DATA, FILES)


def test_every_question_has_its_call_or_the_reason_none_can_answer():
    assert {q["id"] for q in QUESTIONS} == set(CALLS)
    assert all(c.get("impossible") for c in CALLS.values() if not c.get("call"))
    assert len(ANSWERABLE) >= 0.95 * len(QUESTIONS)


@pytest.mark.parametrize("question", ANSWERABLE, ids=[q["id"] for q in ANSWERABLE])
def test_one_call_answers_the_held_out_v3_question_exactly(loaded, truth, question):
    assert_one_call_answers(loaded, truth, question, CALLS[question["id"]])
