"""The loop against a fake provider, with the real executor on a real sample database."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable

import duckdb
import pytest

from analytics_agent.agent.events import Finished, QuestionAsked, RequestSent, ResponseReceived, ToolFinished
from analytics_agent.agent.loop import Agent, found_summary
from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ModelResponse,
    ToolCall,
    ToolResults,
    Usage,
    UserTurn,
)
from analytics_agent.errors import ProviderConnectionError
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.executor import Executor
from analytics_agent.tools.registry import Registry
from analytics_agent.workspace.workspace import Workspace

Reply = ModelResponse | Callable[[Conversation], ModelResponse] | BaseException


class FakeProvider:
    """Replies from a script; records a snapshot of the conversation of every request."""

    name = "fake"
    model = "fake-1"

    def __init__(self, *script: Reply) -> None:
        self.script = list(script)
        self.requests: list[list] = []

    def complete(self, conversation: Conversation, tools: Registry, *, on_text=None) -> ModelResponse:
        self.requests.append(list(conversation.messages))
        if not self.script:
            raise AssertionError("the model was asked more often than scripted")
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item(conversation) if callable(item) else item


def calls(*specs: tuple[str, dict | str], stop: str = "tool_use", tokens: int = 100) -> ModelResponse:
    tool_calls = tuple(
        ToolCall(f"c{i}", name, args if isinstance(args, str) else json.dumps(args))
        for i, (name, args) in enumerate(specs)
    )
    return ModelResponse(
        AssistantTurn(tool_calls=tool_calls, truncated=stop == "truncated"),
        stop=stop,
        usage=Usage(input_tokens=tokens, output_tokens=10),
    )


def answer(text: str, *, stop: str = "answer", notice: str = "") -> ModelResponse:
    return ModelResponse(AssistantTurn(text=text), stop=stop, usage=Usage(input_tokens=100), notice=notice)


def last_results(conversation: Conversation) -> ToolResults:
    found = [m for m in conversation.messages if isinstance(m, ToolResults)]
    return found[-1]


class CountingExecutor(Executor):
    def __init__(self, inner: Executor) -> None:
        super().__init__(inner.registry, inner.connection, timeout_s=inner.timeout_s)
        self.executed: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def execute(self, name, arguments):
        with self._lock:
            self.executed.append((name, arguments))
        return super().execute(name, arguments)


@pytest.fixture
def counting(workspace: Workspace) -> CountingExecutor:
    return CountingExecutor(workspace.executor)


def make_agent(workspace: Workspace, provider: FakeProvider, executor: Executor | None = None, **kw) -> Agent:
    return Agent(provider, workspace.registry, executor or workspace.executor, system="sys", **kw)


def test_an_answer_without_tool_calls_is_returned_with_its_usage(workspace: Workspace) -> None:
    provider = FakeProvider(answer("Hello."))
    result = make_agent(workspace, provider).ask("hi")
    assert (result.answer, result.steps, result.stop) == ("Hello.", 1, "answer")
    assert result.usage.input_tokens == 100


def test_parallel_calls_are_all_executed_and_answered_in_call_order(
    workspace: Workspace, counting: CountingExecutor
) -> None:
    provider = FakeProvider(
        calls(
            ("get_order", {"order_id": "A-1042"}), ("sales_summary", {"city": "Pune", "day": "2026-10-24"})
        ),
        answer("done"),
    )
    conversation = Conversation()
    make_agent(workspace, provider, counting).ask("q", conversation)
    results = last_results(conversation).results
    assert [r.call_id for r in results] == ["c0", "c1"]
    assert json.loads(results[0].content)["order_id"] == "A-1042"
    assert json.loads(results[1].content)["city"] == "Pune"
    assert sorted(name for name, _ in counting.executed) == ["get_order", "sales_summary"]
    # the second request carries the assistant turn verbatim, then one entry answering both calls
    second = provider.requests[1]
    assert isinstance(second[1], AssistantTurn) and len(second[1].tool_calls) == 2
    assert isinstance(second[2], ToolResults) and len(second[2].results) == 2


class _NoArgs(ToolArguments):
    pass


class BarrierTool(Tool):
    """Passes only if another call reaches the barrier at the same time: proof of concurrency."""

    arguments = _NoArgs
    description = "Waits for a partner call."

    def __init__(self, name: str, barrier: threading.Barrier) -> None:
        self.name = name
        self.barrier = barrier

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        self.barrier.wait()
        count = cursor.execute("SELECT count(*) FROM orders").fetchone()[0]
        return ToolValue({"orders": count, "thread": threading.current_thread().name})


def test_independent_calls_of_one_turn_run_concurrently(workspace: Workspace) -> None:
    barrier = threading.Barrier(2, timeout=600)
    registry = Registry([BarrierTool("left", barrier), BarrierTool("right", barrier)])
    executor = Executor(registry, workspace.connection)
    provider = FakeProvider(calls(("left", {}), ("right", {})), answer("ok"))
    conversation = Conversation()
    Agent(provider, registry, executor).ask("q", conversation)
    executor.close()
    contents = [json.loads(r.content) for r in last_results(conversation).results]
    # a serial run would break the barrier (its wait times out) and both calls would be errors
    assert [c["orders"] for c in contents] == [42_000, 42_000]
    assert contents[0]["thread"] != contents[1]["thread"]


def test_many_concurrent_real_tool_calls_match_serial_runs(workspace: Workspace) -> None:
    days = ["2026-10-20", "2026-10-21", "2026-10-22", "2026-10-23", "2026-10-24", "2026-10-25"]
    specs = [("sales_summary", {"city": city, "day": day}) for city in ("Pune", "Delhi") for day in days]
    serial = [workspace.executor.execute(name, json.dumps(args)).text for name, args in specs]
    provider = FakeProvider(calls(*specs), answer("ok"))
    conversation = Conversation()
    make_agent(workspace, provider).ask("q", conversation)
    assert [r.content for r in last_results(conversation).results] == serial
    first = json.loads(serial[0])
    expected = (  # an independent count, straight from the table
        workspace.cursor()
        .execute("SELECT count(*) FROM orders WHERE city = 'Pune' AND day = DATE '2026-10-20'")
        .fetchone()[0]
    )
    assert first["orders"] == expected


def test_a_validation_error_reaches_the_model_and_the_retry_is_marked_as_a_repair(
    workspace: Workspace,
) -> None:
    provider = FakeProvider(
        calls(("sales_summary", {"city": "Pune", "day": "24 Oct 2026"})),
        calls(("sales_summary", {"city": "Pune", "day": "2026-10-24"})),
        answer("Pune had 3 orders."),
    )
    result = make_agent(workspace, provider).ask("q")
    error = provider.requests[1][-1].results[0]
    assert error.is_error and "day" in error.content and "YYYY-MM-DD" in error.content
    assert [r.is_error for r in result.tool_calls] == [True, False]
    assert json.loads(result.tool_calls[1].repaired_from or "{}")["day"] == "24 Oct 2026"
    assert result.answer == "Pune had 3 orders." and result.steps == 3


def test_the_same_failing_call_is_not_run_again_and_says_it_already_failed(
    workspace: Workspace, counting: CountingExecutor
) -> None:
    bad = '{"city": "Pune", "day": "24 Oct 2026"}'
    same_reordered = '{ "day":"24 Oct 2026","city":"Pune" }'
    provider = FakeProvider(
        calls(("sales_summary", bad)), calls(("sales_summary", same_reordered)), answer("x")
    )
    result = make_agent(workspace, provider, counting).ask("q")
    assert len(counting.executed) == 1
    repeat = provider.requests[2][-1].results[0]
    assert repeat.is_error
    assert "already failed" in repeat.content
    assert "day: Input should be a valid date in YYYY-MM-DD format" in repeat.content
    assert result.tool_calls[1].skipped == "repeated"


def test_a_model_repeating_a_failing_call_forever_is_stopped_by_the_step_limit(workspace: Workspace) -> None:
    bad = ("sales_summary", {"city": "Pune", "day": "yesterday-ish"})
    good = ("get_order", {"order_id": "A-1042"})
    provider = FakeProvider(calls(bad, good), *[calls(bad) for _ in range(10)])
    conversation = Conversation()
    result = make_agent(workspace, provider, max_steps=3).ask("q", conversation)
    assert len(provider.requests) == 3
    assert result.stop == "step_limit" and result.steps == 3
    assert "stopped after 3 steps" in result.answer
    assert 'get_order {"order_id": "A-1042"} (1 row)' in result.answer
    # the question is closed by an assistant turn, so a chat can continue with a user turn
    assert isinstance(conversation.messages[-1], AssistantTurn)
    assert conversation.messages[-1].text == result.answer


def test_the_token_budget_stops_the_question_with_a_sentence(workspace: Workspace) -> None:
    provider = FakeProvider(
        calls(("get_order", {"order_id": "A-1042"}), tokens=60_000),
        calls(("get_order", {"order_id": "A-1043"}), tokens=60_000),
        answer("never asked"),
    )
    result = make_agent(workspace, provider, max_input_tokens=100_000).ask("q")
    assert len(provider.requests) == 2
    assert result.stop == "token_budget"
    assert "120,000 input tokens" in result.answer and "100,000" in result.answer
    assert result.usage.input_tokens == 120_000


def test_a_truncated_turn_is_never_executed_and_each_call_hears_it_was_cut_off(
    workspace: Workspace, counting: CountingExecutor
) -> None:
    provider = FakeProvider(
        calls(("get_order", '{"order_id": "A-10'), ("list_tables", {}), stop="truncated"),
        answer("ok"),
    )
    result = make_agent(workspace, provider, counting).ask("q")
    assert counting.executed == []
    results = provider.requests[1][-1].results
    assert [r.call_id for r in results] == ["c0", "c1"]
    assert all(r.is_error and "cut off" in r.content for r in results)
    assert [r.skipped for r in result.tool_calls] == ["cut_off", "cut_off"]


def test_a_filtered_reply_answers_with_the_providers_notice(workspace: Workspace) -> None:
    provider = FakeProvider(answer("", stop="filtered", notice="A guardrail blocked this answer."))
    result = make_agent(workspace, provider).ask("q")
    assert (result.answer, result.stop) == ("A guardrail blocked this answer.", "filtered")


def test_a_malformed_reply_is_a_failed_step_within_the_limit(workspace: Workspace) -> None:
    provider = FakeProvider(answer("", stop="malformed"), answer("second try"))
    result = make_agent(workspace, provider).ask("q")
    assert (result.answer, result.steps) == ("second try", 2)
    assert all(not isinstance(m, AssistantTurn) or m.text for m in provider.requests[1])


def test_an_exceeded_context_window_stops_with_a_clear_sentence(workspace: Workspace) -> None:
    provider = FakeProvider(answer("", stop="context_exceeded"))
    result = make_agent(workspace, provider).ask("q")
    assert result.stop == "context_exceeded" and "context window" in result.answer


@pytest.mark.parametrize("failure", [ProviderConnectionError("down"), KeyboardInterrupt()])
def test_a_failed_or_interrupted_question_leaves_the_conversation_as_it_was(
    workspace: Workspace, failure: BaseException
) -> None:
    provider = FakeProvider(answer("first"), calls(("list_tables", {})), failure, answer("third"))
    agent = make_agent(workspace, provider)
    conversation = agent.new_conversation()
    agent.ask("one", conversation)
    before = list(conversation.messages)
    with pytest.raises(type(failure)):
        agent.ask("two", conversation)
    assert conversation.messages == before
    assert agent.ask("three", conversation).answer == "third"
    assert [m.text for m in conversation.messages if isinstance(m, UserTurn)] == ["one", "three"]


def test_events_describe_each_step_in_order(workspace: Workspace) -> None:
    events: list = []
    provider = FakeProvider(calls(("get_order", {"order_id": "A-1042"})), answer("done"))
    make_agent(workspace, provider, on_event=events.append).ask("q")
    kinds = [type(e).__name__ for e in events]
    assert kinds == [
        "QuestionAsked", "RequestSent", "ResponseReceived", "ToolFinished",
        "RequestSent", "ResponseReceived", "Finished",
    ]  # fmt: skip
    assert isinstance(events[0], QuestionAsked) and events[0].model == "fake-1"
    assert isinstance(events[1], RequestSent) and events[1].messages == 1
    assert isinstance(events[2], ResponseReceived) and events[2].usage.input_tokens == 100
    tool = events[3]
    assert (
        isinstance(tool, ToolFinished)
        and tool.record.rows == 1
        and "A-1042" in tool.record.sql + tool.content
    )
    assert tool.record.duration_ms > 0
    assert isinstance(events[-1], Finished) and events[-1].result.answer == "done"


def test_found_summary_says_when_nothing_succeeded() -> None:
    assert found_summary([]) == "No tool was called."


def test_tool_results_are_fed_back_before_the_next_request(workspace: Workspace) -> None:
    def check(conversation: Conversation) -> ModelResponse:
        results = conversation.messages[-1]
        assert isinstance(results, ToolResults)
        order = json.loads(results.results[0].content)
        return answer(f"{order['order_id']} was {order['status']} on {order['day']}")

    provider = FakeProvider(calls(("get_order", {"order_id": "A-1042"})), check)
    result = make_agent(workspace, provider).ask("q")
    assert result.answer == "A-1042 was delivered on 2026-10-18"


def test_only_the_call_that_worked_is_marked_as_the_repair_never_a_second_failure(
    workspace: Workspace,
) -> None:
    provider = FakeProvider(
        calls(("sales_summary", {"city": "Pune", "day": "24 Oct 2026"})),
        calls(("sales_summary", {"city": "Pune", "day": "Oct 24"})),
        calls(("sales_summary", {"city": "Pune", "day": "2026-10-24"})),
        answer("Pune had 3 orders."),
    )
    result = make_agent(workspace, provider).ask("q")
    assert [r.is_error for r in result.tool_calls] == [True, True, False]
    assert [r.repaired_from is not None for r in result.tool_calls] == [False, False, True]
    assert json.loads(result.tool_calls[2].repaired_from or "{}")["day"] == "Oct 24"
