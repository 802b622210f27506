"""The sixth held-out set (tests/data/heldout_v6_exports): three spreadsheet exports (money, percents,
month-first dates, Windows-1252, totals rows, a preamble), loaded as a user would (default options;
budget.csv with the option its refusal names). Each question's one call (``calls.yaml``, from a relay run
of a model through the real loop) returns the ground truth, which runs over tables written by hand from
what each file means (``truth_tables.sql``). And the call that forgets the totals row is refused, not
answered doubled."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.workspace.workspace import Workspace
from tests.data.heldout_truth import connect
from tests.tools.heldout import assert_one_call_answers

DATA = Path(__file__).parents[1] / "data" / "heldout_v6_exports"
QUESTIONS = yaml.safe_load((DATA / "questions.yaml").read_text(encoding="utf-8"))
CALLS = yaml.safe_load((DATA / "calls.yaml").read_text(encoding="utf-8"))
OPTIONS = yaml.safe_load((DATA / "load_options.yaml").read_text(encoding="utf-8"))
FLAGS = {"--skip": "skip"}


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    db = tmp_path_factory.mktemp("v6") / "heldout.duckdb"
    for name in ("invoices.csv", "umsatz.csv", "budget.csv"):
        flags = OPTIONS.get(name, [])
        named = {FLAGS[flag]: int(value) for flag, value in zip(flags[::2], flags[1::2], strict=True)}
        load_files(db, [str(DATA / name)], load_options(table=name.split(".")[0], **named))  # type: ignore[arg-type]
    with Workspace.open(db) as ws:
        yield ws


@pytest.fixture(scope="module")
def truth():
    conn = connect(DATA)
    yield conn
    conn.close()


def test_every_question_has_its_call():
    assert {q["id"] for q in QUESTIONS} == set(CALLS) and all(c.get("call") for c in CALLS.values())


@pytest.mark.parametrize("question", QUESTIONS, ids=[q["id"] for q in QUESTIONS])
def test_one_call_answers_the_held_out_v6_question_exactly(loaded, truth, question):
    assert_one_call_answers(loaded, truth, question, CALLS[question["id"]])


@pytest.mark.parametrize("qid", ["x01_total_invoiced", "x08_total_revenue"])
def test_the_same_call_without_the_totals_filter_is_refused(loaded, qid):
    call = {k: v for k, v in CALLS[qid]["call"].items() if k != "filters"}
    outcome = loaded.executor.execute("aggregate", json.dumps(call))
    assert outcome.is_error and "count them twice" in outcome.text
