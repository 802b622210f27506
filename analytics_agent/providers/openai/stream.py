"""Pure assembly of a streamed OpenAI-compatible reply: SSE events in, text deltas out, then one response.

Kept apart from ``openai_wire`` only for size; the rules are the same (a tool turn iff calls exist,
``length`` → truncated). What real servers do that this tolerates (wire-shapes.md B.3, B.7):

* tool-call fragments are joined by ``index``; without an index a new id starts a new call and
  anything else continues the last one (Ollama, Gemini); fragments that share an index but carry
  different ids are different calls (Ollama's all-``index: 0`` parallel calls);
* id and name come on the first fragment only; a later ``"name": ""`` (LM Studio) changes nothing;
* keep-alives (``: comment`` lines, ``data: : keepalive``) are skipped; ``data: {"error": …}`` and
  ``event: error`` frames raise the server's message;
* usage arrives in a last chunk with ``choices: []``; ``[DONE]`` may be missing when a
  ``finish_reason`` came; a stream cut before either is a dropped connection, an error.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from analytics_agent.conversation import ModelResponse, ToolCall, Usage
from analytics_agent.errors import EmptyStreamError, ProviderConnectionError, ProviderResponseError
from analytics_agent.providers.http import parse_json, snippet
from analytics_agent.providers.limits import MAX_TOOL_CALLS_PER_REPLY, too_many_calls
from analytics_agent.providers.openai.sse import Event
from analytics_agent.providers.openai.wire import (
    CALL_EXTRAS,
    IdMaker,
    arguments_text,
    build_response,
    call_extra,
    content_text,
    error_from_payload,
    message_extra,
    parse_usage,
)

_JOINED_DETAIL_FIELDS = ("text", "summary", "data", "signature")


@dataclass
class _PartialCall:
    index: int | None
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)


class StreamAssembler:
    """Feed it events in order; each ``feed_event`` returns the text to show now; ``finish`` the result.

    Args:
        taken_ids: call ids already used in the conversation (generated ids avoid them).
        where: names the server in error messages.
    """

    def __init__(self, *, taken_ids: Collection[str] = (), where: str = "the server") -> None:
        self.taken_ids = taken_ids
        self.where = where
        self.events = 0
        self.done = False
        self.finish_reason: str | None = None
        self.usage = Usage(unreported=1)  # until a chunk carries the counts
        self._text: list[str] = []
        self._refusal: list[str] = []
        self._reasoning: list[str] | None = None
        self._details: list[dict[str, Any]] = []
        self._calls: list[_PartialCall] = []
        self._by_index: dict[int, _PartialCall] = {}  # the last call of each index: no scan per fragment

    @property
    def received(self) -> bool:
        """Whether any event arrived (after that, a failed stream must not be retried)."""
        return self.events > 0

    def feed_event(self, event: Event) -> str:
        """Take one SSE event; return its text delta ('' when it has none).

        Raises:
            ProviderError: the server reported an error in the stream.
            ProviderResponseError: the event is not JSON.
        """
        self.events += 1
        data = event.data.strip()
        if event.event == "error":
            payload = parse_json(data)
            if not isinstance(payload, dict):
                payload = {"error": {"message": snippet(data)}}
            raise error_from_payload(payload, where=self.where)
        if not data or data.startswith(":") or self.done:
            return ""
        if data == "[DONE]":
            self.done = True
            return ""
        payload = parse_json(data)
        if payload is not None:
            return self.feed_chunk(payload)
        # Non-conforming servers put several "data:" lines in one event, one JSON object per line.
        parts = [parse_json(line) for line in data.splitlines() if line.strip()]
        if len(parts) < 2 or any(part is None for part in parts):
            raise ProviderResponseError(f"{self.where} sent a stream event that is not JSON: {snippet(data)}")
        return "".join(self.feed_chunk(part) for part in parts)

    def feed_chunk(self, chunk: Any) -> str:
        """Take one parsed ``chat.completion.chunk``; return its text delta."""
        if not isinstance(chunk, dict):
            raise ProviderResponseError(f"{self.where} sent a stream chunk that is not an object")
        if chunk.get("error"):
            raise error_from_payload(chunk, where=self.where)
        if isinstance(chunk.get("usage"), dict):
            self.usage = parse_usage(chunk["usage"])
        text = ""
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) not in (0, None):
                continue  # we ask for one choice; others would be a server bug
            delta = choice.get("delta")
            if isinstance(delta, dict):
                text += self._delta(delta)
            reason = choice.get("finish_reason")
            if isinstance(reason, str) and reason:
                self.finish_reason = reason
        return text

    def finish(self) -> ModelResponse:
        """The assembled reply.

        Raises:
            ProviderResponseError: the stream carried no event at all.
            ProviderConnectionError: the stream stopped with neither a finish_reason nor [DONE]: a
                dropped connection, whose half a reply must not pass for the whole one.
        """
        if not self.events:
            raise EmptyStreamError(f"{self.where} closed the stream before sending anything")
        if self.finish_reason is None and not self.done:
            raise ProviderConnectionError(
                f"the stream from {self.where} stopped before the reply was complete (no finish_reason "
                "or [DONE]); the connection may have dropped, so try again"
            )
        ids = IdMaker(self.taken_ids)
        calls: list[ToolCall] = []
        extras = [message_extra("reasoning_content", "".join(self._reasoning))] if self._reasoning else []
        if self._details:
            extras.append(message_extra("reasoning_details", self._details))
        for partial in self._calls:
            call = ToolCall(ids.take(partial.id), partial.name, "".join(partial.arguments))
            calls.append(call)
            extras.extend(call_extra(call.id, key, value) for key, value in partial.extras.items())
        return build_response(
            text="".join(self._text),
            calls=calls,
            extras=tuple(extras),
            finish_reason=self.finish_reason,
            usage=self.usage,
            refusal="".join(self._refusal),
        )

    # --- deltas ----------------------------------------------------------------------------------

    def _delta(self, delta: dict[str, Any]) -> str:
        if isinstance(delta.get("refusal"), str):
            self._refusal.append(delta["refusal"])
        if isinstance(delta.get("reasoning_content"), str):
            self._reasoning = [*(self._reasoning or []), delta["reasoning_content"]]
        if isinstance(delta.get("reasoning_details"), list):
            self._merge_details(delta["reasoning_details"])
        fragments = delta.get("tool_calls")
        if isinstance(fragments, list):
            for fragment in fragments:
                if isinstance(fragment, dict):
                    self._fragment(fragment)
        text = content_text(delta.get("content"))
        if text:
            self._text.append(text)
        return text

    def _fragment(self, fragment: dict[str, Any]) -> None:
        index = index_ if isinstance(index_ := fragment.get("index"), int) else None
        new_id = id_ if isinstance(id_ := fragment.get("id"), str) else ""
        call = self._call_for(index, new_id)
        if new_id and not call.id:
            call.id = new_id
        function = given if isinstance(given := fragment.get("function"), dict) else {}
        name = function.get("name")
        if isinstance(name, str) and name and not call.name:
            call.name = name
        arguments = function.get("arguments")
        if arguments is not None:
            call.arguments.append(arguments_text(arguments))
        for key in CALL_EXTRAS:
            if fragment.get(key):
                call.extras[key] = fragment[key]

    def _call_for(self, index: int | None, new_id: str) -> _PartialCall:
        """The call a fragment continues, or a new one."""
        if index is not None:
            last = self._by_index.get(index)
            if last is not None and not (new_id and last.id and last.id != new_id):
                return last
        elif self._calls and not (new_id and self._calls[-1].id and self._calls[-1].id != new_id):
            return self._calls[-1]
        if len(self._calls) >= MAX_TOOL_CALLS_PER_REPLY:
            raise too_many_calls(self.where)
        call = _PartialCall(index=index)
        self._calls.append(call)
        if index is not None:
            self._by_index[index] = call
        return call

    def _merge_details(self, items: list[Any]) -> None:
        """OpenRouter-style ``reasoning_details`` fragments, joined per ``index``."""
        for item in items:
            if not isinstance(item, dict):
                continue
            index = item.get("index")
            target = next((d for d in self._details if index is not None and d.get("index") == index), None)
            if target is None:
                self._details.append(dict(item))
                continue
            for key, value in item.items():
                if (
                    key in _JOINED_DETAIL_FIELDS
                    and isinstance(value, str)
                    and isinstance(target.get(key), str)
                ):
                    target[key] += value
                elif value not in (None, ""):
                    target[key] = value
