"""Refusals: a request the server rejects is not retried and reads as one line; the tool-only assistant turn
is sent in the form every server parses; "no tool support" messages are recognised."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from loopback import LoopbackServer

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)
from analytics_agent.errors import ProviderError
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.providers.refusals import brief_validation, is_request_rejection, refuses_tools
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool
from analytics_agent.tools.registry import Registry

RECORDED_500 = Path(__file__).parent / "recorded_local" / "llama-cpp-python-500-null-content.json"
OK = {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "done"}}]}


class OrderArgs(ToolArguments):
    order_id: str


class GetOrder(Tool):
    name = "get_order"
    description = "One order."
    arguments = OrderArgs


TOOLS = Registry([GetOrder()])


def after_a_tool_call() -> Conversation:
    call = ToolCall("call1", "get_order", '{"order_id":"A-1042"}')
    return Conversation(
        messages=[
            UserTurn("Where is order A-1042?"),
            AssistantTurn(tool_calls=(call,)),
            ToolResults((ToolResult("call1", '{"status":"delivered"}'),)),
        ]
    )


def test_a_500_that_is_a_request_validation_error_is_sent_once_and_reads_as_one_line():
    recorded = json.loads(RECORDED_500.read_text())["response"]
    seen: list[bytes] = []

    def answer(path: str, headers: dict[str, str], body: bytes):
        seen.append(body)
        return recorded["status"], {"content-type": "application/json"}, json.dumps(recorded["body"]).encode()

    with LoopbackServer(answer) as server:
        provider = OpenAIProvider(base_url=server.url + "/v1", model="m", max_retries=3, sleep=lambda s: None)
        with pytest.raises(ProviderError) as caught:
            provider.complete(after_a_tool_call(), TOOLS)
        provider.close()
    message = str(caught.value)
    assert len(seen) == 1, "a request the server refuses is not sent again"
    assert "\n" not in message and len(message) < 500
    assert "ChatCompletionRequestAssistantMessage.content: Input should be a valid string" in message
    assert "(and 6 more validation errors)" in message
    assert caught.value.status == 500


def test_a_500_that_is_an_outage_is_still_retried():
    calls = []

    def answer(path: str, headers: dict[str, str], body: bytes):
        calls.append(path)
        if len(calls) == 1:
            return 500, {"content-type": "application/json"}, b'{"error": {"message": "internal error"}}'
        return 200, {"content-type": "application/json"}, json.dumps(OK).encode()

    with LoopbackServer(answer) as server:
        provider = OpenAIProvider(base_url=server.url + "/v1", model="m", sleep=lambda s: None)
        assert provider.complete(Conversation(messages=[UserTurn("hi")]), TOOLS).turn.text == "done"
        provider.close()
    assert len(calls) == 2


def _llama_cpp_python(message: dict) -> str | None:
    """Its pydantic model: assistant content NotRequired[str] (null refused with a 500)."""
    if "content" in message and not isinstance(message["content"], str):
        return "500 Input should be a valid string"
    return None


def _ollama(message: dict) -> str | None:
    """openai.FromChatRequest: content must be a string, or absent/null only beside tool calls."""
    if not isinstance(message.get("content"), str) and not message.get("tool_calls"):
        return "400 invalid message content type: <nil>"
    return None


def _llama_cpp_before_12293(message: dict) -> str | None:
    """llama.cpp server before ggml-org/llama.cpp#12293: every message needs a 'content' key."""
    return None if "content" in message else "500 Missing 'content'"


def _lm_studio_2024(message: dict) -> str | None:
    """lmstudio-bug-tracker#261: 'content' field must be a string or an array of objects."""
    return None if isinstance(message.get("content"), str | list) else "400 'content' must be a string"


@pytest.mark.parametrize("rule", [_llama_cpp_python, _ollama, _llama_cpp_before_12293, _lm_studio_2024])
def test_a_tool_only_assistant_turn_is_sent_in_the_form_each_strict_server_parses(rule):
    def answer(path: str, headers: dict[str, str], body: bytes):
        for message in json.loads(body)["messages"]:
            if message["role"] == "assistant" and (problem := rule(message)):
                status, text = problem.split(" ", 1)
                return int(status), {"content-type": "application/json"}, json.dumps({"error": text}).encode()
        return 200, {"content-type": "application/json"}, json.dumps(OK).encode()

    with LoopbackServer(answer) as server:
        provider = OpenAIProvider(base_url=server.url + "/v1", model="m", max_retries=0)
        assert provider.complete(after_a_tool_call(), TOOLS).turn.text == "done"
        provider.close()


@pytest.mark.parametrize(
    ("status", "message", "rejected"),
    [
        (400, "Invalid 'messages' in payload", True),
        (422, "[{'loc': ['body', 'messages']}]", True),
        (404, "model not found", True),
        (429, "Rate limit reached", False),
        (408, "Request timeout", False),
        (500, "Expected 'content' to be a string or an array", True),
        (500, "Assistant message must contain either 'content' or 'tool_calls'!", True),
        (500, "1 validation error for ChatCompletionRequest", True),
        (500, "The server had an error while processing your request", False),
        (503, "Input should be a valid string", False),
    ],
)
def test_request_rejections_are_told_apart_from_outages(status, message, rejected):
    assert is_request_rejection(status, message) is rejected


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "registry.ollama.ai/library/gemma3:4b does not support tools"),
        (500, "tools param requires --jinja flag"),
        (500, "Unsupported param: tools"),
        (400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'),
        (400, "This model doesn't support tool use."),
        (404, "No endpoints found that support tool use. To learn more about provider routing, visit ..."),
    ],
)
def test_each_servers_no_tool_support_message_is_recognised(status, message):
    assert refuses_tools(ProviderError(f"server returned {status}: {message}", status=status))


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (400, "Invalid 'tools[0].function.name': string does not match pattern"),
        (503, "backend does not support tools right now"),
        (401, "Incorrect API key provided"),
    ],
)
def test_other_failures_are_not_taken_for_missing_tool_support(status, message):
    assert not refuses_tools(ProviderError(message, status=status))


def test_brief_validation_leaves_ordinary_messages_alone():
    assert brief_validation("model not found") == "model not found"
