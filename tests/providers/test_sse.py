"""The SSE parser: events end at blank lines, comments vanish, fields follow the event-stream rules."""

from __future__ import annotations

import json
from pathlib import Path

from analytics_agent.providers.openai.sse import Event, iter_events

RECORDED = Path(__file__).parent / "recorded_openai"


def lines(text: str) -> list[str]:
    return text.split("\n")


def test_an_event_ends_at_a_blank_line_not_at_a_line():
    events = list(iter_events(lines('data: {"a":\ndata: 1}\n\ndata: two\n\n')))
    assert events == [Event('{"a":\n1}'), Event("two")]


def test_comment_lines_are_dropped_even_between_data_lines():
    text = ": OPENROUTER PROCESSING\n\ndata: x\n: keep-alive\ndata: y\n\n:\n\n"
    assert [e.data for e in iter_events(lines(text))] == ["x\ny"]


def test_event_name_and_id_are_kept_and_the_name_resets_per_event():
    text = 'event: error\nid: 7\ndata: {"error": 1}\n\ndata: next\n\n'
    events = list(iter_events(lines(text)))
    assert events[0] == Event('{"error": 1}', "error", "7")
    assert events[1].event == "message"
    assert events[1].id == "7"  # the last event id persists, as the standard says


def test_a_last_event_without_a_trailing_blank_line_is_still_yielded():
    assert [e.data for e in iter_events(["data: first", "", "data: [DONE]"])] == ["first", "[DONE]"]


def test_crlf_endings_and_a_missing_space_after_the_colon_are_tolerated():
    assert [e.data for e in iter_events(["data:abc\r", "\r", "data:  two spaces\r", ""])] == [
        "abc",
        " two spaces",
    ]


def test_blocks_without_data_dispatch_nothing():
    assert list(iter_events(["event: ping", "", "retry: 100", "", "", "unknown: x", ""])) == []


def test_the_recorded_gpt_4o_mini_stream_parses_to_its_events_in_order():
    recorded = json.loads((RECORDED / "openai-gpt-4o-mini-stream-tool-call.json").read_text())
    wire_events = recorded["exchanges"][0]["response"]["body"]
    wire = "".join(
        "data: " + (e["data"] if isinstance(e["data"], str) else json.dumps(e["data"])) + "\n\n"
        for e in wire_events
    )
    parsed = list(iter_events(wire.splitlines()))
    assert len(parsed) == len(wire_events)
    assert parsed[-1].data == "[DONE]"
    assert [json.loads(e.data) for e in parsed[:-1]] == [e["data"] for e in wire_events[:-1]]
