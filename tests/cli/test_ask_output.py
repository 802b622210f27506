"""What ask shows besides the answer, end to end: a real process, a loopback model server, a real database.

The chart under the answer, --chart-file, --save-results, --show-sql, --json with SQL and as an error
object, colour on a terminal and NO_COLOR, and the spinner while the model thinks.
"""

from __future__ import annotations

import csv
import json
import re
import time
import xml.etree.ElementTree as ET

import pytest
from cli_process import run_cli, run_in_terminal
from loopback import LoopbackServer

from analytics_agent.agent.events import AgentResult
from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step

TREND_ARGS = {"period": "2026-01-01..2026-10-31", "grain": "month"}
ANSWER = "Revenue rose from 5.6M in January to 11.7M in October (revenue_trend)."


@pytest.fixture
def model_server():
    servers = []

    def start(*steps: Step, delay: float = 0.0) -> str:
        script = ScriptedModel(list(steps))

        def answer(path, headers, body):
            time.sleep(delay)
            return script.respond("POST", path, headers, body)

        server = LoopbackServer(answer)
        servers.append(server)
        return server.url + "/v1"

    yield start
    for server in servers:
        server.close()


def trend_steps() -> list[Step]:
    return [Step(tool_calls=[ScriptedCall("revenue_trend", TREND_ARGS)]), Step(text=ANSWER)]


def ask(url: str, db, question: str, *extra: str) -> list[str]:
    return ["--db", str(db), "ask", question, "--base-url", url, "--model", "m", "--no-stream", *extra]


def test_a_plot_question_shows_the_chart_under_the_answer_even_when_piped(model_server, sample_db, tmp_path):
    url = model_server(*trend_steps())
    result = run_cli(ask(url, sample_db, "Plot revenue by month this year", "-q"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    answer, _, chart = result.stdout.partition("\n\n")
    assert answer == ANSWER
    assert chart.splitlines()[0] == "revenue_trend: revenue by period"
    assert "2026-01" in chart.splitlines()[-2] and "2026-10" in chart.splitlines()[-2]
    assert (
        chart.splitlines()[-1] == "not drawn: orders (another unit or scale than revenue)"
    )  # said, not hidden


def test_a_piped_answer_has_no_chart_unless_asked_and_no_chart_wins(model_server, sample_db, tmp_path):
    plain = run_cli(ask(model_server(*trend_steps()), sample_db, "How did revenue go?", "-q"), cwd=tmp_path)
    assert plain.stdout.strip() == ANSWER
    forced = run_cli(ask(model_server(*trend_steps()), sample_db, "How?", "-q", "--chart"), cwd=tmp_path)
    assert "revenue_trend: revenue by period" in forced.stdout
    refused = run_cli(
        ask(model_server(*trend_steps()), sample_db, "Plot it", "-q", "--no-chart"), cwd=tmp_path
    )
    assert refused.stdout.strip() == ANSWER


def test_chart_file_and_saved_results_hold_the_tools_numbers(model_server, sample_db, tmp_path):
    url = model_server(*trend_steps())
    svg, folder = tmp_path / "trend.svg", tmp_path / "results"
    extra = ["-q", "--chart-file", str(svg), "--save-results", str(folder)]
    result = run_cli(ask(url, sample_db, "Revenue per month?", *extra), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader((folder / "01-revenue_trend.csv").open(encoding="utf-8")))
    assert [r["period"][:7] for r in rows] == [f"2026-{m:02d}" for m in range(1, 11)]
    points = ET.parse(svg).getroot().findall(".//{http://www.w3.org/2000/svg}circle[@class='point']")
    assert [float(p.get("data-value")) for p in points] == [float(r["revenue"]) for r in rows]
    assert f"Saved 1 result as CSV in {folder}" in result.stderr


def test_show_sql_puts_each_calls_sql_and_values_in_the_trace(model_server, sample_db, tmp_path):
    result = run_cli(ask(model_server(*trend_steps()), sample_db, "q", "--show-sql"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    trace = result.stderr
    call_line = trace.index("revenue_trend {")
    assert trace.index("SELECT", call_line) > call_line
    assert '-- parameters: $period_start = "2026-01-01"' in trace
    assert "SELECT" not in result.stdout


def test_json_carries_each_calls_sql_and_lists_stop(model_server, sample_db, tmp_path):
    result = run_cli(ask(model_server(*trend_steps()), sample_db, "q", "--json"), cwd=tmp_path)
    data = json.loads(result.stdout)
    call = data["tool_calls"][0]
    assert "date_trunc" in call["sql"] and call["params"]["grain"] == "month"
    assert data["stop"] == "answer"
    help_text = run_cli(["ask", "--help"], cwd=tmp_path, env={"COLUMNS": "200"}).stdout
    every_field = [*AgentResult(answer="", steps=0).as_dict(), "error"]
    assert all(f'"{field}"' in help_text for field in every_field), help_text


def test_json_prints_an_error_object_when_the_question_fails(model_server, sample_db, tmp_path):
    url = model_server(Step(status=401, error_message="Incorrect API key provided"))
    result = run_cli(ask(url, sample_db, "q", "--json", "--max-retries", "0"), cwd=tmp_path)
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert data["stop"] == "error" and "Incorrect API key" in data["error"]
    assert data["error_type"] == "ProviderAuthError"


def test_json_without_a_model_is_an_error_object_and_exit_2(tmp_path):
    env = {k: None for k in ("LLM_MODEL", "ANALYTICS_AGENT_MODEL", "OPENAI_BASE_URL", "LLM_BASE_URL")}
    result = run_cli(["ask", "q", "--json"], cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "--model" in json.loads(result.stdout)["error"]


def test_on_a_terminal_the_answer_is_coloured_and_no_color_turns_it_off(model_server, sample_db, tmp_path):
    code, screen = run_in_terminal(ask(model_server(*trend_steps()), sample_db, "q", "-q"), cwd=tmp_path)
    assert code == 0, screen
    assert "\x1b[1m" in screen and "\x1b[36m5.6M\x1b[0m" in screen
    assert "revenue_trend: revenue by period" in screen  # a terminal gets the chart by default
    code, screen = run_in_terminal(
        ask(model_server(*trend_steps()), sample_db, "q", "-q"), cwd=tmp_path, env={"NO_COLOR": "1"}
    )
    assert code == 0 and "\x1b[36m" not in screen and "\x1b[1m" not in screen and ANSWER in screen


def test_a_slow_model_shows_a_spinner_with_elapsed_time_on_a_terminal(model_server, sample_db, tmp_path):
    # The reply takes 2.5 s: the spinner (drawn after 1 s) has a window of 1.5 s to show itself even on a
    # busy machine, and any of its figures in that window will do.
    url = model_server(Step(text=ANSWER), delay=2.5)
    code, screen = run_in_terminal(ask(url, sample_db, "q"), cwd=tmp_path)
    assert code == 0, screen
    assert re.search(r"waiting for openai:m [12]\.\ds", screen), screen  # still turning after a second
    assert "\r\x1b[K[step 1] reply in" in screen  # the spinner's line is cleared before the trace goes on
    plain = re.sub(r"\x1b\[[0-9;]*[mK]", "", screen)
    assert "waiting for" not in plain[plain.index(ANSWER) :]  # no spinner once the answer is there


def test_chat_draws_each_answers_chart_when_the_question_asks_for_a_plot(model_server, sample_db, tmp_path):
    url = model_server(*trend_steps(), Step(text="Nothing to draw."))
    args = ["--db", str(sample_db), "chat", "--base-url", url, "--model", "m", "--no-stream", "-q"]
    result = run_cli(args, cwd=tmp_path, stdin="Plot revenue per month\nAnd in words?\n/exit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("revenue_trend: revenue by period") == 1
    assert out.index(ANSWER) < out.index("revenue_trend: revenue by period") < out.index("Nothing to draw.")
