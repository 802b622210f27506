"""Dict-in/dict-out tests of the Bedrock Converse mapping, including recorded responses of real models.

Every request built here is checked twice: by botocore's validator against AWS's service model, and by
``bedrock_rules`` for what botocore does not check (alternation, pairing, patterns, blank text).
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bedrock_rules import TOOL_ID, TOOL_NAME, check_against_service_model, check_request

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)
from analytics_agent.errors import ProviderResponseError
from analytics_agent.providers.bedrock.wire import (
    build_request,
    parse_response,
    result_content,
    safe_tool_id,
    safe_tool_name,
    split_thinking,
    stop_kind,
)

RECORDED = Path(__file__).parent / "recorded_bedrock"
MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
TOOLS = {
    "tools": [
        {
            "toolSpec": {
                "name": name,
                "description": f"The {name} tool.",
                "inputSchema": {"json": {"type": "object", "properties": {}}},
            }
        }
        for name in ("sales_summary", "get_order", "get_weather", "get_temperature", "get_user_country")
    ],
    "toolChoice": {"auto": {}},
}


def request_for(*messages: Any, system: str = "", tools: dict[str, Any] | None = TOOLS) -> dict[str, Any]:
    request = build_request(Conversation(system, list(messages)), model=MODEL, tool_config=tools)
    check_against_service_model(request)
    check_request(request)
    return request


def recorded(name: str) -> dict[str, Any]:
    return json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- requests


def test_system_prompt_goes_in_the_top_level_system_list_and_tools_always_go_along():
    request = request_for(UserTurn("How did Pune do?"), system="You answer with numbers.")
    assert request == {
        "modelId": MODEL,
        "system": [{"text": "You answer with numbers."}],
        "messages": [{"role": "user", "content": [{"text": "How did Pune do?"}]}],
        "toolConfig": TOOLS,
    }


def test_blank_system_prompt_is_left_out_rather_than_sent_as_a_blank_block():
    assert "system" not in request_for(UserTurn("hi"), system="  \n")


def test_parallel_calls_and_their_results_map_to_one_assistant_and_one_user_message():
    calls = (
        ToolCall("tooluse_aaa111", "get_weather", '{"city": "Paris"}'),
        ToolCall("tooluse_bbb222", "get_weather", '{"city": "Rome"}'),
    )
    request = request_for(
        UserTurn("Weather in Paris and Rome?"),
        AssistantTurn("I'll look both up.", calls),
        ToolResults(
            (
                ToolResult("tooluse_aaa111", '{"temp_c": 18, "sky": "clear"}'),
                ToolResult("tooluse_bbb222", "upstream API timed out", is_error=True),
            )
        ),
        system="You are a weather assistant.",
    )
    # The reference example of a complete parallel-call turn 2, as validated against the service model.
    assert request["messages"] == [
        {"role": "user", "content": [{"text": "Weather in Paris and Rome?"}]},
        {
            "role": "assistant",
            "content": [
                {"text": "I'll look both up."},
                {
                    "toolUse": {
                        "toolUseId": "tooluse_aaa111",
                        "name": "get_weather",
                        "input": {"city": "Paris"},
                    }
                },
                {
                    "toolUse": {
                        "toolUseId": "tooluse_bbb222",
                        "name": "get_weather",
                        "input": {"city": "Rome"},
                    }
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "toolResult": {
                        "toolUseId": "tooluse_aaa111",
                        "content": [{"json": {"temp_c": 18, "sky": "clear"}}],
                        "status": "success",
                    }
                },
                {
                    "toolResult": {
                        "toolUseId": "tooluse_bbb222",
                        "content": [{"text": "upstream API timed out"}],
                        "status": "error",
                    }
                },
            ],
        },
    ]


def test_a_turn_that_only_called_tools_carries_no_text_block():
    request = request_for(
        UserTurn("A-1042?"),
        AssistantTurn("  ", (ToolCall("t1", "get_order", '{"order_id": "A-1042"}'),)),
        ToolResults((ToolResult("t1", '{"status": "delivered"}'),)),
    )
    assert request["messages"][1]["content"] == [
        {"toolUse": {"toolUseId": "t1", "name": "get_order", "input": {"order_id": "A-1042"}}}
    ]


@pytest.mark.parametrize("arguments", ['{"order_id": "A-10', "[1, 2]", '"A-1042"', "null"])
def test_arguments_that_are_not_a_json_object_are_sent_as_an_empty_object(arguments):
    request = request_for(
        UserTurn("q"),
        AssistantTurn("", (ToolCall("t1", "get_order", arguments),)),
        ToolResults((ToolResult("t1", "Error: arguments are not a JSON object", is_error=True),)),
    )
    assert request["messages"][1]["content"][0]["toolUse"]["input"] == {}


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"orders": 3, "revenue": 4798}', {"json": {"orders": 3, "revenue": 4798}}),
        ("[1, 2]", {"text": "[1, 2]"}),
        ("42", {"text": "42"}),
        ('"Pune"', {"text": '"Pune"'}),
        ('{"a": {"__type": "x"}}', {"text": '{"a": {"__type": "x"}}'}),
        ('{"a": [{"__type": "x"}]}', {"text": '{"a": [{"__type": "x"}]}'}),
        ('{"x": NaN}', {"text": '{"x": NaN}'}),
        ("city | orders\nPune | 3", {"text": "city | orders\nPune | 3"}),
        ("", {"text": "(no output)"}),
    ],
)
def test_result_content_is_json_only_for_a_plain_object(content, expected):
    assert result_content(content) == expected


def test_an_error_result_never_has_empty_content():
    request = request_for(
        UserTurn("q"),
        AssistantTurn("", (ToolCall("t1", "get_order", "{}"),)),
        ToolResults((ToolResult("t1", "   ", is_error=True),)),
    )
    result = request["messages"][2]["content"][0]["toolResult"]
    assert result["status"] == "error"
    assert result["content"][0]["text"].strip()


def test_results_follow_call_order_missing_ones_become_errors_and_strays_are_dropped(caplog):
    calls = (
        ToolCall("a", "get_order", "{}"),
        ToolCall("b", "get_order", "{}"),
        ToolCall("c", "get_order", "{}"),
    )
    with caplog.at_level(logging.WARNING):
        request = request_for(
            UserTurn("q"),
            AssistantTurn("", calls),
            ToolResults((ToolResult("c", "third"), ToolResult("zzz", "stray"), ToolResult("a", "first"))),
        )
    results = [b["toolResult"] for b in request["messages"][2]["content"]]
    assert [r["toolUseId"] for r in results] == ["a", "b", "c"]
    assert [r["status"] for r in results] == ["success", "error", "success"]
    assert "no result was recorded" in results[1]["content"][0]["text"]
    assert "zzz" in caplog.text


def test_calls_never_answered_get_error_results_before_the_next_user_text():
    request = request_for(
        UserTurn("q"),
        AssistantTurn("", (ToolCall("a", "get_order", "{}"),)),
        UserTurn("never mind, what about Pune?"),
    )
    content = request["messages"][2]["content"]
    assert content[0]["toolResult"]["status"] == "error"
    assert content[1] == {"text": "never mind, what about Pune?"}


def test_adjacent_same_role_turns_merge_with_tool_results_first():
    request = request_for(
        UserTurn("first"),
        UserTurn("second"),
        AssistantTurn("", (ToolCall("a", "get_order", "{}"),)),
        ToolResults((ToolResult("a", "ok"),)),
        UserTurn("Your call was cut off; try again."),
    )
    assert [m["role"] for m in request["messages"]] == ["user", "assistant", "user"]
    assert request["messages"][0]["content"] == [{"text": "first"}, {"text": "second"}]
    assert list(request["messages"][2]["content"][0]) == ["toolResult"]
    assert request["messages"][2]["content"][1] == {"text": "Your call was cut off; try again."}


def test_a_conversation_always_starts_and_ends_with_a_user_message():
    request = request_for(AssistantTurn("Hello, ask me about sales."), AssistantTurn("Still there?"))
    roles = [m["role"] for m in request["messages"]]
    assert roles == ["user", "assistant", "user"]
    assert request["messages"][1]["content"] == [
        {"text": "Hello, ask me about sales."},
        {"text": "Still there?"},
    ]


def test_blank_user_text_and_blank_assistant_turns_leave_no_empty_message():
    request = request_for(UserTurn("q"), AssistantTurn(""), UserTurn("  "), UserTurn("again"))
    assert request["messages"] == [{"role": "user", "content": [{"text": "q"}, {"text": "again"}]}]


@pytest.mark.parametrize(
    "bad_id", ["call 1", "a" * 65, "call/1?x", "", "toolu_ünïcode", "functions get:0 " + "x" * 80]
)
def test_ids_bedrock_refuses_are_rewritten_the_same_way_in_the_call_and_its_result(bad_id):
    request = request_for(
        UserTurn("q"),
        AssistantTurn("", (ToolCall(bad_id, "get_order", "{}"),)),
        ToolResults((ToolResult(bad_id, "done"),)),
    )
    use_id = request["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    result_id = request["messages"][2]["content"][0]["toolResult"]["toolUseId"]
    assert use_id == result_id == safe_tool_id(bad_id)
    assert TOOL_ID.match(use_id)


def test_rewritten_ids_and_names_stay_distinct_and_valid_ones_stay_as_they_are():
    assert safe_tool_id("functions.get_temperature:0") == "functions.get_temperature:0"
    assert safe_tool_id("call_abc") == "call_abc"
    assert safe_tool_id("call 1") != safe_tool_id("call_1")  # the hash keeps them apart
    assert safe_tool_id("x" * 65) != safe_tool_id("x" * 66)
    assert safe_tool_name("get_order") == "get_order"
    assert safe_tool_name("get weather.v1") != safe_tool_name("get_weather_v1")
    for name in ("get weather.v1", "a" * 100, "functions.get_order", "读取"):
        assert TOOL_NAME.match(safe_tool_name(name)), name


def test_a_tool_name_from_another_provider_is_made_safe_in_history():
    request = request_for(
        UserTurn("q"),
        AssistantTurn("", (ToolCall("c1", "functions.get_order", "{}"),)),
        ToolResults((ToolResult("c1", "Error: unknown tool", is_error=True),)),
    )
    assert TOOL_NAME.match(request["messages"][1]["content"][0]["toolUse"]["name"])


def test_without_tools_history_tool_blocks_are_written_as_text_and_no_tool_config_is_sent():
    request = request_for(
        UserTurn("q"),
        AssistantTurn("Looking.", (ToolCall("c1", "get_order", '{"order_id": "A-1042"}'),)),
        ToolResults((ToolResult("c1", '{"status": "delivered"}'),)),
        tools=None,
    )
    assert "toolConfig" not in request
    blocks = [b for m in request["messages"] for b in m["content"]]
    assert all(list(b) == ["text"] for b in blocks)
    assert '[called get_order with {"order_id": "A-1042"}]' in [b["text"] for b in blocks]


# --------------------------------------------------------------------------- recorded responses


def test_claude_thinking_block_with_signature_is_replayed_unmodified_before_the_text():
    cassette = recorded("claude-3-7-sonnet-tool-with-thinking")
    first, second = cassette["exchanges"]
    response = parse_response(first["response"]["body"])
    assert response.stop == "tool_use"
    assert response.turn.text == "I'll need to check what country you're from to answer that question."
    assert response.turn.tool_calls == (ToolCall("tooluse_W9DaUFg4Tj2cRPpndqxWSg", "get_user_country", "{}"),)
    assert (response.usage.input_tokens, response.usage.output_tokens) == (397, 130)

    question = first["request"]["body"]["messages"][0]["content"][0]["text"]
    request = request_for(
        UserTurn(question),
        response.turn,
        ToolResults((ToolResult("tooluse_W9DaUFg4Tj2cRPpndqxWSg", "Mexico"),)),
    )
    # The recorded turn-2 request is what Bedrock accepted: ours must carry the same assistant message.
    assert request["messages"] == second["request"]["body"]["messages"]


def test_kimi_ids_with_dots_and_colons_are_kept_and_unsigned_reasoning_is_replayed_as_reasoning():
    first = recorded("kimi-k2-thinking-tool-call")["exchanges"][0]
    response = parse_response(first["response"]["body"])
    (call,) = response.turn.tool_calls
    assert call == ToolCall("functions.get_temperature:0", "get_temperature", '{"city": "London"}')
    request = request_for(
        UserTurn("Temperature in London?"), response.turn, ToolResults((ToolResult(call.id, "30°C"),))
    )
    assistant = request["messages"][1]["content"]
    assert assistant[0] == first["response"]["body"]["output"]["message"]["content"][0]
    assert assistant[1]["toolUse"]["toolUseId"] == "functions.get_temperature:0"
    assert request["messages"][2]["content"][0]["toolResult"]["toolUseId"] == "functions.get_temperature:0"


def test_nova_visible_thinking_is_kept_for_replay_but_not_shown_as_the_answer():
    first, second = recorded("nova-micro-tool-error-retry")["exchanges"]
    tool_turn = parse_response(first["response"]["body"]).turn
    assert tool_turn.text == ""
    answer = parse_response(second["response"]["body"])
    assert answer.stop == "answer"
    assert (
        answer.turn.text
        == "The capital of France is Paris. If you need any further information, feel free to ask!"
    )
    request = request_for(
        UserTurn("capital?"), tool_turn, ToolResults((ToolResult(tool_turn.tool_calls[0].id, "x"),))
    )
    assert request["messages"][1]["content"] == first["response"]["body"]["output"]["message"]["content"]


def test_thinking_split_gives_back_the_original_text_when_joined():
    text = "<thinking> plan </thinking> \n\nThe answer."
    thinking, answer = split_thinking(text)
    assert (thinking + answer, answer) == (text, "The answer.")
    assert split_thinking("No tags <thinking> here") == ("", "No tags <thinking> here")


def test_deepseek_reasoning_after_the_text_is_replayed_after_the_text():
    first = recorded("deepseek-r1-text-then-reasoning")["exchanges"][0]
    content = first["response"]["body"]["output"]["message"]["content"]
    response = parse_response(first["response"]["body"])
    assert response.turn.text == content[0]["text"]
    request = request_for(UserTurn("How do I cross the street?"), response.turn, UserTurn("And a river?"))
    assert request["messages"][1]["content"] == content


def test_qwen_reasoning_only_reply_is_an_answer_with_no_text_and_replays_as_a_non_empty_message():
    first = recorded("qwen3-32b-reasoning-only")["exchanges"][0]
    response = parse_response(first["response"]["body"])
    assert (response.stop, response.turn.text, response.turn.tool_calls) == ("answer", "", ())
    request = request_for(UserTurn("Say ok"), response.turn, UserTurn("Please return text."), tools=None)
    assert request["messages"][1]["content"] == first["response"]["body"]["output"]["message"]["content"]


def test_server_side_tool_blocks_are_kept_for_replay_and_not_run_by_us():
    first = recorded("nova-2-lite-code-interpreter")["exchanges"][0]
    response = parse_response(first["response"]["body"])
    assert [c.name for c in response.turn.tool_calls] == ["final_result"]
    assert len(response.turn.extras) == 2
    request = request_for(
        UserTurn("q"), response.turn, ToolResults((ToolResult(response.turn.tool_calls[0].id, "ok"),))
    )
    assert (
        request["messages"][1]["content"][:2] == first["response"]["body"]["output"]["message"]["content"][:2]
    )


def test_claude_4_5_tool_use_with_a_type_key_is_an_ordinary_call():
    first = recorded("claude-sonnet-4-5-tools-plus-output")["exchanges"][0]
    response = parse_response(first["response"]["body"])
    assert response.turn.tool_calls == (
        ToolCall("tooluse_mpc2QgRvQqmu_IQ0wmu9cA", "get_weather", '{"city": "Paris"}'),
    )


def test_unknown_blocks_are_dropped_with_a_log_line_not_a_crash(caplog):
    body = {
        "output": {
            "message": {"role": "assistant", "content": [{"image": {"format": "png"}}, {"text": "Done."}]}
        },
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
    }
    with caplog.at_level(logging.WARNING):
        response = parse_response(body)
    assert (response.turn.text, response.turn.extras) == ("Done.", ())
    assert "image" in caplog.text


def test_duplicate_or_missing_call_ids_become_unique_non_empty_ids():
    body = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"toolUse": {"toolUseId": "t1", "name": "get_order", "input": {}}},
                    {"toolUse": {"toolUseId": "t1", "name": "get_order", "input": {"order_id": "A-1"}}},
                    {"toolUse": {"toolUseId": "", "name": "get_order", "input": {}}},
                ],
            }
        },
        "stopReason": "tool_use",
        "usage": {},
    }
    ids = [c.id for c in parse_response(body).turn.tool_calls]
    assert len(set(ids)) == 3 and all(ids)


def test_a_reply_without_a_message_is_a_response_error():
    with pytest.raises(ProviderResponseError, match=r"output\.message"):
        parse_response({"stopReason": "end_turn", "usage": {}})


def test_usage_includes_cache_tokens():
    body = recorded("claude-3-7-sonnet-tool-with-thinking")["exchanges"][0]["response"]["body"]
    body["usage"].update(cacheReadInputTokens=300, cacheWriteInputTokens=12)
    usage = parse_response(body).usage
    assert usage.as_dict() == {
        "input_tokens": 397,
        "output_tokens": 130,
        "cache_read_tokens": 300,
        "cache_write_tokens": 12,
    }


@pytest.mark.parametrize(
    ("reason", "has_calls", "expected"),
    [
        ("end_turn", False, "answer"),
        ("stop_sequence", False, "answer"),
        ("end_turn", True, "tool_use"),  # a turn with calls is a tool turn, whatever the reason says
        ("tool_use", True, "tool_use"),
        ("tool_use", False, "answer"),
        ("max_tokens", True, "truncated"),
        ("max_tokens", False, "truncated"),
        ("guardrail_intervened", False, "filtered"),
        ("content_filtered", False, "filtered"),
        ("malformed_tool_use", False, "malformed"),
        ("malformed_model_output", False, "malformed"),
        ("model_context_window_exceeded", False, "context_exceeded"),
        ("something_new", True, "tool_use"),
        ("something_new", False, "answer"),
        (None, False, "answer"),
    ],
)
def test_stop_reasons_map_to_stop_kinds(reason, has_calls, expected):
    assert stop_kind(reason, has_tool_calls=has_calls) == expected


def test_max_tokens_with_a_call_marks_the_turn_truncated_and_says_so():
    body = {
        "output": {
            "message": {
                "role": "assistant",
                "content": [{"toolUse": {"toolUseId": "t", "name": "get_order", "input": {}}}],
            }
        },
        "stopReason": "max_tokens",
        "usage": {},
    }
    response = parse_response(body)
    assert (response.stop, response.turn.truncated) == ("truncated", True)
    assert "token limit" in response.notice


def test_a_guardrail_stop_carries_a_notice():
    body = {
        "output": {"message": {"role": "assistant", "content": [{"text": "Sorry."}]}},
        "stopReason": "guardrail_intervened",
        "usage": {},
    }
    response = parse_response(body)
    assert response.stop == "filtered"
    assert "guardrail" in response.notice
