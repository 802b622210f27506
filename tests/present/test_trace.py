"""Trace lines: what the user sees on stderr for each step and tool call."""

from __future__ import annotations

from analytics_agent.agent.events import ResponseReceived, ToolCallRecord, ToolFinished
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


def test_malformed_arguments_are_shown_escaped_on_one_bounded_line() -> None:
    raw = '{"city": "Pune",\n  "day": "2026-10-24"\r\x1b[2J' + "x" * 500
    record = ToolCallRecord(1, "c", "sales_summary", raw, True, duration_ms=1,
                            error="Error: arguments are not valid JSON (Expecting ',' at character 40)")  # fmt: skip
    lines = format_event(ToolFinished(record, "")).splitlines()  # type: ignore[union-attr]
    assert len(lines) == 2 and lines[1].startswith("      arguments are not valid JSON")
    assert "\\n" in lines[0] and "\x1b" not in lines[0] and "\r" not in lines[0]
    assert len(lines[0]) < 220 and lines[0].endswith("-> error (1 ms)")


def test_a_repair_line_sits_under_the_call_that_worked_and_never_under_a_failure() -> None:
    failed = ToolCallRecord(2, "c2", "t", '{"day": "Oct 24"}', True, error="Error: day: bad",
                            repaired_from='{"day": "24 Oct 2026"}')  # fmt: skip
    worked = ToolCallRecord(3, "c3", "t", '{"day": "2026-10-24"}', False, rows=1, tokens=9,
                            repaired_from='{"day": "Oct 24"}')  # fmt: skip
    assert "repaired" not in format_tool(failed)
    assert format_tool(worked).splitlines()[1] == '      repaired: day "Oct 24" -> "2026-10-24"'


def test_a_reply_without_usage_says_so_instead_of_zero_tokens() -> None:
    event = ResponseReceived(1, "answer", "4", (), Usage(unreported=1), 100.0)
    assert (
        format_event(event, streamed=True)
        == "[step 1] reply in 0.10 s: answer (usage not reported by the server)"
    )
    counted = ResponseReceived(1, "answer", "4", (), Usage(812, 9), 100.0)
    assert format_event(counted, streamed=True) == "[step 1] reply in 0.10 s: answer (812 in / 9 out tokens)"


def test_the_done_line_says_how_many_replies_came_without_usage() -> None:
    from analytics_agent.agent.events import AgentResult, Finished

    usage = Usage(812, 9)
    usage.add(Usage(unreported=1))
    line = format_event(Finished(AgentResult("4", steps=2, usage=usage)))
    assert (
        line
        == "[done] 2 steps, 0 tool calls, 812 in / 9 out tokens, usage not reported for 1 of 2 replies (answer)"
    )
    none = format_event(Finished(AgentResult("4", steps=1, usage=Usage(unreported=1))))
    assert none == "[done] 1 step, 0 tool calls, usage not reported by the server (answer)"
