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
from typing import Protocol

from analytics_agent.conversation import Conversation, ModelResponse
from analytics_agent.tools.registry import Registry

TextSink = Callable[[str], None]
"""Receives text as the model streams it (only called when the provider streams)."""


class Provider(Protocol):
    name: str
    model: str

    def complete(
        self, conversation: Conversation, tools: Registry, *, on_text: TextSink | None = None
    ) -> ModelResponse: ...
