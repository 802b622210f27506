"""The pieces the agent benchmarks share: the real loop, the real OpenAI-compatible provider over an
in-process scripted model (no network), and event sinks that add up the time spent inside tools."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from analytics_agent.conversation import AssistantTurn, Conversation, ModelResponse, ToolCall, Usage

SCRIPTED_URL = "http://scripted.invalid/v1"


def scripted_provider(steps: Sequence, *, stream: bool = False):
    """(provider, script): the real ``OpenAIProvider`` whose HTTP goes to a ``ScriptedModel``."""
    from analytics_agent.providers.openai.provider import OpenAIProvider
    from analytics_agent.providers.scripted import ScriptedModel

    script = ScriptedModel(list(steps))
    provider = OpenAIProvider(
        base_url=SCRIPTED_URL, model="scripted", client=script.client(), stream=stream, max_retries=0
    )
    return provider, script


class InProcessProvider:
    """A provider with no wire format at all: isolates the loop's own cost from the provider's."""

    name = "in-process"
    model = "none"

    def __init__(self, turns: Sequence[tuple[tuple[str, str], ...] | str]) -> None:
        self.turns = list(turns)
        self.used = 0

    def complete(self, conversation: Conversation, tools, *, on_text=None) -> ModelResponse:
        turn = self.turns[self.used]
        self.used += 1
        if isinstance(turn, str):
            return ModelResponse(AssistantTurn(text=turn), usage=Usage(input_tokens=10, output_tokens=5))
        calls = tuple(ToolCall(f"c{self.used}_{i}", name, args) for i, (name, args) in enumerate(turn))
        return ModelResponse(
            AssistantTurn(tool_calls=calls), stop="tool_use", usage=Usage(input_tokens=10, output_tokens=5)
        )


@dataclass
class ToolClock:
    """An event sink that sums the executor's own duration of every tool call (thread-safe)."""

    tool_ms: float = 0.0
    calls: int = 0
    errors: int = 0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    def __call__(self, event) -> None:
        from analytics_agent.agent.events import ToolFinished

        if isinstance(event, ToolFinished):
            with self._lock:
                self.tool_ms += event.record.duration_ms
                self.calls += 1
                self.errors += int(event.record.is_error)
