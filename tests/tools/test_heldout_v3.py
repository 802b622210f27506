"""The third held-out set (tests/data/heldout_v3): questions and ground truth written before reading what
``aggregate`` can do, over three public datasets no other test uses. Each question's one call
(``calls.yaml``) runs over the files loaded by our loader with default options; the ground truth runs over
the same files read by DuckDB's own ``read_csv`` (its column names, e.g. "Sub-Category")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from analytics_agent.db.loader import load_files
from analytics_agent.db.sources import LoadOptions
from analytics_agent.db.values import to_jsonable
from analytics_agent.workspace.workspace import Workspace

DATA = Path(__file__).parents[1] / "data" / "heldout_v3"
FILES = {"superstore": "superstore.csv.gz", "seattle_weather": "seattle_weather.csv",
         "us_marriages_divorces": "us_marriages_divorces.csv"}  # fmt: skip
QUESTIONS = yaml.safe_load((DATA / "questions.yaml").read_text(encoding="utf-8"))
CALLS = yaml.safe_load((DATA / "calls.yaml").read_text(encoding="utf-8"))
ANSWERABLE = [q for q in QUESTIONS if CALLS.get(q["id"], {}).get("call")]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("v3") / "heldout.duckdb"
    for name in FILES.values():
        load_files(db, [str(DATA / name)], LoadOptions())
    ws = Workspace.open(db)
    yield ws
    ws.close()


@pytest.fixture(scope="module")
def truth():
    conn = duckdb.connect()
    for table, name in FILES.items():
        conn.execute(f"CREATE TABLE {table} AS FROM read_csv(?)", [str(DATA / name)])
    yield conn
    conn.close()


def _same(got: Any, want: Any) -> bool:
    if isinstance(got, int | float) and isinstance(want, int | float) and not isinstance(got, bool):
        return abs(got - want) <= 1e-6 * max(1.0, abs(want))
    if isinstance(got, str) and isinstance(want, int):  # a year label "2012" for year(date) = 2012
        return got == str(want)
    if isinstance(got, str) and isinstance(want, str) and len(got) == 3 and got != want:
        return want.startswith(got)  # "Nov" for monthname's "November", "Mon" for dayname's "Monday"
    return got == want


def test_every_question_has_its_call_or_the_reason_none_can_answer():
    assert {q["id"] for q in QUESTIONS} == set(CALLS)
    assert all(c.get("impossible") for c in CALLS.values() if not c.get("call"))
    assert len(ANSWERABLE) >= 0.95 * len(QUESTIONS)


@pytest.mark.parametrize("question", ANSWERABLE, ids=[q["id"] for q in ANSWERABLE])
def test_one_call_answers_the_held_out_v3_question_exactly(loaded, truth, question):
    entry = CALLS[question["id"]]
    outcome = loaded.executor.execute("aggregate", json.dumps(entry["call"], default=str))
    assert not outcome.is_error, outcome.text
    result = json.loads(outcome.text)
    assert not result.get("truncated")
    picked = [result["columns"].index(c) for c in entry.get("columns", result["columns"])]
    got = [[row[i] for i in picked] for row in result["rows"]]
    want = [list(to_jsonable(list(r))) for r in truth.execute(question["sql"]).fetchall()]
    if not question.get("ordered"):
        got, want = sorted(got, key=repr), sorted(want, key=repr)
    assert len(got) == len(want) and all(
        len(g) == len(w) and all(_same(x, y) for x, y in zip(g, w, strict=True))
        for g, w in zip(got, want, strict=True)
    ), f"{question['question']}\n got: {got}\nwant: {want}"
