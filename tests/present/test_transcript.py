"""The JSON Lines transcript: one record per event, secrets never written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analytics_agent.agent.events import (
    AgentResult,
    Finished,
    QuestionAsked,
    ResponseReceived,
    ToolCallRecord,
    ToolFinished,
)
from analytics_agent.conversation import ToolCall, Usage
from analytics_agent.errors import ConfigError
from analytics_agent.paths import data_dir
from analytics_agent.present.transcript import Transcript, default_transcript_path

SECRET = "sk-live-4f9Q2x8LmN"


def test_default_path_is_a_daily_file_in_the_user_data_dir() -> None:
    import datetime as dt

    assert default_transcript_path(dt.date(2026, 10, 24)) == data_dir() / "transcripts" / "2026-10-24.jsonl"


def test_events_become_json_lines_with_sql_timings_and_usage(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "t.jsonl"
    transcript = Transcript(path, secrets=[SECRET])
    record = ToolCallRecord(1, "c1", "get_order", '{"order_id": "A-1"}', False, rows=1, tokens=9, duration_ms=2.5,
                            sql="SELECT 1")  # fmt: skip
    transcript(QuestionAsked("q?", "openai", "m", "sys"))
    transcript(ResponseReceived(1, "tool_use", "", (ToolCall("c1", "get_order", "{}"),), Usage(10, 2), 12.0))
    transcript(ToolFinished(record, '{"order_id":"A-1"}'))
    transcript(Finished(AgentResult("done", 2, [record], Usage(20, 4))))
    transcript.close()
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [r["type"] for r in records] == ["question", "response", "tool", "answer"]
    assert len({r["question_id"] for r in records}) == 1 and records[0]["question_id"]
    assert records[1]["usage"]["input_tokens"] == 10 and records[1]["duration_ms"] == 12.0
    assert records[2]["sql"] == "SELECT 1" and records[2]["arguments"] == {"order_id": "A-1"}
    assert records[3]["answer"] == "done"


def test_a_secret_that_slips_into_an_event_is_redacted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    transcript = Transcript(path, secrets=[SECRET])
    transcript(QuestionAsked(f"my key is {SECRET}", "openai", "m", "sys"))
    transcript.error(f"401 for Bearer {SECRET}")
    transcript.close()
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text and text.count("[redacted]") == 2


def test_an_unwritable_transcript_path_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot write the transcript"):
        Transcript(tmp_path)  # a folder, not a file
