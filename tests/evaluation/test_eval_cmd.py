"""``analytics-agent eval`` end to end: the real CLI, provider, loop and tools against stand-in models on
a loopback server (right with tools, right without, wrong, failing mid-run, slow)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from eval_models import EvalModel, calls_then, just_answer

from analytics_agent.cli.app import main
from analytics_agent.providers.scripted import ScriptedCall, Step

PUNE_CALL = [ScriptedCall("sales_summary", {"city": "Pune", "day": "2026-10-24"})]
RIGHT = "Pune had 3 orders and ₹4,798 revenue."
QUESTIONS = {
    "with-tools": "How did Pune do on 2026-10-24?",
    "without-tools": "Pune on 2026-10-24: orders and revenue?",
    "wrong": "What were Pune's orders and revenue on 2026-10-24?",
    "fails-mid-run": "Pune's sales on 2026-10-24, please?",
}
SQL = (
    "SELECT count(*), sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')) "
    "FROM orders WHERE city = 'Pune' AND day = DATE '2026-10-24'"
)
RESULT_KEYS = {
    "id", "model", "passed", "grounded", "answer", "expected", "reason", "steps", "tool_calls",
    "input_tokens", "output_tokens", "latency_s",
}  # fmt: skip


BEHAVIOURS = {
    "with-tools": calls_then(PUNE_CALL, RIGHT),
    "without-tools": just_answer(RIGHT),
    "wrong": calls_then(PUNE_CALL, "Pune had 3 orders and ₹5,120 revenue."),
    "fails-mid-run": lambda body: (
        Step(status=400, error_message="the model crashed")
        if any(m.get("role") == "tool" for m in body["messages"])
        else Step(tool_calls=PUNE_CALL)
    ),
}


@pytest.fixture
def question_file(tmp_path: Path) -> Path:
    path = tmp_path / "pune.jsonl"
    path.write_text("\n".join(json.dumps({"id": k, "question": q, "sql": SQL}) for k, q in QUESTIONS.items()))
    return path


@pytest.fixture
def models() -> Iterator:
    started: list[EvalModel] = []

    def start(behaviours: dict[str, dict], *, delay_s: float = 0.0) -> EvalModel:
        routes = {(name, QUESTIONS[k]): b for name, per_q in behaviours.items() for k, b in per_q.items()}
        model = EvalModel(routes, delay_s=delay_s)
        started.append(model)
        return model

    yield start
    for model in started:
        model.close()


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


@pytest.fixture
def run_eval(sample_db: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch):
    """The console entry point in-process (one-line errors included): exit code, stdout, stderr."""

    def run(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["analytics-agent", "--db", str(sample_db), "eval", *args])
        with pytest.raises(SystemExit) as info:
            main()
        out, err = capsys.readouterr()
        code = info.value.code
        return Run(code if isinstance(code, int) else int(code is not None), out, err)

    return run


def test_each_kind_of_answer_is_judged_and_the_json_has_the_documented_shape(
    run_eval, question_file: Path, models
) -> None:
    model = models({"m": BEHAVIOURS})
    result = run_eval(str(question_file), "--base-url", model.url, "-m", "m", "--json", "-q")
    assert result.exit_code == 1, result.output  # not every question passed
    payload = json.loads(result.stdout)
    assert set(payload) == {"results", "summary"}
    results = {r["id"]: r for r in payload["results"]}
    assert list(results) == list(QUESTIONS)
    assert all(set(r) == RESULT_KEYS for r in payload["results"])
    assert all(r["expected"] == [3, 4798] for r in payload["results"])  # from the case's SQL

    right, untooled, wrong, failed = (results[k] for k in QUESTIONS)
    assert (right["passed"], right["grounded"], right["reason"]) == (True, True, "")
    assert (right["steps"], right["tool_calls"]) == (2, 1) and right["input_tokens"] > 0
    assert (untooled["passed"], untooled["grounded"]) == (True, False)
    assert untooled["reason"] == "unverified: 3; ₹4,798; no tool was called" and untooled["tool_calls"] == 0
    assert (wrong["passed"], wrong["grounded"]) == (False, False)
    assert wrong["reason"] == "missing 4,798; unverified: ₹5,120"
    assert (failed["passed"], failed["answer"]) == (False, "")
    assert failed["reason"].startswith("error: ") and "the model crashed" in failed["reason"]

    summary = payload["summary"]
    assert {k: summary[k] for k in ("passed", "grounded", "total")} == {
        "passed": 2,
        "grounded": 1,
        "total": 4,
    }
    assert summary["pass_rate"] == 0.5 and summary["grounded_pass_rate"] == 0.25
    assert [m["model"] for m in summary["models"]] == ["m"] and summary["models"][0]["errors"] == 1


def test_the_table_shows_each_question_with_its_reason_and_the_model_summary(
    run_eval, question_file: Path, models
) -> None:
    model = models({"m": BEHAVIOURS})
    result = run_eval(str(question_file), "--base-url", model.url, "-m", "m")
    lines = result.stdout.splitlines()
    wrong = next(line for line in lines if line.startswith("wrong "))
    assert "FAIL" in wrong and wrong.endswith("missing 4,798; unverified: ₹5,120")
    summary = next(line for line in lines if line.startswith("m "))
    assert "2/4 (50%)" in summary and "25%" in summary
    assert "[4/4] 2 passed, 2 failed" in result.stderr and "run saved: " in result.stderr


@pytest.mark.parametrize(("fail_under", "code"), [("50", 0), ("51", 1)])
def test_fail_under_gates_on_the_pass_rate(
    run_eval, question_file: Path, models, fail_under: str, code: int
) -> None:
    model = models({"m": BEHAVIOURS})
    args = [str(question_file), "--base-url", model.url, "-m", "m", "-q", "--fail-under", fail_under]
    assert run_eval(*args).exit_code == code


def test_all_passing_exits_0(run_eval, question_file: Path, models) -> None:
    model = models({"m": {k: calls_then(PUNE_CALL, RIGHT) for k in QUESTIONS}})
    result = run_eval(str(question_file), "--base-url", model.url, "-m", "m", "-q")
    assert result.exit_code == 0, result.output


def test_without_a_model_eval_exits_2_with_how_to_configure_one(run_eval) -> None:
    result = run_eval()
    assert result.exit_code == 2
    assert "no model configured" in result.stderr


def test_several_models_side_by_side_with_repeats_and_cost(run_eval, question_file: Path, models) -> None:
    model = models({"good": {k: calls_then(PUNE_CALL, RIGHT) for k in QUESTIONS}, "bad": BEHAVIOURS})
    args = [str(question_file), "--base-url", model.url, "-m", "good", "-m", "bad", "--repeat", "2"]
    result = run_eval(*args, "--price", "good=1,2", "--json", "-q", "--jobs", "3")
    payload = json.loads(result.stdout)
    assert len(payload["results"]) == 4 * 2 * 2
    ids = [(r["id"], r["model"]) for r in payload["results"]]
    assert ids[:8] == [(k, m) for k in QUESTIONS for m in ("good", "bad")]  # side by side, then repeat 2
    assert ids[8:] == ids[:8]
    good, bad = payload["summary"]["models"]
    assert (good["model"], good["passed"], good["total"]) == ("good", 8, 8)
    assert (bad["model"], bad["passed"], bad["total"]) == ("bad", 4, 8)
    tokens_in = sum(r["input_tokens"] for r in payload["results"] if r["model"] == "good")
    tokens_out = sum(r["output_tokens"] for r in payload["results"] if r["model"] == "good")
    assert good["cost_usd"] == pytest.approx((tokens_in * 1 + tokens_out * 2) / 1e6, abs=1e-6)
    assert "cost_usd" not in bad


def test_concurrent_jobs_put_every_question_with_the_model_at_once(
    run_eval, question_file: Path, models
) -> None:
    model = models({"m": {k: calls_then(PUNE_CALL, RIGHT) for k in QUESTIONS}}, delay_s=0.4)
    result = run_eval(str(question_file), "--base-url", model.url, "-m", "m", "--jobs", "4", "--json")
    latencies = [r["latency_s"] for r in json.loads(result.stdout)["results"]]
    assert model.most_in_flight == 4  # all four questions were with the model at once
    assert min(latencies) >= 0.8  # two requests of 0.4 s each


def test_compare_shows_what_regressed_since_the_last_run(run_eval, question_file: Path, models) -> None:
    model = models({"m": {k: calls_then(PUNE_CALL, RIGHT) for k in QUESTIONS}})
    args = [str(question_file), "--base-url", model.url, "-m", "m", "-q"]
    assert run_eval(*args).exit_code == 0
    model.behaviours[("m", QUESTIONS["wrong"])] = calls_then(
        PUNE_CALL, "Pune had 3 orders and ₹5,120 revenue."
    )
    model.behaviours[("m", QUESTIONS["without-tools"])] = just_answer(RIGHT)
    result = run_eval(*args, "--compare", "last")
    report = result.stdout[result.stdout.index("Compared with the previous run") :]
    assert "pass rate 100% -> 75%" in report
    lines = report.splitlines()
    assert any(
        line.split()[:3] == ["wrong", "m", "regressed"] and "fail, ungrounded" in line for line in lines
    )
    assert any(line.split()[:3] == ["without-tools", "m", "regressed"] for line in lines)


def test_a_bad_question_file_is_one_line_naming_the_line(run_eval, tmp_path: Path, models) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("- id: a\n  question: q\n  sql: SELECT 1\n- id: b\n  question: q\n  expcet: [1]\n")
    model = models({})
    result = run_eval(str(path), "--base-url", model.url, "-m", "m")
    assert result.exit_code == 1
    assert result.stderr.strip() == f"error: {path}:4: case 'b': expcet: unknown key"
    assert model.requests == 0


def test_a_case_whose_sql_fails_stops_the_run_before_any_model_is_asked(
    run_eval, tmp_path: Path, models
) -> None:
    path = tmp_path / "bad.jsonl"
    good = json.dumps({"id": "w", "question": "q", "sql": "SELECT 1"})
    path.write_text(
        good + "\n\n" + json.dumps({"id": "x", "question": "q", "sql": "SELECT nope FROM orders"}) + "\n"
    )
    model = models({})
    result = run_eval(str(path), "--base-url", model.url, "-m", "m")
    assert result.exit_code == 1
    assert (
        result.stderr.startswith(f"error: {path}:3: case 'x': its sql failed: ") and "nope" in result.stderr
    )
    assert model.requests == 0


@pytest.mark.parametrize(
    "text, line",
    [
        (
            "- id: a\n  question: q\n  sql: SELECT 1\n- id: x\n  question: q\n  sql: SELECT nope FROM orders\n",
            6,
        ),
        (
            "cases:\n  - id: x\n    question: q\n    tags: [t]\n    sql: |\n      SELECT nope\n      FROM orders\n",
            6,
        ),
    ],
    ids=["inline", "block"],
)
def test_a_failing_yaml_sql_is_reported_with_its_file_and_line(
    run_eval, tmp_path: Path, models, text: str, line: int
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    model = models({})
    result = run_eval(str(path), "--base-url", model.url, "-m", "m")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}:{line}: case 'x': its sql failed: "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and model.requests == 0


def test_only_runs_the_chosen_cases(run_eval, question_file: Path, models) -> None:
    model = models({"m": BEHAVIOURS})
    result = run_eval(
        str(question_file), "--base-url", model.url, "-m", "m", "--only", "wrong", "--json", "-q"
    )
    assert [r["id"] for r in json.loads(result.stdout)["results"]] == ["wrong"]
    assert model.requests == 2  # the tool call, then the answer: no other question was asked
