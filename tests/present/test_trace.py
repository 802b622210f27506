"""Trace lines: what the user sees on stderr for each step and tool call."""

from __future__ import annotations

from analytics_agent.agent.events import ResponseReceived, ToolCallRecord
from analytics_agent.conversation import ToolCall, Usage
from analytics_agent.present.trace import describe_repair, format_event, format_tool


def test_a_repaired_argument_shows_old_and_new_value() -> None:
    before = '{"city": "Pune", "day": "24 Oct 2026"}'
    after = '{"city":"Pune","day":"2026-10-24"}'
    assert describe_repair(before, after) == 'day "24 Oct 2026" -> "2026-10-24"'


def test_a_removed_or_added_argument_is_named() -> None:
    assert describe_repair('{"a": 1}', '{"b": 2}') == "a 1 -> (absent); b (absent) -> 2"


def test_a_failed_tool_shows_its_error_lines_under_the_call() -> None:
    record = ToolCallRecord(1, "c", "sales_summary", '{"day": "x"}', True, duration_ms=3,
                            error="Error: day: bad\ncity: missing")  # fmt: skip
    lines = format_tool(record).splitlines()
    assert lines[0] == '  sales_summary {"day": "x"} -> error (3 ms)'
    assert lines[1:] == ["      day: bad", "      city: missing"]


def test_a_skipped_repeat_says_it_was_not_run() -> None:
    record = ToolCallRecord(2, "c", "t", "{}", True, skipped="repeated", error="Error: already failed")
    assert format_tool(record) == "  t {} -> not run: already failed"


def test_a_reply_line_has_calls_tokens_time_and_what_the_model_said() -> None:
    event = ResponseReceived(2, "tool_use", "Checking.", (ToolCall("a", "t", "{}"),), Usage(1234, 56), 420.0)
    assert (
        format_event(event)
        == "[step 2] reply in 0.42 s: 1 tool call (1,234 in / 56 out tokens)\n    says: Checking."
    )


def test_text_already_streamed_is_not_repeated_in_the_trace() -> None:
    event = ResponseReceived(2, "tool_use", "Checking.", (ToolCall("a", "t", "{}"),), Usage(1234, 56), 420.0)
    assert (
        format_event(event, streamed=True)
        == "[step 2] reply in 0.42 s: 1 tool call (1,234 in / 56 out tokens)"
    )
