"""What one question may cost, whatever the model and the endpoint send (issue 17, groups 5, 6, 12).

The real executor runs on the real sample database; the model is a fake provider from test_loop.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pytest
from slow_tools import CountsForever

from analytics_agent.agent.bounds import (
    MAX_CALLS_PER_TURN,
    MAX_ERROR_TOKENS,
    bounded_error,
    run_calls,
    sent_tokens,
)
from analytics_agent.agent.events import StepFailed
from analytics_agent.conversation import AssistantTurn, Conversation, ModelResponse, ToolCall, Usage, UserTurn
from analytics_agent.tools.executor import Executor, ToolOutcome
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.results.shaping import estimate_tokens
from analytics_agent.workspace.workspace import Workspace

sys.path.insert(0, str(Path(__file__).parent))
from test_loop import FakeProvider, answer, calls, last_results, make_agent

PUNE = {"city": "Pune", "day": "2026-10-24"}


def test_only_the_first_calls_of_a_turn_run_and_the_rest_are_told_why(workspace: Workspace) -> None:
    ran: list[str] = []
    lock = threading.Lock()
    inner = workspace.executor.execute

    def counting(name, arguments):
        with lock:
            ran.append(arguments)
        return inner(name, arguments)

    workspace.executor.execute = counting  # type: ignore[method-assign]
    many = [("sales_summary", {**PUNE, "day": f"2026-10-{d:02d}"}) for d in range(1, 31)]
    provider = FakeProvider(calls(*many), answer("done"))
    conversation = Conversation()
    result = make_agent(workspace, provider).ask("q", conversation)
    results = last_results(conversation).results
    assert len(ran) == MAX_CALLS_PER_TURN == 16 and len(results) == 30  # every call answered
    assert all(json.loads(r.content)["city"] == "Pune" for r in results[:16])
    assert all(r.is_error and "only the first 16 were run" in r.content for r in results[16:])
    assert [c.skipped for c in result.tool_calls[16:]] == ["over_cap"] * 14


def test_an_error_echoing_a_huge_argument_reaches_the_model_bounded(workspace: Workspace) -> None:
    huge = "x" * 5_000_000
    provider = FakeProvider(calls(("no_such_tool_" + huge, {"a": huge}), ("sales_summary", {"city": huge})),
                            answer("done"))  # fmt: skip
    conversation = Conversation()
    result = make_agent(workspace, provider).ask("q", conversation)
    for sent in last_results(conversation).results:
        assert sent.is_error and estimate_tokens(sent.content) <= MAX_ERROR_TOKENS
        assert "characters" in sent.content  # says it was cut, or that the value was long
    assert all(len(record.error) < 10_000 for record in result.tool_calls)


def test_bounded_error_keeps_short_errors_and_cuts_long_ones_to_the_budget() -> None:
    short = "Error: day: Input should be a valid date"
    assert bounded_error(short) is short
    long = "Error: " + "é" * 100_000  # 2 UTF-8 bytes each: the estimate counts bytes here
    cut = bounded_error(long)
    assert estimate_tokens(cut) <= MAX_ERROR_TOKENS and cut.endswith("(error cut: 100,007 characters in all)")


def _fake_usage(tokens: int):
    """A reply that asks for one more tool call and reports ``tokens`` input tokens, whatever was sent."""

    def reply(conversation: Conversation) -> ModelResponse:
        n = len(conversation.messages)
        call = ToolCall(f"c{n}", "sales_summary", json.dumps({**PUNE, "day": f"2026-10-{n % 28 + 1:02d}"}))
        return ModelResponse(AssistantTurn(tool_calls=(call,)), stop="tool_use", usage=Usage(tokens, 1))

    return reply


@pytest.mark.parametrize("reported", [0, 1])
def test_fake_usage_cannot_keep_a_question_under_the_token_budget(
    workspace: Workspace, reported: int
) -> None:
    provider = FakeProvider(*[_fake_usage(reported)] * 50)
    result = make_agent(workspace, provider, max_steps=50, max_input_tokens=5_000).ask("q")
    assert result.stop == "token_budget" and result.steps < 50
    assert "Counted from what was sent" in result.answer
    assert result.usage.input_tokens == reported * result.steps  # what the server said is still shown


def test_the_floor_never_counts_more_than_a_byte_sixth_of_what_is_sent() -> None:
    conversation = Conversation(system="s" * 600, messages=[UserTurn("q" * 600)])
    assert sent_tokens(conversation, 600) == 300  # 1,800 bytes / 6


def test_an_honest_server_is_charged_what_it_reports(workspace: Workspace) -> None:
    provider = FakeProvider(calls(("sales_summary", PUNE), tokens=40_000), answer("done"))
    result = make_agent(workspace, provider, max_input_tokens=50_000).ask("q")
    assert result.stop == "answer" and result.usage.input_tokens == 40_100


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    """Python raises KeyboardInterrupt on SIGINT only if SIGINT was not ignored when it started, and a
    shell ignores it for a command run in the background (``.ci/run &``): there the interrupt below was
    lost and the test waited forever. Installed here, as a terminal's foreground process has it."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_cancels_the_calls_not_started_and_says_so() -> None:
    started: list[str] = []
    finished: list[str] = []
    lock = threading.Lock()
    release = threading.Event()

    def slow(name: str, arguments: str) -> ToolOutcome:
        with lock:
            started.append(arguments)
            if len(started) == 8:  # every worker is busy: once all 40 are queued, the user presses Ctrl-C
                _when_main_waits(_interrupt_main)
        release.wait(600)  # a generous bound so a broken run_calls ends; nothing asserts on it
        finished.append(arguments)
        return ToolOutcome(name, "{}", False)

    said: list[tuple[int, int]] = []
    calls_ = [ToolCall(f"c{i}", "slow", str(i)) for i in range(40)]
    with pytest.raises(KeyboardInterrupt):
        run_calls(slow, calls_, range(40), on_interrupt=lambda c, r, _settled: said.append((c, r)))
    still_running = not finished  # the interrupt went on without waiting for the running calls
    release.set()
    assert still_running
    assert said == [(32, 8)] and len(started) == 8


def _when_main_waits(then: Callable[[], None]) -> None:
    """Call ``then`` once the main thread blocks waiting for a result (all calls submitted): a readiness
    signal read from the main thread's stack instead of a guess of how long submitting takes."""
    main = threading.main_thread().ident
    for _ in range(600_000):  # a generous bound (10 min or more) so a broken test ends; nothing asserts on it
        frame = sys._current_frames().get(main)  # type: ignore[arg-type]
        names = []
        while frame is not None:
            names.append(frame.f_code.co_name)
            frame = frame.f_back
        if names[:1] == ["wait"] and "result" in names:  # Future.result -> Condition.wait
            then()
            return
        time.sleep(0.001)


def _interrupt_main() -> None:
    os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C: it wakes the main thread's wait


def test_an_interrupt_during_tool_calls_is_reported_as_an_event(workspace: Workspace) -> None:
    events: list = []

    def boom(name, arguments):
        raise KeyboardInterrupt

    workspace.executor.execute = boom  # type: ignore[method-assign]
    provider = FakeProvider(calls(("sales_summary", PUNE)))
    agent = make_agent(workspace, provider, on_event=events.append)
    with pytest.raises(KeyboardInterrupt):
        agent.ask("q")
    failed = [e for e in events if isinstance(e, StepFailed)]
    assert failed and failed[0].reason.startswith("interrupted:")


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_stops_a_running_query_before_the_question_is_dropped(workspace: Workspace) -> None:
    """In a chat the conversation goes on after Ctrl-C: the dropped question's query must not keep running
    beside the next one until its time limit. The limit's clock never moves, so only the interrupt ends it."""
    conn = duckdb.connect()
    executor = Executor(Registry([CountsForever()]), conn, clock=lambda: 0.0)
    events: list = []
    agent = make_agent(workspace, FakeProvider(calls(("slow", {}))), executor, on_event=events.append)
    threading.Thread(target=_when_main_waits, args=(_interrupt_main,), daemon=True).start()
    try:
        with pytest.raises(KeyboardInterrupt):
            agent.ask("q")
        assert not executor._live  # stopped before the interrupt went on, not left to a 15 s limit
    finally:
        executor.close()
        conn.close()
    failed = [e.reason for e in events if isinstance(e, StepFailed)]
    assert failed == ["interrupted: 0 tool calls not started yet cancelled; 1 already running stopped"]


def test_a_call_outlasting_the_interrupt_poll_still_returns_its_result(monkeypatch) -> None:
    monkeypatch.setattr("analytics_agent.agent.bounds.INTERRUPT_POLL_S", 0.001)  # many wake-ups per call
    release = threading.Event()
    threading.Thread(target=_when_main_waits, args=(release.set,), daemon=True).start()

    def slow(name: str, arguments: str) -> ToolOutcome:
        release.wait(600)  # a bound so a broken test ends; nothing asserts on it
        return ToolOutcome(name, arguments, False)

    outcomes = run_calls(slow, [ToolCall("c0", "slow", "a"), ToolCall("c1", "slow", "b")], [0, 1],
                         on_interrupt=lambda *_: None)  # fmt: skip
    assert {i: o.text for i, o in outcomes.items()} == {0: "a", 1: "b"}


def test_a_call_raising_timeout_error_is_not_mistaken_for_the_wait_timing_out() -> None:
    def times_out(name: str, arguments: str) -> ToolOutcome:
        raise TimeoutError("the call's own")

    with pytest.raises(TimeoutError, match="the call's own"):
        run_calls(times_out, [ToolCall("c0", "x", "{}")], [0], on_interrupt=lambda *_: None)
