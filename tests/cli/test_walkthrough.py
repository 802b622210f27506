"""The README's own walk-through as a user runs it: load a CSV (with a zoned timestamp column), call a tool,
ask a model (a scripted one on loopback). CI runs this module in the `[lake]` environment too (DuckDB 1.5.5),
where a zoned timestamp once failed every load because nothing declared the pytz its client needs."""

from __future__ import annotations

import json

import pytest
from cli_process import run_cli
from loopback import LoopbackServer

from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step

CSV = (
    "visited_at,city,amount\n"
    "2026-10-24 09:15:00+05:30,Pune,120\n"
    "2026-10-24 18:40:00+05:30,Pune,80\n"
    "2026-10-25 11:00:00+00:00,Leeds,55\n"
)
BY_CITY = {"table": "visits", "metrics": [{"fn": "sum", "column": "amount"}], "group_by": ["city"]}


@pytest.fixture
def loaded(tmp_path):
    (tmp_path / "visits.csv").write_text(CSV)
    db = tmp_path / "walk.duckdb"
    load = run_cli(["--db", str(db), "load", "visits.csv"], cwd=tmp_path)
    assert load.returncode == 0, load.stderr
    assert "3 rows" in load.stdout, load.stdout
    return db


def test_a_zoned_timestamp_column_loads_and_is_described(loaded, tmp_path):
    described = run_cli(
        ["--db", str(loaded), "tools", "call", "describe_table", '{"table": "visits"}'], cwd=tmp_path
    )
    assert described.returncode == 0, described.stderr
    text = described.stdout
    assert "visited_at" in text and "TIMESTAMP WITH TIME ZONE" in text.upper(), text
    assert "2026-10-24" in text  # its range is shown, converted by the client without an error


def test_tools_call_answers_from_the_loaded_rows(loaded, tmp_path):
    called = run_cli(["--db", str(loaded), "tools", "call", "aggregate", json.dumps(BY_CITY)], cwd=tmp_path)
    assert called.returncode == 0, called.stderr
    rows = {row[0]: row[1] for row in json.loads(called.stdout)["rows"]}
    assert rows == {"Pune": 200, "Leeds": 55}


def test_ask_runs_the_model_s_tool_call_and_prints_its_answer(loaded, tmp_path):
    script = ScriptedModel(
        [Step(tool_calls=[ScriptedCall("aggregate", BY_CITY)]), Step(text="Pune: 200, Leeds: 55.")]
    )
    server = LoopbackServer(lambda path, headers, body: script.respond("POST", path, headers, body))
    try:
        args = ["--db", str(loaded), "ask", "Amount by city?", "--base-url", server.url + "/v1"]
        asked = run_cli([*args, "--model", "m", "--no-stream", "--json"], cwd=tmp_path)
    finally:
        server.close()
    assert asked.returncode == 0, asked.stderr
    out = json.loads(asked.stdout)
    assert out["answer"] == "Pune: 200, Leeds: 55." and out["stop"] == "answer"
    assert [call["name"] for call in out["tool_calls"]] == ["aggregate"]
