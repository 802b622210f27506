"""``TextToolsProvider``: tool calling for models that have none, over any provider.

It wraps a provider: the tools go into the system prompt as compact text (``text_prompt``), the request
carries no native tools, and the reply's text is read for ``<tool_call>`` blocks (``text_protocol``). What
it returns is an ordinary ``ModelResponse`` with ordinary ``ToolCall``s, so the loop, validation, the
executor, the limits, the trace, transcripts and ``eval`` work unchanged; results go back to the model as
user text on the next request.

A reply that looks like a call but cannot be read becomes a call carrying an ``error`` (not run; the loop
sends the error back as that call's result). That happens once per question: if the next reply cannot be
read either, it is taken as the answer, so a model that never learns the format cannot loop on it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ModelResponse,
    StopKind,
    ToolCall,
    UserTurn,
)
from analytics_agent.providers.base import Provider, TextSink, ToolPayloads
from analytics_agent.providers.openai.wire import IdMaker, conversation_call_ids
from analytics_agent.providers.text.prompt import text_conversation, tools_prompt
from analytics_agent.providers.text.protocol import CALL_OPEN, ParsedReply, parse_reply


class NoTools:
    """The empty ``ToolPayloads``: the wrapped provider sends a plain chat request."""

    def __len__(self) -> int:
        return 0

    def openai_tools(self, *, strict: bool = False) -> list[dict[str, Any]]:
        return []

    def bedrock_tool_config(self) -> dict[str, Any]:
        return {}


NO_TOOLS = NoTools()


class TextToolsProvider:
    """``inner`` with tools described in the prompt and calls read from the reply text.

    Args:
        inner: any provider (OpenAI-compatible, Bedrock, scripted).
        notice: told to the user with the first reply (e.g. why text mode was chosen).
    """

    def __init__(self, inner: Provider, *, notice: str = "") -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self._notice = notice

    def complete(
        self, conversation: Conversation, tools: ToolPayloads, *, on_text: TextSink | None = None
    ) -> ModelResponse:
        """Ask ``inner`` with the tools as text; return its reply with the calls it wrote as tool calls."""
        specs = tools.openai_tools() if len(tools) else []
        request = text_conversation(conversation, tools_prompt(specs))
        shown = CallTextFilter(on_text) if on_text is not None else None
        response = self.inner.complete(request, NO_TOOLS, on_text=shown.feed if shown else None)
        names = [spec["function"]["name"] for spec in specs]
        parsed = parse_reply(response.turn.text, names) if specs else ParsedReply(response.turn.text)
        if shown is not None and not parsed.calls:
            shown.flush()
        result = self._as_calls(response, parsed, conversation)
        if self._notice:
            result = replace(result, notice="; ".join(n for n in (result.notice, self._notice) if n))
            self._notice = ""
        return result

    def _as_calls(
        self, response: ModelResponse, parsed: ParsedReply, conversation: Conversation
    ) -> ModelResponse:
        if not parsed.calls or response.stop in ("filtered", "context_exceeded"):
            return response
        if all(call.error for call in parsed.calls) and _unreadable_already(conversation):
            return response  # told once already: this reply is the answer, whatever it holds
        ids = IdMaker(conversation_call_ids(conversation))
        calls = tuple(ToolCall(ids.take(None), c.name, c.arguments, error=c.error) for c in parsed.calls)
        turn = AssistantTurn(
            text=parsed.text, tool_calls=calls, extras=response.turn.extras, truncated=response.turn.truncated
        )
        stop: StopKind = "truncated" if response.stop == "truncated" else "tool_use"
        return ModelResponse(turn=turn, stop=stop, usage=response.usage, notice=response.notice)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()


def _unreadable_already(conversation: Conversation) -> bool:
    """Whether this question's last assistant turn held a call we could not read."""
    for message in reversed(conversation.messages):
        if isinstance(message, UserTurn):
            return False
        if isinstance(message, AssistantTurn):
            return any(call.error for call in message.tool_calls)
    return False


class CallTextFilter:
    """Passes streamed text on until a ``<tool_call>`` starts; what follows is the call, not for the user.

    Text that could still be the start of the marker is held back, and a reply that opens like bare JSON
    (a call written without the block) is held whole: ``flush`` releases it when no call was found.
    """

    def __init__(self, sink: TextSink) -> None:
        self.sink = sink
        self.held = ""
        self.stopped = False
        self.started = False

    def feed(self, piece: str) -> None:
        if self.stopped:
            return
        self.held += piece
        if not self.started:
            stripped = self.held.lstrip()
            if not stripped or stripped[0] in "{[`":
                return  # nothing yet, or maybe a bare or fenced JSON call: decided at the end
            self.started = True
        at = self.held.find(CALL_OPEN)
        if at >= 0:
            out, self.held, self.stopped = self.held[:at], "", True
        else:
            cut = len(self.held) - _partial_marker(self.held)
            out, self.held = self.held[:cut], self.held[cut:]
        if out:
            self.sink(out)

    def flush(self) -> None:
        """Release what was held back (the reply turned out to hold no call)."""
        if not self.stopped and self.held:
            self.sink(self.held)
        self.held = ""


def _partial_marker(text: str) -> int:
    """How many trailing characters of ``text`` could begin ``<tool_call>``."""
    for size in range(min(len(CALL_OPEN) - 1, len(text)), 0, -1):
        if CALL_OPEN.startswith(text[-size:]):
            return size
    return 0
