"""The scripted stand-in model, driven by the real OpenAIProvider through httpx.MockTransport."""

from __future__ import annotations

import json

import pytest

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
from analytics_agent.providers.scripted import (
    ScriptedCall,
    ScriptedModel,
    ScriptError,
    Step,
    expect_tool_result,
    expect_user_text,
    last_tool_result,
    tool_messages,
)
from analytics_agent.tools.registry import Registry


def provider(script: ScriptedModel, *, stream: bool = False) -> OpenAIProvider:
    return OpenAIProvider(
        base_url="http://scripted.invalid/v1", model="m", client=script.client(), stream=stream, max_retries=0
    )


def question(text: str = "How did Pune do?") -> Conversation:
    return Conversation(system="sys", messages=[UserTurn(text)])


@pytest.mark.parametrize("stream", [False, True])
def test_tool_calls_reach_the_provider_as_json_or_sse(stream: bool) -> None:
    script = ScriptedModel(
        [
            Step(
                text="Looking.",
                tool_calls=[
                    ScriptedCall("sales_summary", {"city": "Pune", "day": "2026-10-24"}, id="call_a")
                ],
            )
        ]
    )
    streamed: list[str] = []
    response = provider(script, stream=stream).complete(question(), Registry([]), on_text=streamed.append)
    assert response.turn.tool_calls == (
        ToolCall("call_a", "sales_summary", '{"city": "Pune", "day": "2026-10-24"}'),
    )
    assert response.turn.text == "Looking."
    assert response.usage.input_tokens > 0
    assert bool(script.requests[0].body.get("stream")) is stream
    if stream:
        assert "".join(streamed) == "Looking." and len(streamed) > 1
    script.assert_all_used()


def test_every_request_is_recorded_with_its_body_and_headers() -> None:
    script = ScriptedModel([Step(text="hi")])
    OpenAIProvider(
        base_url="http://scripted.invalid/v1", model="m", api_key="sk-abc", client=script.client()
    ).complete(question("hello there"), Registry([]))
    recorded = script.requests[0]
    assert (recorded.method, recorded.path) == ("POST", "/v1/chat/completions")
    assert recorded.headers["authorization"] == "Bearer sk-abc"
    assert recorded.body["messages"][-1] == {"role": "user", "content": "hello there"}


def test_a_failing_check_is_a_clear_provider_error_and_is_recorded() -> None:
    script = ScriptedModel([Step(text="x", checks=[expect_user_text("Delhi")])])
    with pytest.raises(ProviderError, match=r"request 1: the last user message does not mention \['Delhi'\]"):
        provider(script).complete(question("How did Pune do?"), Registry([]))
    with pytest.raises(ScriptError, match="does not mention"):
        script.assert_all_used()


def test_more_requests_than_steps_fail_clearly() -> None:
    script = ScriptedModel([Step(text="one")])
    p = provider(script)
    p.complete(question(), Registry([]))
    with pytest.raises(ProviderError, match="unexpected request: the script has only 1 steps"):
        p.complete(question(), Registry([]))


def test_unused_steps_are_reported() -> None:
    script = ScriptedModel([Step(text="one"), Step(text="two")])
    provider(script).complete(question(), Registry([]))
    with pytest.raises(ScriptError, match="1 of 2 steps were never requested"):
        script.assert_all_used()


def test_a_step_can_answer_from_the_tool_results_it_receives() -> None:
    def answer(body: dict) -> str:
        sales = last_tool_result(body, "sales_summary")
        return f"{sales['orders']} orders"

    script = ScriptedModel([Step(text=answer, checks=[expect_tool_result("c1", "orders", error=False)])])
    conversation = question()
    conversation.messages += [
        AssistantTurn(tool_calls=(ToolCall("c1", "sales_summary", "{}"),)),
        ToolResults((ToolResult("c1", json.dumps({"orders": 7})),)),
    ]
    response = provider(script).complete(conversation, Registry([]))
    assert response.turn.text == "7 orders"
    assert tool_messages(script.requests[0].body) == [("c1", "sales_summary", '{"orders": 7}')]


def test_error_steps_send_the_status_and_headers() -> None:
    script = ScriptedModel(
        [Step(status=429, headers={"retry-after": "0"}, error_message="slow down"), Step(text="ok")]
    )
    p = OpenAIProvider(
        base_url="http://scripted.invalid/v1",
        model="m",
        client=script.client(),
        max_retries=1,
        sleep=lambda s: None,
    )
    assert p.complete(question(), Registry([])).turn.text == "ok"
    assert len(script.requests) == 2
    script.assert_all_used()


def test_calls_without_ids_and_object_arguments_are_sent_as_such() -> None:
    script = ScriptedModel(
        [Step(tool_calls=[ScriptedCall("get_order", {"order_id": "A-1"}, omit_id=True, as_object=True)])]
    )
    status, _, content = script.respond(
        "POST", "/v1/chat/completions", {}, json.dumps({"messages": []}).encode()
    )
    call = json.loads(content)["choices"][0]["message"]["tool_calls"][0]
    assert status == 200 and "id" not in call
    assert call["function"]["arguments"] == {"order_id": "A-1"}
