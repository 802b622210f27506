"""The provider-neutral conversation.

The agent keeps a question's history only in these types; each provider renders its wire format from
them in pure functions and parses its responses back into them. Invariants every provider relies on:

* every ``ToolCall`` has a non-empty ``id`` that is unique within its turn;
* every ``ToolCall`` of an ``AssistantTurn`` is answered by exactly one ``ToolResult`` with that id, in
  the next ``ToolResults`` entry, in call order;
* ``ToolCall.arguments`` is the raw text the model sent (JSON, possibly invalid); ``parsed_arguments``
  is filled when it parsed to an object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from analytics_agent import bounded_json


@dataclass(frozen=True)
class UserTurn:
    text: str


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str
    """The arguments exactly as the model sent them, as JSON text (objects are serialised on arrival)."""
    error: str = ""
    """Set when the provider could not read the call (text mode: a malformed ``<tool_call>``); the call is
    not run, and this is what the model reads as its result. ``arguments`` then holds the raw text."""

    @property
    def parsed_arguments(self) -> dict[str, Any] | None:
        try:
            value = bounded_json.loads(self.arguments) if self.arguments.strip() else {}
        except ValueError:
            return None
        return value if isinstance(value, dict) else None


@dataclass(frozen=True)
class AssistantTurn:
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    extras: tuple[dict[str, Any], ...] = ()
    """Provider blocks that must be replayed unmodified (e.g. Bedrock ``reasoningContent`` with its
    signature, OpenAI-compatible ``reasoning_content``). Opaque to the loop."""
    truncated: bool = False
    """The model ran out of output tokens: tool calls in this turn may be half-written."""


@dataclass(frozen=True)
class ToolResult:
    call_id: str
    content: str
    is_error: bool = False


@dataclass(frozen=True)
class ToolResults:
    results: tuple[ToolResult, ...]


Message = UserTurn | AssistantTurn | ToolResults


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    unreported: int = 0
    """Replies whose server sent no token counts (llama-cpp-python's streams): their zeros are unknown,
    not free. Not in ``as_dict``: the counts there stay what the servers said."""

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_read_tokens += other.cache_read_tokens
        self.cache_write_tokens += other.cache_write_tokens
        self.unreported += other.unreported

    def as_dict(self) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cache_read_tokens": self.cache_read_tokens,
            "cache_write_tokens": self.cache_write_tokens,
        }


StopKind = Literal["answer", "tool_use", "truncated", "filtered", "malformed", "context_exceeded"]


@dataclass(frozen=True)
class ModelResponse:
    """One model reply, parsed: the turn to append, why it stopped, and what it cost."""

    turn: AssistantTurn
    stop: StopKind = "answer"
    usage: Usage = field(default_factory=Usage)
    notice: str = ""
    """A provider remark for the user (e.g. a guardrail intervened)."""


@dataclass
class Conversation:
    system: str = ""
    messages: list[Message] = field(default_factory=list)
