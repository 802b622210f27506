"""The interface every provider implements.

Invariants a provider guarantees for the loop:

* ``complete`` returns a ``ModelResponse`` whose turn is ready to append verbatim: every tool call has a
  non-empty id, unique in its turn, and ``arguments`` as JSON text (objects the server sent are
  serialised); a tool call that may be half-written (output cut at max tokens) is flagged by
  ``stop == "truncated"`` and ``turn.truncated``;
* a turn is a tool turn iff it has tool calls, whatever the server's finish/stop reason says;
* every failure is raised as a ``ProviderError`` subclass carrying the server's own message, never as a
  library exception, and never with a credential in it;
* rendering the conversation to the wire format is a pure function of the conversation and the tools.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from analytics_agent.conversation import Conversation, ModelResponse

TextSink = Callable[[str], None]
"""Receives text as the model streams it (only called when the provider streams)."""


class ToolPayloads(Protocol):
    """The tools on offer, already rendered for each wire format (the tool registry is one).

    Providers see only these payloads, never the tools' internals or the database behind them.
    """

    def __len__(self) -> int: ...

    def openai_tools(self, *, strict: bool = False) -> list[dict[str, Any]]: ...

    def bedrock_tool_config(self) -> dict[str, Any]: ...


class Provider(Protocol):
    name: str
    model: str

    def complete(
        self, conversation: Conversation, tools: ToolPayloads, *, on_text: TextSink | None = None
    ) -> ModelResponse: ...
