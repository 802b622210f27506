"""Pure mapping: conversation → request body, and recorded response bodies → ModelResponse."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)
from analytics_agent.errors import ProviderError, ProviderResponseError
from analytics_agent.providers.openai.wire import (
    RequestOptions,
    conversation_call_ids,
    parse_response,
    render_request,
)
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool
from analytics_agent.tools.registry import Registry

RECORDED = Path(__file__).parent / "recorded_openai"


def recorded(name: str) -> list[dict[str, Any]]:
    return json.loads((RECORDED / name).read_text())["exchanges"]


class CityArgs(ToolArguments):
    city: str


class WeatherTool(Tool):
    name = "get_weather"
    description = "Current weather for a city."
    arguments = CityArgs


def registry() -> Registry:
    return Registry([WeatherTool()])


def with_result(conversation: Conversation, turn: AssistantTurn, *contents: str) -> Conversation:
    """Append a turn and its results, one content per call, as the loop would."""
    results = tuple(ToolResult(call.id, text) for call, text in zip(turn.tool_calls, contents, strict=True))
    conversation.messages += [turn, ToolResults(results)]
    return conversation


# --- requests ------------------------------------------------------------------------------------


def test_request_has_system_first_and_echoes_calls_and_answers_each_id_once_with_string_content():
    turn = AssistantTurn(
        tool_calls=(
            ToolCall("call_abc", "get_weather", '{"city":"Paris"}'),
            ToolCall("call_def", "get_weather", '{"city":"Rome"}'),
        )
    )
    conversation = Conversation(system="You are a weather assistant.", messages=[UserTurn("Paris and Rome?")])
    conversation.messages += [
        turn,
        ToolResults(
            (
                ToolResult("call_abc", '{"temp_c":18}'),
                ToolResult("call_def", "Error: upstream API timed out", is_error=True),
            )
        ),
    ]
    body = render_request("gpt-4o", conversation, registry())
    assert body["messages"] == [
        {"role": "system", "content": "You are a weather assistant."},
        {"role": "user", "content": "Paris and Rome?"},
        {
            "role": "assistant",
            "content": "",  # not null: llama-cpp-python, LM Studio and Ollama reject that
            "tool_calls": [
                {
                    "id": "call_abc",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                },
                {
                    "id": "call_def",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_abc", "content": '{"temp_c":18}'},
        {"role": "tool", "tool_call_id": "call_def", "content": "Error: upstream API timed out"},
    ]
    assert body["model"] == "gpt-4o"
    assert body["tool_choice"] == "auto"
    assert body["stream"] is False
    assert "stream_options" not in body
    assert body["tools"][0]["function"]["name"] == "get_weather"
    assert body["tools"][0]["function"]["parameters"]["properties"] == {"city": {"type": "string"}}


def test_streaming_request_asks_for_usage_in_the_last_chunk():
    body = render_request("m", Conversation(messages=[UserTurn("hi")]), registry(), stream=True)
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}


def test_without_tools_no_tools_or_tool_choice_are_sent():
    body = render_request("m", Conversation(messages=[UserTurn("hi")]), Registry([]))
    assert "tools" not in body and "tool_choice" not in body


def test_options_choose_the_max_tokens_field_and_strict_tools():
    options = RequestOptions(
        max_tokens=256, max_tokens_field="max_tokens", strict_tools=True, temperature=0.0
    )
    body = render_request("m", Conversation(messages=[UserTurn("hi")]), registry(), options=options)
    assert body["max_tokens"] == 256 and "max_completion_tokens" not in body
    assert body["temperature"] == 0.0
    assert body["tools"][0]["function"]["strict"] is True


def test_rendering_matches_the_recorded_gpt_4o_mini_continuation():
    exchanges = recorded("openai-gpt-4o-mini-stream-tool-call.json")
    sent = exchanges[1]["request"]["body"]
    turn = AssistantTurn(
        tool_calls=(ToolCall("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", '{"country":"UK"}'),)
    )
    conversation = Conversation(messages=[UserTurn(sent["messages"][0]["content"])])
    with_result(conversation, turn, "London")
    body = render_request("gpt-4o-mini", conversation, registry(), stream=True)
    # The recording sent null beside the tool calls; we send "" (docs/portable-schemas.md), which OpenAI
    # parses the same way. Everything else is byte for byte the recorded request.
    expected = [{**m, "content": ""} if m.get("content", "") is None else m for m in sent["messages"]]
    assert sent["messages"][1]["content"] is None and body["messages"] == expected


def test_deepseek_reasoning_content_is_replayed_exactly_as_the_recorded_request():
    exchanges = recorded("deepseek-reasoner-parallel-tool-calls.json")
    reply = parse_response(exchanges[0]["response"]["body"])
    conversation = Conversation(messages=[UserTurn("My guess is 4")])
    with_result(conversation, reply.turn, "{}")
    rendered = render_request("deepseek-reasoner", conversation, registry())["messages"]
    recorded_assistant = exchanges[1]["request"]["body"]["messages"][3]
    assert rendered[1] == recorded_assistant
    assert rendered[2] == exchanges[1]["request"]["body"]["messages"][4]


def test_snowflake_reasoning_details_are_replayed_exactly_as_the_recorded_request():
    exchanges = recorded("snowflake-claude-sonnet-4-6-thinking-tool.json")
    reply = parse_response(exchanges[0]["response"]["body"])
    conversation = Conversation(messages=[UserTurn("weather?")])
    with_result(conversation, reply.turn, "Sunny, 25°C")
    rendered = render_request("claude-sonnet-4-6", conversation, registry())["messages"]
    assert rendered[1:] == exchanges[1]["request"]["body"]["messages"][1:]


def test_extras_of_other_providers_are_not_sent():
    turn = AssistantTurn(text="ok", extras=({"provider": "bedrock", "block": {"reasoningContent": {}}},))
    message = render_request("m", Conversation(messages=[turn]), registry())["messages"][0]
    assert message == {"role": "assistant", "content": "ok"}


def test_empty_arguments_are_sent_as_an_empty_json_object_string():
    turn = AssistantTurn(tool_calls=(ToolCall("c1", "get_weather", ""),))
    messages = render_request("m", with_result(Conversation(), turn, "x"), registry())["messages"]
    assert messages[0]["tool_calls"][0]["function"]["arguments"] == "{}"


def test_an_empty_assistant_turn_is_sent_with_empty_text_not_null():
    messages = render_request("m", Conversation(messages=[AssistantTurn()]), registry())["messages"]
    assert messages == [{"role": "assistant", "content": ""}]


@pytest.mark.parametrize(
    "results, problem",
    [
        ((), "c2 have no result"),
        (
            (ToolResult("c1", "a"), ToolResult("c1", "b"), ToolResult("c2", "c")),
            "answers no open call, or twice",
        ),
        ((ToolResult("c1", "a"), ToolResult("c2", "b"), ToolResult("zz", "c")), "'zz'"),
    ],
)
def test_a_conversation_that_breaks_the_one_result_per_call_rule_is_refused(results, problem):
    turn = AssistantTurn(
        tool_calls=(ToolCall("c1", "get_weather", "{}"), ToolCall("c2", "get_weather", "{}"))
    )
    messages = [turn, ToolResults(results)] if results else [turn, UserTurn("next")]
    with pytest.raises(ProviderError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        render_request("m", Conversation(messages=messages), registry())


# --- responses -----------------------------------------------------------------------------------


def test_canonical_openai_tool_call_is_parsed_with_its_id_arguments_and_usage():
    reply = parse_response(recorded("openai-gpt-5-mini-tool-choice-required.json")[0]["response"]["body"])
    assert reply.stop == "tool_use"
    assert reply.turn.text == ""
    assert reply.turn.tool_calls == (
        ToolCall("call_LCWM0K5IkLjASFTllZhX5HM3", "get_weather", '{"city":"Paris"}'),
    )
    body = recorded("openai-gpt-5-mini-tool-choice-required.json")[0]["response"]["body"]
    assert reply.usage.input_tokens == body["usage"]["prompt_tokens"]
    assert reply.usage.output_tokens == body["usage"]["completion_tokens"]


def test_gemini_empty_id_gets_a_generated_id_that_is_used_for_the_tool_message():
    body = recorded("gemini-compat-tool-call-empty-id.json")[0]["response"]["body"]
    conversation = Conversation(messages=[UserTurn("What is the current time?")])
    reply = parse_response(body, taken_ids=conversation_call_ids(conversation))
    (call,) = reply.turn.tool_calls
    assert call.id and call.id.isalnum() and len(call.id) == 9
    assert (call.name, call.arguments) == ("get_current_time", "{}")
    messages = render_request("g", with_result(conversation, reply.turn, "Noon"), registry())["messages"]
    assert messages[1]["tool_calls"][0]["id"] == call.id
    assert messages[2] == {"role": "tool", "tool_call_id": call.id, "content": "Noon"}


def test_generated_ids_never_repeat_ids_already_in_the_conversation():
    body = {
        "choices": [
            {"message": {"tool_calls": [{"id": "", "function": {"name": "f", "arguments": "{}"}}] * 2}}
        ]
    }
    reply = parse_response(body, taken_ids={"call00001", "call00003"})
    ids = [c.id for c in reply.turn.tool_calls]
    assert len(set(ids)) == 2 and not {"call00001", "call00003"} & set(ids)


def test_a_repeated_id_within_one_turn_is_replaced_so_ids_stay_unique():
    call = {"id": "same", "function": {"name": "f", "arguments": "{}"}}
    reply = parse_response({"choices": [{"message": {"tool_calls": [call, call]}}]})
    assert reply.turn.tool_calls[0].id == "same"
    assert reply.turn.tool_calls[1].id not in ("same", "")


def test_arguments_sent_as_an_object_become_json_text():
    body = {
        "choices": [
            {
                "finish_reason": "stop",
                "message": {
                    "tool_calls": [
                        {"id": "a", "function": {"name": "f", "arguments": {"city": "Zürich", "n": 2}}}
                    ]
                },
            }
        ]
    }
    (call,) = parse_response(body).turn.tool_calls
    assert json.loads(call.arguments) == {"city": "Zürich", "n": 2}
    assert call.parsed_arguments == {"city": "Zürich", "n": 2}


def test_snowflake_empty_finish_reason_with_tool_calls_is_a_tool_turn_with_its_text():
    reply = parse_response(recorded("snowflake-claude-sonnet-4-6-thinking-tool.json")[0]["response"]["body"])
    assert reply.stop == "tool_use"
    assert reply.turn.text == "Sure! Let me check that for you!"
    assert reply.turn.tool_calls[0].id == "toolu_bdrk_01VmA9jmWpws4HgPqjhtGo6i"


def test_snowflake_null_tool_calls_and_empty_refusal_give_a_plain_answer():
    reply = parse_response(recorded("snowflake-claude-sonnet-4-6-thinking-tool.json")[1]["response"]["body"])
    assert reply.stop == "answer"
    assert reply.turn.tool_calls == ()
    assert reply.turn.text.startswith("It's currently sunny")


def test_finish_reason_stop_with_tool_calls_is_still_a_tool_turn():
    body = {
        "choices": [
            {
                "finish_reason": "stop",
                "message": {
                    "content": None,
                    "tool_calls": [
                        {"id": "x", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                    ],
                },
            }
        ]
    }
    assert parse_response(body).stop == "tool_use"


def test_deepseek_parallel_calls_keep_order_and_cached_tokens_are_counted():
    reply = parse_response(recorded("deepseek-reasoner-parallel-tool-calls.json")[1]["response"]["body"])
    assert [(c.id, c.name) for c in reply.turn.tool_calls] == [
        ("call_00_6edlnw3Z1MgeMfey687g8451", "get_player_name"),
        ("call_01_km02sac7sHxNDPATKLZy7705", "roll_dice"),
    ]
    first = parse_response(recorded("deepseek-reasoner-parallel-tool-calls.json")[0]["response"]["body"])
    assert first.usage.cache_read_tokens == 512


def test_hf_together_index_in_a_non_streamed_call_and_empty_content_are_accepted():
    reply = parse_response(recorded("hf-together-llama4-500-on-continuation.json")[0]["response"]["body"])
    assert reply.turn.text == ""
    assert reply.turn.tool_calls == (
        ToolCall("call_f7631c2901964a6db675853a", "get_weather", '{"city": "Paris"}'),
    )


@pytest.mark.parametrize(
    "name, index",
    [
        ("openrouter-mistral-small-tool-call.json", 0),
        ("ollama-cloud-gpt-oss-20b-tool-call.json", 1),
        ("groq-llama4-scout-parallel-with-final-result.json", 0),
        ("cerebras-qwen3-coder-429-then-tool-call.json", 2),
    ],
)
def test_other_recorded_tool_calls_parse_to_their_ids_and_names(name, index):
    body = recorded(name)[index]["response"]["body"]
    expected = [
        (c["id"], c["function"]["name"], c["function"]["arguments"])
        for c in body["choices"][0]["message"]["tool_calls"]
    ]
    reply = parse_response(body)
    assert [(c.id, c.name, c.arguments) for c in reply.turn.tool_calls] == expected
    assert reply.stop == "tool_use"


def test_length_means_truncated_and_the_turn_is_flagged():
    body = {
        "choices": [
            {
                "finish_reason": "length",
                "message": {"tool_calls": [{"id": "a", "function": {"name": "f", "arguments": '{"ci'}}]},
            }
        ]
    }
    reply = parse_response(body)
    assert reply.stop == "truncated"
    assert reply.turn.truncated is True
    assert reply.turn.tool_calls[0].arguments == '{"ci'


def test_content_filter_means_filtered():
    reply = parse_response({"choices": [{"finish_reason": "content_filter", "message": {"content": ""}}]})
    assert reply.stop == "filtered"
    assert reply.notice


def test_empty_choices_is_a_clear_response_error():
    with pytest.raises(ProviderResponseError, match="no choices"):
        parse_response({"id": "x", "choices": []})


def test_an_error_object_in_a_200_body_raises_the_servers_message():
    with pytest.raises(ProviderError, match="model is overloaded"):
        parse_response({"error": {"message": "model is overloaded", "type": "server_error"}})


def test_content_parts_are_joined_and_unknown_parts_are_an_error():
    body = {
        "choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}]
    }
    assert parse_response(body).turn.text == "ab"
    body["choices"][0]["message"]["content"].append({"type": "image_url", "image_url": {}})
    with pytest.raises(ProviderResponseError, match="image_url"):
        parse_response(body)
