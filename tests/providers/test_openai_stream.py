"""Streamed replies: SSE text lines through the parser and the assembler, as real servers send them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analytics_agent.conversation import ModelResponse
from analytics_agent.errors import ProviderConnectionError, ProviderError, ProviderResponseError
from analytics_agent.providers.openai.sse import iter_events
from analytics_agent.providers.openai.stream import StreamAssembler

RECORDED = Path(__file__).parent / "recorded_openai"


def wire(events: list[dict[str, Any]]) -> str:
    """Recorded ``{event?, data}`` items → the SSE text a server sends."""
    out = []
    for item in events:
        if "comment" in item:
            out.append(f": {item['comment']}\n\n")
            continue
        head = f"event: {item['event']}\n" if "event" in item else ""
        data = item["data"] if isinstance(item["data"], str) else json.dumps(item["data"])
        out.append(f"{head}data: {data}\n\n")
    return "".join(out)


def assemble(text: str, **kwargs: Any) -> tuple[list[str], ModelResponse]:
    assembler = StreamAssembler(**kwargs)
    deltas = []
    for event in iter_events(text.splitlines()):
        delta = assembler.feed_event(event)
        if delta:
            deltas.append(delta)
    return deltas, assembler.finish()


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}], **extra}


def tc(index: int | None = None, id: str | None = None, name: str | None = None, args: Any = None) -> dict:
    fragment: dict[str, Any] = {"function": {}}
    if index is not None:
        fragment["index"] = index
    if id is not None:
        fragment["id"] = id
    if name is not None:
        fragment["function"]["name"] = name
    if args is not None:
        fragment["function"]["arguments"] = args
    return fragment


def data(*chunks: Any) -> str:
    return wire([{"data": c} for c in chunks])


def recorded(name: str) -> list[dict[str, Any]]:
    return json.loads((RECORDED / name).read_text())["exchanges"]


def test_recorded_gpt_4o_mini_tool_call_stream_assembles_the_fragmented_arguments():
    deltas, reply = assemble(
        wire(recorded("openai-gpt-4o-mini-stream-tool-call.json")[0]["response"]["body"])
    )
    assert deltas == []
    assert reply.stop == "tool_use"
    assert [(c.id, c.name, c.arguments) for c in reply.turn.tool_calls] == [
        ("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", '{"country":"UK"}')
    ]
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (53, 15)


def test_recorded_gpt_4o_mini_text_stream_yields_each_delta_in_order():
    deltas, reply = assemble(
        wire(recorded("openai-gpt-4o-mini-stream-tool-call.json")[1]["response"]["body"])
    )
    assert deltas == ["The", " capital", " of", " the", " UK", " is", " London", "."]
    assert reply.turn.text == "The capital of the UK is London."
    assert reply.stop == "answer"
    assert reply.usage.input_tokens == 78


def test_recorded_groq_whole_call_in_one_chunk_with_usage_on_the_finish_chunk():
    _, reply = assemble(wire(recorded("groq-gpt-oss-tool-use-failed-stream.json")[1]["response"]["body"]))
    assert [(c.id, c.name, c.arguments) for c in reply.turn.tool_calls] == [
        ("fc_bfb39741-3748-4def-9886-a93fc9c64a90", "get_something_by_name", '{"name":"example"}')
    ]
    assert reply.usage.output_tokens == 49


def test_recorded_groq_event_error_frame_raises_the_servers_message_and_code():
    text = wire(recorded("groq-gpt-oss-tool-use-failed-stream.json")[0]["response"]["body"])
    with pytest.raises(ProviderError, match="Tool call validation failed") as caught:
        assemble(text, where="OpenAI-compatible server at api.groq.com")
    assert caught.value.status == 400
    assert caught.value.code == "tool_use_failed"
    assert "api.groq.com" in str(caught.value)


def test_data_error_mid_stream_raises_the_servers_message():
    text = data(
        chunk({"content": "Hel"}), {"error": {"message": "upstream overloaded", "type": "server_error"}}
    )
    with pytest.raises(ProviderError, match="upstream overloaded"):
        assemble(text)


def test_missing_index_new_id_starts_a_new_call_and_idless_fragments_continue_the_last():
    text = data(
        chunk({"tool_calls": [tc(id="a", name="f", args='{"x"')]}),
        chunk({"tool_calls": [tc(args=": 1}")]}),
        chunk({"tool_calls": [tc(id="b", name="g", args="{}")]}),
        chunk(finish="tool_calls"),
        "[DONE]",
    )
    _, reply = assemble(text)
    assert [(c.id, c.name, c.arguments) for c in reply.turn.tool_calls] == [
        ("a", "f", '{"x": 1}'),
        ("b", "g", "{}"),
    ]


def test_parallel_calls_all_at_index_0_with_distinct_ids_are_split():
    text = data(
        chunk({"tool_calls": [tc(0, "call_a", "f", '{"a":1}')]}),
        chunk({"tool_calls": [tc(0, "call_b", "g", '{"b":2}')]}),
        chunk(finish="tool_calls"),
        "[DONE]",
    )
    _, reply = assemble(text)
    assert [(c.id, c.arguments) for c in reply.turn.tool_calls] == [
        ("call_a", '{"a":1}'),
        ("call_b", '{"b":2}'),
    ]


def test_interleaved_indexes_are_joined_per_index():
    text = data(
        chunk({"tool_calls": [tc(0, "a", "f", '{"p":'), tc(1, "b", "g", '{"q":')]}),
        chunk({"tool_calls": [tc(1, args="2}"), tc(0, args="1}")]}),
        chunk(finish="tool_calls"),
    )
    _, reply = assemble(text)
    assert [(c.id, c.arguments) for c in reply.turn.tool_calls] == [("a", '{"p":1}'), ("b", '{"q":2}')]


def test_empty_name_on_a_continuation_keeps_the_known_name_and_a_late_id_is_taken():
    text = data(
        chunk({"tool_calls": [tc(0, name="get_weather", args="")]}),
        chunk({"tool_calls": [tc(0, id="late", name="", args='{"city":"Rome"}')]}),
        chunk(finish="tool_calls"),
        "[DONE]",
    )
    _, reply = assemble(text)
    assert [(c.id, c.name, c.arguments) for c in reply.turn.tool_calls] == [
        ("late", "get_weather", '{"city":"Rome"}')
    ]


def test_a_call_without_any_id_gets_one_unique_in_the_conversation():
    text = data(chunk({"tool_calls": [tc(0, name="f", args={"k": "v"})]}), chunk(finish="stop"), "[DONE]")
    _, reply = assemble(text, taken_ids={"call00001"})
    (call,) = reply.turn.tool_calls
    assert call.id not in ("", "call00001")
    assert json.loads(call.arguments) == {"k": "v"}
    assert reply.stop == "tool_use"  # "stop" with calls is still a tool turn


def test_keep_alive_comments_and_data_colon_keepalives_are_ignored():
    text = (
        ": OPENROUTER PROCESSING\n\n"
        + data(chunk({"content": "a"}))
        + "data: : keepalive\n\n"
        + data(chunk({"content": "b"}, finish="stop"), "[DONE]")
    )
    deltas, reply = assemble(text)
    assert deltas == ["a", "b"]
    assert reply.stop == "answer"


def test_usage_only_last_chunk_with_empty_choices_is_counted():
    usage = {"prompt_tokens": 10, "completion_tokens": 20, "prompt_tokens_details": {"cached_tokens": 4}}
    text = data(chunk({"content": "x"}, finish="stop"), {"choices": [], "usage": usage}, "[DONE]")
    _, reply = assemble(text)
    assert reply.usage.as_dict() == {
        "input_tokens": 10,
        "output_tokens": 20,
        "cache_read_tokens": 4,
        "cache_write_tokens": 0,
    }


def test_a_stream_without_done_but_with_a_finish_reason_is_complete():
    _, reply = assemble(data(chunk({"content": "ok"}, finish="stop")))
    assert reply.stop == "answer"
    assert reply.turn.truncated is False


@pytest.mark.parametrize("delta", [{"tool_calls": [tc(0, "a", "f", '{"ci')]}, {"content": "Pune made"}])
def test_a_stream_cut_without_finish_reason_or_done_is_a_dropped_connection(delta):
    with pytest.raises(ProviderConnectionError, match="stopped before the reply was complete"):
        assemble(data(chunk(delta)))


def test_finish_reason_length_is_truncated():
    _, reply = assemble(data(chunk({"content": "abc"}, finish="length"), "[DONE]"))
    assert (reply.stop, reply.turn.truncated) == ("truncated", True)


def test_a_stream_with_no_events_is_a_response_error():
    with pytest.raises(ProviderResponseError, match="before sending anything"):
        assemble(": only a comment\n\n")


def test_a_non_json_event_is_a_response_error_quoting_it():
    with pytest.raises(ProviderResponseError, match="not JSON: oops"):
        assemble("data: <html>oops</html>\n\n")


def test_several_json_lines_in_one_event_are_each_taken():
    text = (
        "data: "
        + json.dumps(chunk({"content": "a"}))
        + "\ndata: "
        + json.dumps(chunk({"content": "b"}, "stop"))
        + "\n\n"
    )
    deltas, reply = assemble(text)
    assert deltas == ["ab"]
    assert reply.turn.text == "ab"


def test_streamed_reasoning_content_is_kept_for_replay_and_not_shown():
    text = data(
        chunk({"reasoning_content": "think "}),
        chunk({"reasoning_content": "more"}),
        chunk({"content": "answer"}, finish="stop"),
        "[DONE]",
    )
    deltas, reply = assemble(text)
    assert deltas == ["answer"]
    assert {"provider": "openai", "field": "reasoning_content", "value": "think more"} in reply.turn.extras


def test_events_after_done_are_ignored():
    _, reply = assemble(data(chunk({"content": "a"}, finish="stop"), "[DONE]", chunk({"content": "late"})))
    assert reply.turn.text == "a"


def test_a_stream_without_usage_is_marked_unreported_and_one_with_usage_is_not():
    _, silent = assemble(data(chunk({"content": "4"}, finish="stop"), "[DONE]"))
    assert silent.usage.unreported == 1  # llama-cpp-python 0.3.36 ignores stream_options.include_usage
    usage = {"prompt_tokens": 812, "completion_tokens": 9}
    _, counted = assemble(data(chunk({"content": "4"}, finish="stop", usage=usage), "[DONE]"))
    assert counted.usage.unreported == 0 and counted.usage.output_tokens == 9
