"""--tool-mode: text mode end to end through the real loop, tools and a loopback server; auto switching on
each server's "no tool support" refusal, remembered per endpoint and model; the unreadable call told once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from loopback import LoopbackServer

from analytics_agent.agent.loop import Agent
from analytics_agent.config import resolve_settings
from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ModelResponse,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)
from analytics_agent.errors import ProviderError
from analytics_agent.providers.text.mode import CallTextFilter, TextToolsProvider
from analytics_agent.providers.text.prompt import DATE_PATTERN, describe_type, text_conversation, tools_prompt
from analytics_agent.providers.text.protocol import parse_reply
from analytics_agent.providers.tool_mode import AutoToolMode, ToolModeMemory
from analytics_agent.tools.args import models as arguments
from analytics_agent.workspace.provider_factory import make_provider, tool_mode_key, tool_modes_path
from analytics_agent.workspace.workspace import Workspace

CALL = '<tool_call>\n{"name": "get_order", "arguments": {"order_id": "A-1042"}}\n</tool_call>'
NO_TOOLS = {
    "ollama": (400, {"error": {"message": "registry.ollama.ai/library/gemma3:4b does not support tools"}}),
    "llama.cpp": (500, {"error": {"code": 500, "message": "tools param requires --jinja flag"}}),
    "vllm": (
        400,
        {"message": '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'},
    ),
}


def reply(text: str) -> dict:
    return {
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}]
    }


class TextOnlyServer:
    """Refuses any request with tools the way ``server`` does; answers text requests from a script."""

    def __init__(self, refusal: tuple[int, dict], *texts: str) -> None:
        self.refusal = refusal
        self.texts = list(texts)
        self.bodies: list[dict] = []

    def __call__(self, path: str, headers: dict[str, str], body: bytes):
        request = json.loads(body)
        self.bodies.append(request)
        if request.get("tools"):
            status, payload = self.refusal
        else:
            status, payload = 200, reply(self.texts.pop(0))
        return status, {"content-type": "application/json"}, json.dumps(payload).encode()


@pytest.fixture
def workspace(sample_db: Path):
    with Workspace.open(sample_db) as ws:
        yield ws


def agent_for(settings_flags: dict, url: str, workspace: Workspace, **limits) -> Agent:
    settings = resolve_settings(
        {"model": "small", "base_url": url + "/v1", **settings_flags}, env={}, file={}
    )
    return Agent(make_provider(settings), workspace.registry, workspace.executor, **limits)


@pytest.mark.parametrize("server", sorted(NO_TOOLS))
def test_auto_mode_answers_in_text_mode_after_a_no_tools_refusal_and_remembers_it(server, workspace):
    script = TextOnlyServer(NO_TOOLS[server], f"Let me check.\n{CALL}", "Order A-1042 was delivered.")
    with LoopbackServer(script) as peer:
        result = agent_for({}, peer.url, workspace).ask("Where is order A-1042?")
        assert result.stop == "answer" and result.answer == "Order A-1042 was delivered."
        [record] = result.tool_calls
        assert (record.name, record.is_error, record.rows) == ("get_order", False, 1)
        assert [bool(b.get("tools")) for b in script.bodies] == [True, False, False]
        results_message = script.bodies[2]["messages"][-1]
        assert (
            results_message["role"] == "user"
            and '<tool_result name="get_order">' in results_message["content"]
        )
        assert '"order_id":"A-1042"' in results_message["content"].replace(" ", "")
        assert (
            "<tool_call>" in script.bodies[1]["messages"][0]["content"]
        )  # the tools are in the system prompt

        memory = json.loads(tool_modes_path().read_text())
        assert memory[f"{peer.url}/v1 small"]["mode"] == "text"

        script.texts.append("Hello again.")
        again = agent_for({}, peer.url, workspace).ask("Hi")
        assert again.answer == "Hello again."
        assert not script.bodies[-1].get("tools"), "the next session starts in text mode: no failed request"


def test_native_mode_reports_the_refusal_in_one_line_and_forgets_a_remembered_choice(workspace):
    script = TextOnlyServer(NO_TOOLS["ollama"])
    with LoopbackServer(script) as peer:
        settings = resolve_settings({"model": "small", "base_url": peer.url + "/v1"}, env={}, file={})
        ToolModeMemory(tool_modes_path()).remember(tool_mode_key(settings), "text", "earlier")
        agent = agent_for({"tool_mode": "native"}, peer.url, workspace)
        with pytest.raises(ProviderError) as caught:
            agent.ask("Where is order A-1042?")
    assert "does not support tools" in str(caught.value) and "\n" not in str(caught.value)
    assert len(script.bodies) == 1
    assert ToolModeMemory(tool_modes_path()).get(tool_mode_key(settings)) is None


def test_an_unreadable_call_gets_its_error_back_once_then_the_reply_is_the_answer(workspace):
    broken = '<tool_call>{"name": "get_order", "arguments": {"order_id": </tool_call>'
    script = TextOnlyServer(NO_TOOLS["ollama"], broken, broken)
    with LoopbackServer(script) as peer:
        result = agent_for({"tool_mode": "text"}, peer.url, workspace).ask("Where is order A-1042?")
    assert len(script.bodies) == 2
    [record] = result.tool_calls
    assert record.is_error and "your tool call could not be read" in record.error
    told = script.bodies[1]["messages"][-1]["content"]
    assert 'error="true"' in told and "your tool call could not be read" in told
    assert result.stop == "answer" and result.answer == broken


def test_text_mode_keeps_the_step_limit(workspace):
    script = TextOnlyServer(
        NO_TOOLS["ollama"], CALL, CALL.replace("1042", "1043"), CALL.replace("1042", "1044")
    )
    with LoopbackServer(script) as peer:
        result = agent_for({"tool_mode": "text"}, peer.url, workspace, max_steps=2).ask("Orders?")
    assert result.stop == "step_limit" and len(script.bodies) == 2


class Refusing:
    """A provider (Bedrock, say) whose native requests fail the given way; text requests get ``text``."""

    name, model = "bedrock", "meta.llama3-8b-instruct-v1:0"

    def __init__(self, error: ProviderError, text: str) -> None:
        self.error, self.text, self.calls = error, text, 0

    def complete(self, conversation, tools, *, on_text=None):
        self.calls += 1
        if len(tools):
            raise self.error
        return ModelResponse(turn=AssistantTurn(text=self.text))


def test_bedrocks_no_tool_use_refusal_switches_and_other_errors_do_not(workspace, tmp_path):
    memory = ToolModeMemory(tmp_path / "modes.json")
    refusal = ProviderError(
        "Bedrock error ValidationException: This model doesn't support tool use.", status=400
    )
    auto = AutoToolMode(Refusing(refusal, "plain answer"), key="bedrock us-east-1 llama", memory=memory)
    response = auto.complete(Conversation(messages=[UserTurn("hi")]), workspace.registry)
    assert response.turn.text == "plain answer" and "text protocol" in response.notice
    assert memory.get("bedrock us-east-1 llama") == "text"

    other = AutoToolMode(Refusing(ProviderError("throttled", status=429), "x"), key="k", memory=memory)
    with pytest.raises(ProviderError, match="throttled"):
        other.complete(Conversation(messages=[UserTurn("hi")]), workspace.registry)
    assert memory.get("k") is None


def test_a_damaged_memory_file_costs_only_the_memory(tmp_path, caplog):
    path = tmp_path / "tool_modes.json"
    path.write_text("{not json")
    memory = ToolModeMemory(path)
    assert memory.get("anything") is None
    memory.remember("k", "text", "why")
    assert json.loads(path.read_text())["k"]["mode"] == "text"


def test_streamed_text_stops_at_the_call_and_held_json_is_released_when_it_was_no_call():
    shown: list[str] = []
    stream = CallTextFilter(shown.append)
    for piece in ["Let me ", "check.<to", "ol_call>{", '"name": "x"}</tool_call>']:
        stream.feed(piece)
    assert "".join(shown) == "Let me check."

    shown.clear()
    stream = CallTextFilter(shown.append)
    for piece in ['{"revenue"', ": 5} is the total"]:
        stream.feed(piece)
    assert shown == []
    stream.flush()
    assert "".join(shown) == '{"revenue": 5} is the total'


def test_the_tools_prompt_names_every_tool_and_parameter_compactly(workspace):
    specs = workspace.registry.openai_tools()
    text = tools_prompt(specs)
    for spec in specs:
        assert f"- {spec['function']['name']}: " in text
        for name in spec["function"]["parameters"]["properties"]:
            assert f"    {name}" in text
    assert "day: date YYYY-MM-DD" in text and 'one of "Ahmedabad"' in text
    [example] = parse_reply(text.split("Example:", 1)[1], workspace.registry.names).calls
    assert example.name in workspace.registry.names and not example.error
    assert (
        describe_type({"type": "integer", "minimum": 1, "maximum": 25, "default": 10})
        == "integer 1..25 (default 10)"
    )
    assert DATE_PATTERN == arguments.DATE_PATTERN  # providers cannot import tools: the two must agree


def test_the_text_conversation_alternates_roles_with_calls_as_text_and_results_as_user_text():
    call = ToolCall("c1", "get_order", '{"order_id": "A-1"}')
    unreadable = ToolCall("c2", "tool_call", "get_order(A-1)", error="your tool call could not be read")
    conversation = Conversation(
        system="You answer.",
        messages=[
            UserTurn("Where?"),
            AssistantTurn(text="Looking.", tool_calls=(call, unreadable)),
            ToolResults(
                (ToolResult("c1", '{"status": "delivered"}'), ToolResult("c2", "Error: x", is_error=True))
            ),
        ],
    )
    plain = text_conversation(conversation, "TOOLS")
    assert plain.system == "You answer.\n\nTOOLS"
    assert [type(m).__name__ for m in plain.messages] == ["UserTurn", "AssistantTurn", "UserTurn"]
    assistant, results = plain.messages[1], plain.messages[2]
    assert assistant.tool_calls == () and assistant.text.startswith("Looking.\n<tool_call>")
    assert "<tool_call>\nget_order(A-1)\n</tool_call>" in assistant.text
    assert '<tool_result name="get_order">\n{"status": "delivered"}\n</tool_result>' in results.text
    assert '<tool_result name="tool_call" error="true">' in results.text


def test_a_text_provider_gives_each_call_an_id_unique_in_the_conversation(workspace):
    class Writes:
        name, model = "openai", "m"

        def complete(self, conversation, tools, *, on_text=None):
            return ModelResponse(turn=AssistantTurn(text=CALL + "\n" + CALL))

    earlier = ToolCall("call00001", "list_tables", "{}")
    conversation = Conversation(
        messages=[
            UserTurn("q"),
            AssistantTurn(tool_calls=(earlier,)),
            ToolResults((ToolResult("call00001", "[]"),)),
        ]
    )
    response = TextToolsProvider(Writes()).complete(conversation, workspace.registry)
    ids = [c.id for c in response.turn.tool_calls]
    assert response.stop == "tool_use" and len(set(ids)) == 2 and "call00001" not in ids
