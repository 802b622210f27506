"""``eval --model offline``: the bundled deterministic stand-in gives a real report with no server; and
``eval`` calls an answer grounded exactly when ``ask`` prints no caveat under it (an answer with no tool
call is not grounded when it states numbers; a refusal or an opinion with no number of its own claims
nothing to check)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from eval_models import EvalModel, just_answer

from analytics_agent.cli.app import main
from analytics_agent.present.trace import NO_TOOL_CAVEAT
from analytics_agent.workspace.offline_model import CANNOT


def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["analytics-agent", *argv])
    with pytest.raises(SystemExit) as info:
        main()
    out, _ = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else int(code is not None)), out


def test_the_offline_model_gives_a_real_report_on_the_bundled_set(sample_db, monkeypatch, capsys) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, out = run_cli(
        monkeypatch, capsys, "--db", str(sample_db), "eval", "--model", "offline", "--json", "-q"
    )
    payload = json.loads(out)
    results = {r["id"]: r for r in payload["results"]}
    assert code == 1 and len(results) == 50  # every bundled question asked; a stand-in does not pass them all
    # each verdict comes from the case's own SQL and scoring, not from the stand-in
    looked_up = results["sales-pune-day"]
    assert (looked_up["passed"], looked_up["grounded"], looked_up["tool_calls"]) == (True, True, 1)
    assert looked_up["expected"] == [3, 4798] and "3 orders" in looked_up["answer"]
    assert results["order-lower-case"]["passed"] and results["city-top-october"]["passed"]
    refused = results["trend-q3-months"]
    assert refused["answer"] == CANNOT and refused["tool_calls"] == 0
    assert (refused["passed"], refused["grounded"]) == (False, True)  # no number: nothing unverified
    assert "no tool was called" not in refused["reason"]
    passed = sum(r["passed"] for r in results.values())
    assert 0 < passed < 50
    (summary,) = payload["summary"]["models"]
    assert (summary["passed"], summary["total"]) == (passed, 50)


def test_the_offline_report_prints_as_a_table(sample_db, monkeypatch, capsys) -> None:
    code, out = run_cli(
        monkeypatch,
        capsys,
        "--db",
        str(sample_db),
        "eval",
        "--model",
        "offline",
        "--only",
        "sales-pune-day",
        "-q",
    )
    assert code == 0, out
    row = next(line for line in out.splitlines() if line.startswith("sales-pune-day"))
    assert row.split()[1:4] == ["offline", "pass", "yes"]


@pytest.mark.parametrize(
    ("answer", "caveat"),
    [("Yes, Pune is a good market: sales grew 12% this quarter.", NO_TOOL_CAVEAT),
     ("Yes, Pune is a good market.", None)],
)  # fmt: skip
def test_eval_and_ask_agree_an_answer_without_a_tool_call_is_flagged_when_it_states_numbers(
    sample_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    answer: str,
    caveat: str | None,
) -> None:
    question = "Is Pune a good market?"
    model = EvalModel({("m", question): just_answer(answer)})  # no tool
    try:
        cases = tmp_path / "q.jsonl"
        cases.write_text(
            json.dumps({"id": "opinion", "question": question, "expect": ["Pune"]}), encoding="utf-8"
        )
        _, out = run_cli(
            monkeypatch, capsys, "--db", str(sample_db), "eval", str(cases), "--base-url", model.url, "-m", "m",
            "--json", "-q",
        )  # fmt: skip
        result = json.loads(out)["results"][0]
        _, asked = run_cli(
            monkeypatch, capsys, "--db", str(sample_db), "ask", question, "--base-url", model.url, "--model", "m",
            "--json",
        )  # fmt: skip
    finally:
        model.close()
    assert json.loads(asked)["caveat"] == caveat  # what ask says under the answer
    assert result["passed"] and result["grounded"] == (caveat is None)
    assert result["reason"] == ("unverified: 12%; no tool was called" if caveat else "")
