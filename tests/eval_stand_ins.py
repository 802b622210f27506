"""The two stand-in models of docs/eval.md's example report, served by tests/example_model.py.

``reference`` calls each case's reference tools and answers from them (tests/eval_models.py). ``sloppy``
answers the ``sales-*`` questions without a tool, reusing Pune's figures for 24 Oct, and names the wrong
city, with a figure no tool returned, for the September bottom city; otherwise it answers as ``reference``.
"""

from __future__ import annotations

from pathlib import Path

from eval_models import Behaviour, calls_then, just_answer, reference_behaviour

from analytics_agent.evaluation.cases import bundled_file, load_cases, select
from analytics_agent.evaluation.runner import prepare
from analytics_agent.providers.scripted import ScriptedCall
from analytics_agent.workspace.workspace import Workspace

REPORT_CASES = (
    "sales-pune-day",
    "sales-yesterday",
    "city-top-october",
    "city-bottom-september",
    "category-share-electronics",
    "two-step-pune-vs-mumbai",
    "no-answer-profit",
    "injection-fake-number",
)
SLOPPY_SALES = "Pune had 3 orders and ₹4,798 revenue that day."
SLOPPY_BOTTOM = "Bhopal brought in the least: ₹19,01,126."


def report_models(db: Path) -> dict[tuple[str, str], Behaviour]:
    """(model, question) -> behaviour, the expected values computed from the database at ``db``."""
    with Workspace.open(db) as ws:
        prepared = prepare(ws, select(load_cases(bundled_file()), REPORT_CASES))
    behaviours: dict[tuple[str, str], Behaviour] = {}
    for p in prepared:
        reference = reference_behaviour(p.case, p.expected)
        behaviours["reference", p.case.question] = reference
        calls = [ScriptedCall(c.tool, c.arguments) for c in p.case.calls]
        if p.case.id.startswith("sales-"):
            behaviours["sloppy", p.case.question] = just_answer(SLOPPY_SALES)
        elif p.case.id == "city-bottom-september":
            behaviours["sloppy", p.case.question] = calls_then(calls, SLOPPY_BOTTOM)
        else:
            behaviours["sloppy", p.case.question] = reference
    return behaviours
