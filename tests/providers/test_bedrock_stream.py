"""The ConverseStream assembler: event dicts in, text deltas and one ModelResponse out."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bedrock_fake import reasoning, reply, reply_events, text, tool_use

from analytics_agent.conversation import ToolCall
from analytics_agent.errors import ProviderResponseError
from analytics_agent.providers.bedrock.stream import StreamAssembler
from analytics_agent.providers.bedrock.wire import parse_response, split_thinking

RECORDED = Path(__file__).parent / "recorded_bedrock"


def assemble(events: list[dict[str, Any]]) -> tuple[list[str], Any]:
    assembler = StreamAssembler()
    deltas = [d for event in events if (d := assembler.feed(event))]
    return deltas, assembler.finish()


def delta(index: int, **body: Any) -> dict[str, Any]:
    return {"contentBlockDelta": {"delta": body, "contentBlockIndex": index}}


def stop(index: int) -> dict[str, Any]:
    return {"contentBlockStop": {"contentBlockIndex": index}}


def tool_start(index: int, call_id: str, name: str) -> dict[str, Any]:
    return {
        "contentBlockStart": {
            "start": {"toolUse": {"toolUseId": call_id, "name": name}},
            "contentBlockIndex": index,
        }
    }


def end(reason: str, usage: tuple[int, int] = (20, 30)) -> list[dict[str, Any]]:
    return [
        {"messageStop": {"stopReason": reason}},
        {
            "metadata": {
                "usage": {"inputTokens": usage[0], "outputTokens": usage[1], "totalTokens": sum(usage)}
            }
        },
    ]


def test_text_deltas_come_out_live_and_tool_input_fragments_join_into_one_call():
    events = [
        {"messageStart": {"role": "assistant"}},
        delta(0, text="Checking "),
        delta(0, text="weather."),
        stop(0),
        tool_start(1, "tooluse_Xy12", "get_weather"),
        delta(1, toolUse={"input": ""}),
        delta(1, toolUse={"input": '{"city": "Pa'}),
        delta(1, toolUse={"input": 'ris"}'}),
        stop(1),
        *end("tool_use"),
    ]
    deltas, response = assemble(events)
    assert deltas == ["Checking ", "weather."]
    assert response.turn.text == "Checking weather."
    assert response.turn.tool_calls == (ToolCall("tooluse_Xy12", "get_weather", '{"city": "Paris"}'),)
    assert (response.stop, response.usage.input_tokens, response.usage.output_tokens) == ("tool_use", 20, 30)


def test_text_after_a_tool_block_stays_apart_from_the_tool_call():
    events = [
        tool_start(0, "t1", "get_order"),
        delta(0, toolUse={"input": '{"order_id": "A-1042"}'}),
        delta(1, text="Looking it up."),
        stop(1),
        stop(0),  # blocks may close out of order: the index decides, not the arrival
        *end("tool_use"),
    ]
    _, response = assemble(events)
    assert response.turn.text == "Looking it up."
    assert response.turn.tool_calls == (ToolCall("t1", "get_order", '{"order_id": "A-1042"}'),)


def test_a_call_with_no_input_fragments_gets_empty_object_arguments():
    _, response = assemble([tool_start(0, "t1", "store_overview"), stop(0), *end("tool_use")])
    assert response.turn.tool_calls[0].arguments == "{}"


def test_a_call_cut_off_at_max_tokens_keeps_its_raw_text_and_is_flagged_truncated():
    events = [
        tool_start(0, "t1", "sales_summary"),
        delta(0, toolUse={"input": '{"city": "Pu'}),
        *end("max_tokens"),
    ]
    _, response = assemble(events)
    (call,) = response.turn.tool_calls
    assert call.arguments == '{"city": "Pu'
    assert call.parsed_arguments is None
    assert (response.stop, response.turn.truncated) == ("truncated", True)


def test_reasoning_deltas_and_signature_assemble_into_one_replayable_block():
    events = [
        delta(0, reasoningContent={"text": "Need the "}),
        delta(0, reasoningContent={"text": "order."}),
        delta(0, reasoningContent={"signature": "c2ln"}),
        stop(0),
        delta(1, text="Done."),
        stop(1),
        *end("end_turn"),
    ]
    deltas, response = assemble(events)
    assert deltas == ["Done."]  # reasoning is not part of the answer text
    assert [e["block"] for e in response.turn.extras] == [
        {"reasoningContent": {"reasoningText": {"text": "Need the order.", "signature": "c2ln"}}}
    ]


def test_redacted_reasoning_is_kept_as_bytes():
    events = [
        delta(0, reasoningContent={"redactedContent": b"\x01\x02"}),
        stop(0),
        delta(1, text="Hi"),
        *end("end_turn"),
    ]
    _, response = assemble(events)
    assert response.turn.extras[0]["block"] == {"reasoningContent": {"redactedContent": b"\x01\x02"}}


def test_unknown_deltas_and_events_are_ignored_without_breaking_the_reply():
    events = [
        delta(0, text="Answer"),
        delta(0, citation={"title": "x"}),
        {"somethingNew": {"x": 1}},
        {"contentBlockStart": {"start": {"image": {"format": "png"}}, "contentBlockIndex": 1}},
        delta(1, image={"source": {}}),
        *end("end_turn"),
    ]
    _, response = assemble(events)
    assert (response.turn.text, response.turn.extras) == ("Answer", ())


def test_usage_comes_only_from_the_final_metadata_event():
    events = [delta(0, text="x"), {"messageStop": {"stopReason": "end_turn"}}]
    _, response = assemble(events)
    assert response.usage.input_tokens == 0
    _, response = assemble([*events, end("end_turn", (7, 9))[1]])
    assert (response.usage.input_tokens, response.usage.output_tokens) == (7, 9)


def test_a_stream_that_ends_before_message_stop_is_an_error():
    assembler = StreamAssembler()
    assembler.feed(delta(0, text="Half an ans"))
    with pytest.raises(ProviderResponseError, match="ended before"):
        assembler.finish()


@pytest.mark.parametrize(
    "converse_reply",
    [
        reply(
            reasoning("Plan it.", "c2lnbmF0dXJl"),
            text("I'll look."),
            tool_use("t1", "get_order", order_id="A-1042"),
            stop="tool_use",
        ),
        reply(text("<thinking>x</thinking>\nPune did well."), usage=(5, 6)),
        reply(
            tool_use("functions.a:0", "sales_summary", city="Pune", day="2026-10-24"),
            tool_use("functions.b:1", "get_order", order_id="A-1"),
            stop="tool_use",
        ),
    ],
)
def test_a_streamed_reply_parses_to_the_same_response_as_the_same_reply_from_converse(converse_reply):
    events = [{kind: payload} for kind, payload in reply_events(converse_reply, piece=3)]
    _, streamed = assemble(events)
    assert streamed == parse_response(converse_reply)


def recorded_events(name: str, exchange: int = 0) -> list[dict[str, Any]]:
    frames = json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))["exchanges"][exchange]
    # boto3 drops the 'p' padding field; do the same for the decoded frames.
    return [
        {f["headers"][":event-type"]: {k: v for k, v in f["payload"].items() if k != "p"}}
        for f in frames["response"]["body"]
    ]


def test_recorded_nova_stream_gives_visible_thinking_apart_and_one_call():
    _, response = assemble(recorded_events("nova-micro-stream-tool-use"))
    assert response.stop == "tool_use"
    assert response.turn.text == ""
    (call,) = response.turn.tool_calls
    assert call.parsed_arguments is not None
    assert response.usage.input_tokens > 0


def test_recorded_claude_thinking_stream_keeps_the_signature_and_the_text():
    events = recorded_events("claude-sonnet-4-thinking-stream")
    signature = next(
        e["contentBlockDelta"]["delta"]["reasoningContent"]["signature"]
        for e in events
        if "signature" in e.get("contentBlockDelta", {}).get("delta", {}).get("reasoningContent", {})
    )
    deltas, response = assemble(events)
    (extra,) = response.turn.extras
    assert extra["block"]["reasoningContent"]["reasoningText"]["signature"] == signature
    assert response.turn.text == "".join(deltas) and response.turn.text.strip()


@pytest.mark.parametrize(
    "full",
    [
        "<thinking> plan </thinking>\n\nPune had 3 orders.",
        "  <thinking>a</thinking>   ",
        "<thinking> never closed, so it is the answer",
        " <thin",
        "Plain answer with <thinking> later</thinking>.",
        "<think> Kimi's stray tag stays.",
        "",
    ],
)
@pytest.mark.parametrize("piece", [1, 2, 5, 100])
def test_live_text_equals_the_final_answer_with_nova_thinking_held_back(full, piece):
    events = [delta(0, text=full[i : i + piece]) for i in range(0, len(full), piece)]
    deltas, response = assemble([*events, stop(0), *end("end_turn")])
    assert "".join(deltas) == response.turn.text == split_thinking(full)[1]


def test_recorded_nova_stream_shows_no_thinking_live():
    deltas, response = assemble(recorded_events("nova-micro-stream-tool-use"))
    assert deltas == [] and response.turn.text == ""
    deltas, response = assemble(recorded_events("nova-micro-stream-tool-use", exchange=1))
    assert "".join(deltas) == response.turn.text and "30" in response.turn.text
