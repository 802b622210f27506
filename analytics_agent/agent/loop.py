"""The loop: ask the model, run the tools it asks for, feed the results back, until it answers.

The model proposes, the code decides: every call is validated and run by the Executor; calls the model
already saw fail are not re-run; a cut-off turn is never executed; steps and input tokens are bounded;
and every way of stopping ends in a sentence for the user, never an empty string.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from analytics_agent import bounded_json
from analytics_agent.agent.bounds import (
    MAX_CALLS_PER_TURN,
    bounded_error,
    over_cap_error,
    run_calls,
    sent_tokens,
    tools_size,
)
from analytics_agent.agent.events import (
    AgentResult,
    Event,
    EventSink,
    Finished,
    QuestionAsked,
    RequestSent,
    ResponseReceived,
    StepFailed,
    StopReason,
    ToolCallRecord,
    ToolFinished,
)
from analytics_agent.agent.grounding import evidence_from, unverified_numbers
from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ModelResponse,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    UserTurn,
)
from analytics_agent.providers.base import Provider, TextSink
from analytics_agent.tools.executor import ToolOutcome
from analytics_agent.tools.registry import Registry

DEFAULT_MAX_STEPS = 8
DEFAULT_MAX_INPUT_TOKENS = 100_000

CUT_OFF_RESULT = (
    "Error: your reply was cut off at the output token limit, so this call was not run (its arguments "
    "may be incomplete). Send shorter arguments or fewer calls at once."
)
CUT_OFF_NOTE = "\n(The answer was cut off at the model's output limit; raise it with --max-tokens.)"
CONTEXT_SENTENCE = (
    "The conversation no longer fits the model's context window, so I stopped. Ask again in a new "
    "session (in chat: /reset), or ask a narrower question."
)


@dataclass
class _Run:
    """The state of one question."""

    usage: Usage = field(default_factory=Usage)
    steps: int = 0
    records: list[ToolCallRecord] = field(default_factory=list)
    failures: dict[tuple[str, str], str] = field(default_factory=dict)
    last_failed_args: dict[str, str] = field(default_factory=dict)
    charged: int = 0
    """Input tokens counted against the budget: per request, the reported figure or our floor."""


class ToolRunner(Protocol):
    """What runs the model's calls: the local ``Executor``, or a team server's (``workspace/remote``).
    ``execute`` never raises."""

    def execute(self, name: str, arguments: str | dict[str, Any] | None) -> ToolOutcome: ...

    def stop_running(self, until: Callable[[], bool] = ...) -> None: ...


class Agent:
    """Answers questions with a provider and the tools of one workspace.

    Args:
        provider: any ``Provider``.
        registry: the tools the model is offered.
        executor: runs them (never raises).
        system: the system prompt of new conversations.
        max_steps: model requests per question.
        max_input_tokens: input tokens per question, from the provider's usage.
        on_event: receives every event (trace, transcript).
        on_text: receives streamed text (only when the provider streams).
    """

    def __init__(
        self,
        provider: Provider,
        registry: Registry,
        executor: ToolRunner,
        *,
        system: str = "",
        max_steps: int = DEFAULT_MAX_STEPS,
        max_input_tokens: int = DEFAULT_MAX_INPUT_TOKENS,
        on_event: EventSink | None = None,
        on_text: TextSink | None = None,
    ) -> None:
        self.provider = provider
        self.registry = registry
        self.executor = executor
        self.system = system
        self.max_steps = max_steps
        self.max_input_tokens = max_input_tokens
        self.on_event = on_event
        self.on_text = on_text
        self._tools_bytes: int | None = None

    def new_conversation(self) -> Conversation:
        return Conversation(system=self.system)

    def ask(self, question: str, conversation: Conversation | None = None) -> AgentResult:
        """Answer one question, extending ``conversation`` (a new one when omitted).

        If the provider fails or the user interrupts, the conversation is left as it was before the
        question, so a chat session can go on; the exception propagates.
        """
        conversation = conversation if conversation is not None else self.new_conversation()
        mark = len(conversation.messages)
        self._emit(QuestionAsked(question, self.provider.name, self.provider.model, conversation.system))
        conversation.messages.append(UserTurn(question))
        try:
            result = self._loop(conversation, _Run())
        except BaseException:
            del conversation.messages[mark:]
            raise
        if result.stop == "answer":  # the other stops are our own sentences, not the model's numbers
            result.unverified_numbers = unverified_numbers(result.answer, evidence_from(conversation))
            result.from_tools = any(isinstance(m, ToolResults) for m in conversation.messages)
        self._emit(Finished(result))
        return result

    def _loop(self, conversation: Conversation, run: _Run) -> AgentResult:
        for step in range(1, self.max_steps + 1):
            if run.charged >= self.max_input_tokens:
                return _stop(conversation, run, "token_budget", self._budget_sentence(run))
            response = self._send(conversation, run, step)
            result = self._handle(conversation, run, step, response)
            if result is not None:
                return result
        sentence = f"I stopped after {self.max_steps} steps without a final answer (--max-steps)."
        return _stop(conversation, run, "step_limit", sentence)

    def _budget_sentence(self, run: _Run) -> str:
        sentence = (
            f"I stopped: this question used {run.charged:,} input tokens, more than the budget of "
            f"{self.max_input_tokens:,} (--max-tokens-budget)."
        )
        if run.charged > run.usage.input_tokens:
            sentence += f" (Counted from what was sent; the server reported {run.usage.input_tokens:,}.)"
        return sentence

    def _send(self, conversation: Conversation, run: _Run, step: int) -> ModelResponse:
        self._emit(RequestSent(step, len(conversation.messages)))
        if self._tools_bytes is None:
            self._tools_bytes = tools_size(self.registry.openai_tools())
        floor = sent_tokens(conversation, self._tools_bytes)
        started = time.perf_counter()
        response = self.provider.complete(conversation, self.registry, on_text=self.on_text)
        elapsed = (time.perf_counter() - started) * 1000
        run.usage.add(response.usage)
        run.charged += max(response.usage.input_tokens, floor)
        run.steps = step
        turn = response.turn
        self._emit(
            ResponseReceived(
                step, response.stop, turn.text, turn.tool_calls, response.usage, elapsed, response.notice
            )
        )
        return response

    def _handle(
        self, conversation: Conversation, run: _Run, step: int, response: ModelResponse
    ) -> AgentResult | None:
        """Append what the response means to the conversation; a result when the question is done."""
        turn = response.turn
        if response.stop == "context_exceeded":
            return _stop(conversation, run, "context_exceeded", CONTEXT_SENTENCE, summary=False)
        if response.stop == "filtered":
            answer = response.notice or turn.text or "The provider's content filter stopped the answer."
            conversation.messages.append(AssistantTurn(text=answer))
            return _result(answer, run, "filtered")
        if response.stop == "malformed":
            self._emit(StepFailed(step, "the model's reply was malformed; asking again"))
            return None
        cut_off = response.stop == "truncated" or turn.truncated
        if turn.tool_calls:
            conversation.messages.append(turn)
            results = self._cut_off(turn.tool_calls, run, step) if cut_off else self._run(turn, run, step)
            conversation.messages.append(ToolResults(tuple(results)))
            return None
        if not turn.text.strip():
            self._emit(StepFailed(step, "the model returned an empty reply; asking again"))
            return None
        conversation.messages.append(turn)
        answer = turn.text
        if cut_off:
            answer += CUT_OFF_NOTE
        return _result(answer, run, "answer")

    def _run(self, turn: AssistantTurn, run: _Run, step: int) -> list[ToolResult]:
        """Run a turn's calls (independent ones concurrently, at most ``MAX_CALLS_PER_TURN``); results in
        call order."""
        calls = turn.tool_calls
        keys = [_call_key(c) for c in calls]
        allowed = range(min(len(calls), MAX_CALLS_PER_TURN))
        fresh = [i for i in allowed if keys[i] not in run.failures and not calls[i].error]

        def interrupted(cancelled: int, running: int, settled: Callable[[], bool]) -> None:
            if running:  # what the sentence says: they are stopped, not left to run
                self.executor.stop_running(until=settled)
            self._emit(StepFailed(step, _interrupt_sentence(cancelled, running)))

        outcomes = run_calls(self.executor.execute, calls, fresh, on_interrupt=interrupted)
        results = []
        for i, call in enumerate(calls):
            if call.error:  # the provider could not read it: its reason goes back as the result
                content = f"Error: {call.error}"
                record = ToolCallRecord(step, call.id, call.name, call.arguments, True, error=content)
            elif i >= len(allowed):
                content = over_cap_error(len(calls))
                record = ToolCallRecord(step, call.id, call.name, call.arguments, True, error=content,
                                        skipped="over_cap")  # fmt: skip
            elif i in outcomes:
                record, content = _record(step, call, outcomes[i], run)
                if record.is_error:
                    run.failures[keys[i]] = content
                    run.last_failed_args[call.name] = call.arguments
            else:
                record, content = _repeated(step, call, run.failures[keys[i]])
            results.append(self._finish(run, record, content))
        return results

    def _cut_off(self, calls: Sequence[ToolCall], run: _Run, step: int) -> list[ToolResult]:
        results = []
        for call in calls:
            record = ToolCallRecord(
                step, call.id, call.name, call.arguments, True, error=CUT_OFF_RESULT, skipped="cut_off"
            )
            results.append(self._finish(run, record, CUT_OFF_RESULT))
        return results

    def _finish(self, run: _Run, record: ToolCallRecord, content: str) -> ToolResult:
        run.records.append(record)
        self._emit(ToolFinished(record, content))
        return ToolResult(record.call_id, content, record.is_error)

    def _emit(self, event: Event) -> None:
        if self.on_event is not None:
            self.on_event(event)


def _record(step: int, call: ToolCall, outcome: ToolOutcome, run: _Run) -> tuple[ToolCallRecord, str]:
    text = bounded_error(outcome.text) if outcome.is_error else outcome.text
    previous = run.last_failed_args.get(call.name)
    # Only a call that worked repairs the failed one before it (a second failure is another attempt).
    fixed = previous is not None and previous != call.arguments and not outcome.is_error
    repaired = previous if fixed else None
    record = ToolCallRecord(
        step=step,
        call_id=call.id,
        name=call.name,
        arguments=call.arguments,
        is_error=outcome.is_error,
        rows=outcome.rows,
        tokens=outcome.tokens,
        truncated=outcome.truncated,
        duration_ms=outcome.duration_ms,
        sql=outcome.sql,
        params=outcome.params,
        error=text if outcome.is_error else "",
        repaired_from=repaired,
    )
    return record, text


def _interrupt_sentence(cancelled: int, running: int) -> str:
    sentence = f"interrupted: {cancelled} tool call{'s' if cancelled != 1 else ''} not started yet cancelled"
    if running:
        sentence += f"; {running} already running stopped"
    return sentence


def _repeated(step: int, call: ToolCall, previous_error: str) -> tuple[ToolCallRecord, str]:
    reason = previous_error.removeprefix("Error: ")
    content = (
        f"Error: this exact call already failed, so it was not run again. The error was: {reason}\n"
        "Change the arguments or use another tool."
    )
    record = ToolCallRecord(step, call.id, call.name, call.arguments, True, error=content, skipped="repeated")
    return record, content


def _call_key(call: ToolCall) -> tuple[str, str]:
    """Same tool and same arguments up to key order and spacing."""
    parsed = call.parsed_arguments
    if parsed is None:
        return call.name, call.arguments.strip()
    return call.name, json.dumps(parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _result(answer: str, run: _Run, stop: StopReason) -> AgentResult:
    return AgentResult(
        answer=answer, steps=run.steps, tool_calls=list(run.records), usage=run.usage, stop=stop
    )


def _stop(
    conversation: Conversation, run: _Run, stop: StopReason, sentence: str, *, summary: bool = True
) -> AgentResult:
    """End without a model answer: say why and what was found; keep the conversation well-formed."""
    answer = f"{sentence} {found_summary(run.records)}" if summary else sentence
    # An assistant turn closes the question, so roles still alternate if the chat goes on.
    conversation.messages.append(AssistantTurn(text=answer))
    return _result(answer, run, stop)


def found_summary(records: Sequence[ToolCallRecord]) -> str:
    """One sentence on the tool calls that worked, for answers the model did not write."""
    done = [r for r in records if not r.is_error]
    if not done:
        failed = len(records)
        return f"No tool call succeeded ({failed} failed)." if failed else "No tool was called."
    parts = [f"{r.name} {_compact(r.arguments)} ({r.rows} row{'s' if r.rows != 1 else ''})" for r in done]
    return "Tools that succeeded: " + "; ".join(parts) + "."


def _compact(arguments: str) -> str:
    try:
        return json.dumps(bounded_json.loads(arguments), ensure_ascii=False, separators=(", ", ": "))
    except ValueError:
        return arguments
