"""A stream of 100,000 tool calls is refused as soon as it passes the 128-call limit (issue 24: it was read
for 300 s before the refusal). The tests count how many events were taken, never the time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from analytics_agent.errors import ProviderResponseError
from analytics_agent.providers.bedrock import stream as bedrock_stream
from analytics_agent.providers.limits import MAX_TOOL_CALLS_PER_REPLY
from analytics_agent.providers.openai import stream as openai_stream
from analytics_agent.providers.openai.sse import Event

FLOOD = 100_000


class Counted:
    def __init__(self, events: Iterator[dict[str, Any]]) -> None:
        self.events = events
        self.taken = 0

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for event in self.events:
            self.taken += 1
            yield event


def _openai_chunks() -> Iterator[dict[str, Any]]:
    for i in range(FLOOD):
        call = {
            "index": i,
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": "x", "arguments": "{}"},
        }
        yield {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}


def _bedrock_events() -> Iterator[dict[str, Any]]:
    yield {"messageStart": {"role": "assistant"}}
    for i in range(FLOOD):
        yield {
            "contentBlockStart": {
                "contentBlockIndex": i,
                "start": {"toolUse": {"toolUseId": f"t{i}", "name": "x"}},
            }
        }
        yield {"contentBlockDelta": {"contentBlockIndex": i, "delta": {"toolUse": {"input": "{}"}}}}
        yield {"contentBlockStop": {"contentBlockIndex": i}}


def test_openai_stream_stops_at_the_first_call_past_the_limit():
    stream = Counted(_openai_chunks())
    assembler = openai_stream.StreamAssembler(where="the server")
    with pytest.raises(ProviderResponseError) as caught:
        for chunk in stream:
            assembler.feed_chunk(chunk)
    assert stream.taken == MAX_TOOL_CALLS_PER_REPLY + 1
    assert str(caught.value) == (
        "the server sent more than 128 tool calls in one reply (at most 128 are accepted), so it was dropped"
    )


def test_openai_stream_of_exactly_the_limit_is_kept():
    assembler = openai_stream.StreamAssembler()
    for i, chunk in enumerate(_openai_chunks()):
        if i == MAX_TOOL_CALLS_PER_REPLY:
            break
        assembler.feed_event(Event(json.dumps(chunk)))
    assembler.feed_event(Event('{"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}'))
    assert len(assembler.finish().turn.tool_calls) == MAX_TOOL_CALLS_PER_REPLY


def test_bedrock_stream_stops_at_the_first_call_past_the_limit():
    stream = Counted(_bedrock_events())
    assembler = bedrock_stream.StreamAssembler()
    with pytest.raises(ProviderResponseError, match="more than 128 tool calls"):
        for event in stream:
            assembler.feed(event)
    assert stream.taken == 1 + 3 * MAX_TOOL_CALLS_PER_REPLY + 1


def test_bedrock_stream_of_endless_text_blocks_is_refused_too():
    def blocks() -> Iterator[dict[str, Any]]:
        for i in range(FLOOD):
            yield {"contentBlockDelta": {"contentBlockIndex": i, "delta": {"text": "a"}}}

    stream = Counted(blocks())
    assembler = bedrock_stream.StreamAssembler()
    with pytest.raises(ProviderResponseError, match="content blocks"):
        for event in stream:
            assembler.feed(event)
    assert stream.taken < 1000
