"""The JSON Lines transcript: one record per event, secrets never written."""

from __future__ import annotations

import errno
import json
import stat
from pathlib import Path

from analytics_agent.agent.events import (
    AgentResult,
    Finished,
    QuestionAsked,
    ResponseReceived,
    StepFailed,
    ToolCallRecord,
    ToolFinished,
)
from analytics_agent.conversation import ToolCall, Usage
from analytics_agent.paths import data_dir
from analytics_agent.present.transcript import MAX_FIELD_CHARS, Transcript, default_transcript_path

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


def test_an_unwritable_transcript_path_is_one_warning_naming_it_and_nothing_stops(tmp_path: Path) -> None:
    warnings: list[str] = []
    transcript = Transcript(tmp_path, warn=warnings.append)  # a folder, not a file
    transcript(QuestionAsked("q?", "openai", "m", "sys"))
    transcript.error("still fine")
    transcript.close()
    assert len(warnings) == 1 and f"cannot write the transcript {tmp_path}" in warnings[0]
    assert not transcript.working


class _FullDisk:
    """A file whose writes fail the way a full disk makes them fail."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    def close(self) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_is_warned_about_once_and_never_raises(tmp_path: Path) -> None:
    warnings: list[str] = []
    transcript = Transcript(tmp_path / "t.jsonl", warn=warnings.append)
    transcript._file = _FullDisk()  # type: ignore[assignment]  # the disk fills up after opening
    for step in range(5):
        transcript(StepFailed(step, "again"))
    transcript.close()
    assert warnings == [
        f"cannot write the transcript {tmp_path / 't.jsonl'}: No space left on device; going on without it"
    ]


def test_transcripts_are_private_to_the_user(tmp_path: Path) -> None:
    path = tmp_path / "new" / "t.jsonl"
    Transcript(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    loose = tmp_path / "old.jsonl"
    loose.write_text("", encoding="utf-8")
    loose.chmod(0o644)
    Transcript(loose).close()
    assert stat.S_IMODE(loose.stat().st_mode) == 0o600


def test_a_huge_argument_is_stored_once_and_cut(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    huge = json.dumps({"city": "x" * 5_000_000})
    error = f"Error: city: String should have at most 200 characters ({huge})"
    record = ToolCallRecord(1, "c1", "sales_summary", huge, True, error=error)
    transcript = Transcript(path)
    transcript(ResponseReceived(1, "tool_use", "", (ToolCall("c1", "sales_summary", huge),), Usage(), 1.0))
    transcript(ToolFinished(record, error))
    transcript.close()
    assert path.stat().st_size < 5 * MAX_FIELD_CHARS  # was 4 copies of 5 MB
    tool = json.loads(path.read_text(encoding="utf-8").splitlines()[1])
    assert tool["error"].endswith(f"[cut: {len(error):,} characters in all]") and "content" not in tool


def test_a_lone_surrogate_is_written_escaped_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    transcript = Transcript(path)
    transcript(QuestionAsked("half \udc80 a character", "openai", "m", "sys"))
    transcript.close()
    line = path.read_text(encoding="utf-8")  # the file is valid UTF-8: the surrogate is written escaped
    assert "\\udc80" in line and json.loads(line)["question"] == "half \udc80 a character"
