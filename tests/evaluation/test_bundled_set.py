"""The bundled question set: broad enough, answerable through the tools, and free of false alarms."""

from __future__ import annotations

import json
from pathlib import Path

from eval_models import EvalModel, reference_behaviour
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.evaluation.cases import bundled_file, load_cases
from analytics_agent.evaluation.runner import prepare
from analytics_agent.workspace.workspace import Workspace

KINDS = {"relative-date", "typo", "case", "two-step", "no-answer", "injection", "aggregate"}


def test_the_set_covers_every_domain_tool_and_every_kind_of_question(workspace: Workspace) -> None:
    cases = load_cases(bundled_file())
    assert len(cases) >= 40
    called = {call.tool for case in cases for call in case.calls}
    domain = {t.name for t in workspace.registry} - {"list_tables", "describe_table", "run_sql"}
    assert domain <= called, f"no case calls {sorted(domain - called)}"
    tags = {tag for case in cases for tag in case.tags}
    assert tags >= KINDS
    assert all(c.today for c in cases if "relative-date" in c.tags)
    assert all(c.sql or c.no_answer for c in cases)  # expected values come from the data, never copied


def test_reference_answers_to_every_bundled_question_pass_and_are_grounded(sample_db: Path) -> None:
    """A model that calls the reference tools and writes the SQL's values in varied formats: through the
    real CLI, provider, loop and tools, every answer must pass and no number may be flagged."""
    cases = load_cases(bundled_file())
    with Workspace.open(sample_db) as ws:
        prepared = prepare(ws, cases)
    model = EvalModel({("ref", p.case.question): reference_behaviour(p.case, p.expected) for p in prepared})
    try:
        args = ["--db", str(sample_db), "eval", "--base-url", model.url, "--model", "ref", "--json", "-q"]
        result = CliRunner().invoke(app, [*args, "--jobs", "4"])
    finally:
        model.close()
    payload = json.loads(result.stdout)
    wrong = [
        (r["id"], r["reason"], r["answer"]) for r in payload["results"] if not (r["passed"] and r["grounded"])
    ]
    assert wrong == []
    assert result.exit_code == 0
    assert payload["summary"]["total"] == len(cases) == payload["summary"]["passed"]
