"""What the agent loop reports: one event per thing that happened, and the result of a question.

Events drive the live trace on stderr and the JSON Lines transcript; neither needs anything else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from analytics_agent import bounded_json
from analytics_agent.conversation import ToolCall, Usage

StopReason = Literal["answer", "filtered", "step_limit", "token_budget", "context_exceeded"]


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call of a question, as executed (or deliberately not executed)."""

    step: int
    call_id: str
    name: str
    arguments: str
    """The arguments exactly as the model sent them (JSON text)."""
    is_error: bool
    rows: int = 0
    tokens: int = 0
    truncated: bool = False
    duration_ms: float = 0.0
    sql: str = ""
    params: Any = None
    """The values bound to the SQL's parameters, as run."""
    error: str = ""
    skipped: Literal["", "repeated", "cut_off", "over_cap"] = ""
    """Why the call was not run: it already failed with these arguments, or the model's turn was cut off."""
    repaired_from: str | None = None
    """The arguments of this tool's previous failed call in this question, when these differ."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "id": self.call_id,
            "name": self.name,
            "arguments": _parsed_or_raw(self.arguments),
            "is_error": self.is_error,
            "rows": self.rows,
            "tokens": self.tokens,
            "duration_ms": round(self.duration_ms, 1),
            **({"sql": self.sql, "params": self.params} if self.sql else {}),
            **({"error": self.error} if self.error else {}),
            **({"skipped": self.skipped} if self.skipped else {}),
        }


@dataclass
class AgentResult:
    """The answer to one question and how it was reached."""

    answer: str
    steps: int
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    stop: StopReason = "answer"
    unverified_numbers: list[str] = field(default_factory=list)
    """Numbers in the answer that no tool result explains (see ``agent.grounding``), as written."""
    from_tools: bool = True
    """Whether any tool result stood behind the answer (this question's or, in a chat, an earlier one's)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "answer": self.answer,
            "steps": self.steps,
            "tool_calls": [c.as_dict() for c in self.tool_calls],
            "usage": self.usage.as_dict(),
            "stop": self.stop,
            "unverified_numbers": list(self.unverified_numbers),
        }


@dataclass(frozen=True)
class QuestionAsked:
    question: str
    provider: str
    model: str
    system: str


@dataclass(frozen=True)
class RequestSent:
    step: int
    messages: int


@dataclass(frozen=True)
class ResponseReceived:
    step: int
    stop: str
    text: str
    tool_calls: tuple[ToolCall, ...]
    usage: Usage
    duration_ms: float
    notice: str = ""


@dataclass(frozen=True)
class ToolFinished:
    record: ToolCallRecord
    content: str
    """The exact text the model reads."""


@dataclass(frozen=True)
class StepFailed:
    step: int
    reason: str


@dataclass(frozen=True)
class Finished:
    result: AgentResult


Event = QuestionAsked | RequestSent | ResponseReceived | ToolFinished | StepFailed | Finished
EventSink = Callable[[Event], None]


def _parsed_or_raw(arguments: str) -> Any:
    try:
        return bounded_json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return arguments
