"""Unverified numbers through the real CLI, provider and loop: under the answer, in --json, in the transcript."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from loopback import LoopbackServer
from typer.testing import CliRunner

from analytics_agent.cli.app import app
from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step

QUESTION = "How did Pune do on 2026-10-24?"


def pune_steps(answer: str) -> list[Step]:
    return [
        Step(tool_calls=[ScriptedCall("sales_summary", {"city": "Pune", "day": "2026-10-24"})]),
        Step(text=answer),
    ]


def ask(sample_db: Path, tmp_path: Path, steps: list[Step], *extra: str):
    script = ScriptedModel(steps)
    transcript = tmp_path / "t.jsonl"
    with LoopbackServer(lambda path, headers, body: script.respond("POST", path, headers, body)) as server:
        args = ["--db", str(sample_db), "ask", QUESTION, "--base-url", server.url + "/v1", "--model", "m"]
        result = CliRunner().invoke(app, [*args, "--no-stream", "--transcript", str(transcript), *extra])
    script.assert_all_used()
    records = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    return result, next(r for r in records if r["type"] == "answer")


def test_an_invented_number_is_named_under_the_answer_and_recorded(sample_db: Path, tmp_path: Path) -> None:
    result, record = ask(
        sample_db, tmp_path, pune_steps("Pune had 3 orders and ₹5,120 revenue on 24 Oct 2026.")
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    answer_at = lines.index("Pune had 3 orders and ₹5,120 revenue on 24 Oct 2026.")
    assert lines[answer_at + 1] == "[unverified] no tool returned these numbers: ₹5,120"
    assert record["unverified_numbers"] == ["₹5,120"]


def test_an_answer_from_the_tool_results_has_no_warning(sample_db: Path, tmp_path: Path) -> None:
    result, record = ask(
        sample_db, tmp_path, pune_steps("Pune had 3 orders and ₹4,798 revenue (1 cancelled).")
    )
    assert result.exit_code == 0, result.output
    assert "[unverified]" not in result.output
    assert record["unverified_numbers"] == []


@pytest.mark.parametrize("invented", [True, False])
def test_json_lists_the_unverified_numbers(sample_db: Path, tmp_path: Path, invented: bool) -> None:
    answer = "Revenue was 4.8k from 3 orders" + (", 12 of them returned." if invented else ".")
    result, _ = ask(sample_db, tmp_path, pune_steps(answer), "--json", "-q")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["unverified_numbers"] == (["12"] if invented else [])


def test_an_answer_without_any_tool_call_is_all_unverified(sample_db: Path, tmp_path: Path) -> None:
    result, record = ask(sample_db, tmp_path, [Step(text="Pune had 3 orders and ₹4,798 revenue.")])
    assert result.exit_code == 0, result.output
    assert record["unverified_numbers"] == ["3", "₹4,798"]


def test_chat_traces_a_follow_up_to_an_earlier_questions_results(sample_db: Path, tmp_path: Path) -> None:
    script = ScriptedModel(
        [
            *pune_steps("Pune had 3 orders and ₹4,798 revenue."),
            Step(text="That is ₹1,599 an order."),  # 4798 / 3, from the first question's result
            Step(text="And 7 of them were returned."),  # from nowhere
        ]
    )
    stdin = "How did Pune do on 2026-10-24?\nPer order?\nReturns?\n/exit\n"
    with LoopbackServer(lambda path, headers, body: script.respond("POST", path, headers, body)) as server:
        args = ["--db", str(sample_db), "chat", "--base-url", server.url + "/v1", "--model", "m"]
        args += ["--no-stream", "--transcript", str(tmp_path / "t.jsonl")]
        result = CliRunner().invoke(app, args, input=stdin)
    script.assert_all_used()
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if line.startswith("[unverified]")]
    assert notes == ["[unverified] no tool returned these numbers: 7"]


def _ask_process(sample_db: Path, tmp_path: Path, steps: list[Step], *extra: str):
    """The real process with stdout redirected to a file, as `ask … > answer.txt` does."""
    from cli_process import run_cli

    script = ScriptedModel(steps)
    with LoopbackServer(lambda path, headers, body: script.respond("POST", path, headers, body)) as server:
        args = ["--db", str(sample_db), "ask", QUESTION, "--base-url", server.url + "/v1", "--model", "m"]
        done = run_cli(
            [*args, "--no-stream", "--transcript", str(tmp_path / "t.jsonl"), *extra], cwd=tmp_path
        )
    return done


def test_the_caveat_travels_with_the_answer_to_a_redirected_stdout_even_with_q(
    sample_db: Path, tmp_path: Path
) -> None:
    done = _ask_process(sample_db, tmp_path, pune_steps("Pune had 3 orders and ₹5,120 revenue."), "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Pune had 3 orders and ₹5,120 revenue.",
        "[unverified] no tool returned these numbers: ₹5,120",
    ]


def test_an_answer_with_numbers_that_called_no_tool_gets_a_caveat_everywhere(
    sample_db: Path, tmp_path: Path
) -> None:
    done = _ask_process(sample_db, tmp_path, [Step(text="Sales grew 12% this quarter.")], "--json", "-q")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["caveat"] == "[unverified] no tool was called: this answer does not come from your data"
    records = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text(encoding="utf-8").splitlines()]
    assert next(r for r in records if r["type"] == "answer")["caveat"] == payload["caveat"]


def test_a_refusal_without_a_number_that_called_no_tool_has_no_caveat(
    sample_db: Path, tmp_path: Path
) -> None:
    refusal = "I cannot answer that: this database has no weather data, only orders and customers."
    done = _ask_process(sample_db, tmp_path, [Step(text=refusal)], "--json", "-q")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["caveat"] is None
    done = _ask_process(sample_db, tmp_path, [Step(text=refusal)], "-q")
    assert done.stdout.splitlines() == [refusal]


@pytest.mark.parametrize(
    ("answer", "code"), [("Pune had 3 orders and ₹5,120 revenue.", 3), ("Pune had 3 orders.", 0)]
)
def test_strict_exits_non_zero_when_numbers_are_unverified(
    sample_db: Path, tmp_path: Path, answer: str, code: int
) -> None:
    done = _ask_process(sample_db, tmp_path, pune_steps(answer), "--strict")
    assert done.returncode == code, done.stderr
    assert answer in done.stdout
