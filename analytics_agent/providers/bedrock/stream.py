"""Assemble ConverseStream events into text deltas and one ``ModelResponse``. Pure: events in, values out.

Rules the assembler follows (see the reference notes on ConverseStream):

* blocks are keyed by ``contentBlockIndex``, never by arrival order: text may follow a tool block;
* text and reasoning blocks get no ``contentBlockStart``; a delta for an unseen index opens the block;
* ``toolUse.input`` arrives as string fragments, parsed once when the stream is complete (empty → ``{}``;
  text that does not parse is kept raw, so the executor can tell the model its call was broken);
* reasoning deltas (``text``, ``signature``, ``redactedContent``) assemble into one ``reasoningContent``
  block, replayed later exactly as the non-streaming API would have returned it;
* ``stopReason`` comes from ``messageStop``, usage only from the final ``metadata`` event;
* a leading ``<thinking>…</thinking>`` in a text block (Nova) is not passed on live, as it is not part
  of the answer kept at the end.

The result is rebuilt as a ``ConverseResponse`` dict and parsed by ``bedrock_wire.parse_response``, so
streaming and non-streaming replies obey the same rules.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from analytics_agent.conversation import ModelResponse
from analytics_agent.errors import ProviderResponseError
from analytics_agent.providers.bedrock.wire import parse_response
from analytics_agent.providers.limits import MAX_TOOL_CALLS_PER_REPLY, too_many_calls

log = logging.getLogger(__name__)


_OPEN, _CLOSE = "<thinking>", "</thinking>"
_MAX_BLOCKS = 4 * MAX_TOOL_CALLS_PER_REPLY
"""Text and reasoning blocks beside the calls; far more than any real reply holds."""


class _ThinkingFilter:
    """Holds back a leading ``<thinking>…</thinking>`` (and the blank space after it) from live text.

    Mirrors ``bedrock_wire.split_thinking``, so what the user watched equals the answer kept at the end.
    """

    def __init__(self) -> None:
        self.state = "start"  # start → inside → after → pass, or start → pass
        self.held = ""

    def feed(self, piece: str) -> str:
        if self.state == "pass":
            return piece
        self.held += piece
        if self.state == "start":
            head = self.held.lstrip()
            if _OPEN.startswith(head):  # still could be the opening tag (or only blank so far)
                return ""
            self.state = "inside" if head.startswith(_OPEN) else "pass"
            if self.state == "pass":
                return self._release()
        if self.state == "inside":
            end = self.held.find(_CLOSE)
            if end < 0:
                return ""
            self.held, self.state = self.held[end + len(_CLOSE) :], "after"
        self.held = self.held.lstrip()
        if not self.held:
            return ""
        self.state = "pass"
        return self._release()

    def flush(self) -> str:
        """At the block's end: text held back that turned out not to be a closed thinking section."""
        return self._release() if self.state in ("start", "inside") else ""

    def _release(self) -> str:
        text, self.held = self.held, ""
        return text


@dataclass
class _Block:
    kind: str = ""  # "text", "toolUse", "reasoning", or "" until the first delta says
    text: list[str] = field(default_factory=list)
    signature: str = ""
    redacted: bytes = b""
    tool: dict[str, Any] = field(default_factory=dict)
    other: dict[str, Any] | None = None
    live: _ThinkingFilter = field(default_factory=_ThinkingFilter)

    def as_content(self) -> dict[str, Any] | None:
        if self.kind == "text":
            return {"text": "".join(self.text)}
        if self.kind == "toolUse":
            return {"toolUse": {**self.tool, "input": _parse_input("".join(self.text))}}
        if self.kind == "reasoning":
            if self.redacted:
                return {"reasoningContent": {"redactedContent": self.redacted}}
            reasoning: dict[str, Any] = {"text": "".join(self.text)}
            if self.signature:
                reasoning["signature"] = self.signature
            return {"reasoningContent": {"reasoningText": reasoning}}
        return self.other


def _parse_input(text: str) -> Any:
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except ValueError:
        return text  # half-written (max_tokens) or broken: the raw text goes to the executor


class StreamAssembler:
    """Feed it the event dicts ``converse_stream`` yields; read the reply from ``finish()``."""

    def __init__(self) -> None:
        self._blocks: dict[int, _Block] = {}
        self._stop_reason: str | None = None
        self._usage: dict[str, Any] = {}
        self._tool_blocks = 0

    def feed(self, event: dict[str, Any]) -> str:
        """Take one event; return the text it adds to the answer ('' if none)."""
        for key, payload in event.items():
            handler = getattr(self, f"_on_{key}", None)
            if handler is None:
                log.info("ignored a ConverseStream event we do not use: %s", key)
                continue
            text: str = handler(payload)
            if text:
                return text
        return ""

    def finish(self) -> ModelResponse:
        """The assembled reply; raises ``ProviderResponseError`` if the stream ended before ``messageStop``."""
        if self._stop_reason is None:
            raise ProviderResponseError("the Bedrock stream ended before the reply was complete; try again")
        content = [c for _, block in sorted(self._blocks.items()) if (c := block.as_content())]
        return parse_response(
            {
                "output": {"message": {"role": "assistant", "content": content}},
                "stopReason": self._stop_reason,
                "usage": self._usage,
            }
        )

    def _block(self, payload: dict[str, Any]) -> _Block:
        index = int(payload.get("contentBlockIndex", 0))
        block = self._blocks.get(index)
        if block is None:
            if len(self._blocks) >= _MAX_BLOCKS:
                raise ProviderResponseError(
                    f"Bedrock sent more than {_MAX_BLOCKS} content blocks in one reply, so it was dropped"
                )
            block = self._blocks[index] = _Block()
        return block

    def _on_messageStart(self, payload: dict[str, Any]) -> str:
        return ""

    def _on_contentBlockStart(self, payload: dict[str, Any]) -> str:
        block = self._block(payload)
        start = payload.get("start") or {}
        if "toolUse" in start:
            if block.kind != "toolUse":
                self._tool_blocks += 1
                if self._tool_blocks > MAX_TOOL_CALLS_PER_REPLY:
                    raise too_many_calls("Bedrock")  # at once, not after reading the rest of the stream
            block.kind = "toolUse"
            block.tool = {k: v for k, v in start["toolUse"].items() if k != "input"}
        else:
            log.warning("ignored a streamed content block we cannot use: %s", ", ".join(start) or "empty")
            block.kind = "ignored"
        return ""

    def _on_contentBlockDelta(self, payload: dict[str, Any]) -> str:
        block = self._block(payload)
        delta = payload.get("delta") or {}
        if "text" in delta and block.kind in ("", "text"):
            block.kind = "text"
            block.text.append(delta["text"])
            return block.live.feed(delta["text"])
        if "toolUse" in delta and block.kind == "toolUse":
            block.text.append(delta["toolUse"].get("input") or "")
        elif "reasoningContent" in delta and block.kind in ("", "reasoning"):
            block.kind = "reasoning"
            reasoning = delta["reasoningContent"]
            block.text.append(reasoning.get("text", ""))
            block.signature += reasoning.get("signature", "")
            block.redacted += reasoning.get("redactedContent", b"")
        else:
            log.info("ignored a ConverseStream delta: %s", ", ".join(delta) or "empty")
        return ""

    def _on_contentBlockStop(self, payload: dict[str, Any]) -> str:
        block = self._block(payload)
        return block.live.flush() if block.kind == "text" else ""

    def _on_messageStop(self, payload: dict[str, Any]) -> str:
        self._stop_reason = str(payload.get("stopReason") or "")
        return ""

    def _on_metadata(self, payload: dict[str, Any]) -> str:
        self._usage = payload.get("usage") or {}
        return ""
