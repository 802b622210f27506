"""Pure mapping between the neutral conversation and OpenAI-compatible ``/chat/completions`` bodies.

No I/O here. Rules (wire-shapes.md part B):

* system text first; each ``AssistantTurn`` goes back verbatim: ``content`` ``""`` when empty (null is
  rejected by llama-cpp-python, LM Studio and some Ollama paths, an omitted one by older llama.cpp:
  docs/portable-schemas.md), its tool calls with ids and JSON-string arguments, and the fields some
  servers need replayed (``reasoning_content`` for DeepSeek, ``reasoning_details`` for OpenRouter-style
  signed reasoning);
* every call id is answered by exactly one ``role: "tool"`` message with string content;
* a reply is a tool turn iff it carries tool calls, whatever ``finish_reason`` says; ``length`` means
  truncated (calls may be half-written), ``content_filter`` means filtered;
* a missing, empty or repeated call id is replaced by a generated one, unique in the conversation,
  and that id is what the turn keeps (so the tool message answers it);
* arguments sent as an object are serialised to JSON text.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ModelResponse,
    StopKind,
    ToolCall,
    ToolResults,
    Usage,
    UserTurn,
)
from analytics_agent.errors import ProviderError, ProviderResponseError
from analytics_agent.providers.base import ToolPayloads
from analytics_agent.providers.http import error_code, server_message, status_error

MESSAGE_EXTRAS = ("reasoning_content", "reasoning_details")
"""Assistant-message fields replayed as received. Not ``reasoning``: Groq rejects it in requests."""
CALL_EXTRAS = ("extra_content",)
"""Per-call fields replayed as received (Gemini puts thought signatures there)."""
PROVIDER_TAG = "openai"
"""``extras`` entries this module writes carry ``{"provider": "openai"}`` so other providers skip them:
``{"provider", "field", "value"}`` for a message field, plus ``"call_id"`` for a per-call field."""


DEFAULT_MAX_TOKENS = 4096
"""Output tokens per reply when none is configured: a tool call or an analytics answer fits many times
over, and a runaway local generation ends in minutes, not the 6,157 tokens (553 s) seen without one."""
_COMPLETION_TOKENS_HOSTS = ("api.openai.com", "openai.azure.com")


def max_tokens_field_for(url: str) -> str:
    """The output-cap field a server reads: OpenAI's own API wants ``max_completion_tokens`` (its
    reasoning models refuse ``max_tokens``); llama-cpp-python, Ollama, LM Studio and OpenRouter read only
    ``max_tokens`` and silently ignore the newer name; vLLM and llama.cpp read both."""
    from urllib.parse import urlsplit

    host = (urlsplit(url).hostname or "").lower()
    if any(host == h or host.endswith("." + h) for h in _COMPLETION_TOKENS_HOSTS):
        return "max_completion_tokens"
    return "max_tokens"


@dataclass(frozen=True)
class RequestOptions:
    """Optional request settings; ``None`` leaves the server's default."""

    max_tokens: int | None = None
    max_tokens_field: str = "max_tokens"
    """``max_completion_tokens`` for OpenAI's own API (``max_tokens_field_for``)."""
    temperature: float | None = None
    parallel_tool_calls: bool | None = None
    strict_tools: bool = False
    tool_choice: str = "auto"
    extra_body: dict[str, Any] = field(default_factory=dict)


# --- request -------------------------------------------------------------------------------------


def render_request(
    model: str,
    conversation: Conversation,
    tools: ToolPayloads,
    *,
    stream: bool = False,
    options: RequestOptions | None = None,
) -> dict[str, Any]:
    """The JSON body of one ``POST /chat/completions``.

    Raises:
        ProviderError: the conversation breaks the tool-call invariants (a bug in the caller).
    """
    options = options or RequestOptions()
    body: dict[str, Any] = {"model": model, "messages": render_messages(conversation)}
    specs = tools.openai_tools(strict=options.strict_tools)
    if specs:
        body["tools"] = specs
        body["tool_choice"] = options.tool_choice
        if options.parallel_tool_calls is not None:
            body["parallel_tool_calls"] = options.parallel_tool_calls
    if options.max_tokens is not None:
        body[options.max_tokens_field] = options.max_tokens
    if options.temperature is not None:
        body["temperature"] = options.temperature
    body["stream"] = stream
    if stream:
        body["stream_options"] = {"include_usage": True}
    body.update(options.extra_body)
    return body


def render_messages(conversation: Conversation) -> list[dict[str, Any]]:
    """The ``messages`` array, after checking every call is answered exactly once."""
    messages: list[dict[str, Any]] = []
    if conversation.system:
        messages.append({"role": "system", "content": conversation.system})
    pending: list[str] = []
    for message in conversation.messages:
        if pending and not isinstance(message, ToolResults):
            raise ProviderError(
                f"internal: tool calls {', '.join(pending)} have no result before the next turn"
            )
        if isinstance(message, UserTurn):
            messages.append({"role": "user", "content": message.text})
        elif isinstance(message, AssistantTurn):
            messages.append(render_assistant(message))
            pending = [call.id for call in message.tool_calls]
        elif isinstance(message, ToolResults):
            messages.extend(_render_results(message, pending))
            pending = []
        else:
            raise ProviderError(f"internal: unknown message type {type(message).__name__}")
    return messages


def render_assistant(turn: AssistantTurn) -> dict[str, Any]:
    """One assistant message, with its tool calls and replayed extras."""
    message: dict[str, Any] = {"role": "assistant", "content": turn.text}
    call_extras: dict[str, dict[str, Any]] = {}
    for extra in turn.extras:
        if extra.get("provider") != PROVIDER_TAG:
            continue
        if "call_id" in extra and extra.get("field") in CALL_EXTRAS:
            call_extras.setdefault(extra["call_id"], {})[extra["field"]] = extra.get("value")
        elif "call_id" not in extra and extra.get("field") in MESSAGE_EXTRAS:
            message[extra["field"]] = extra.get("value")
    if turn.tool_calls:
        message["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {
                    "name": call.name,
                    "arguments": call.arguments if call.arguments.strip() else "{}",
                },
                **call_extras.get(call.id, {}),
            }
            for call in turn.tool_calls
        ]
    return message


def _render_results(results: ToolResults, pending: list[str]) -> list[dict[str, Any]]:
    by_id = {}
    for result in results.results:
        if result.call_id not in pending or result.call_id in by_id:
            raise ProviderError(f"internal: tool result {result.call_id!r} answers no open call, or twice")
        by_id[result.call_id] = result
    missing = [call_id for call_id in pending if call_id not in by_id]
    if missing:
        raise ProviderError(f"internal: tool calls {', '.join(missing)} have no result")
    return [
        {"role": "tool", "tool_call_id": call_id, "content": str(by_id[call_id].content)}
        for call_id in pending
    ]


def conversation_call_ids(conversation: Conversation) -> set[str]:
    """Every tool-call id already used, so generated ones never collide."""
    return {call.id for m in conversation.messages if isinstance(m, AssistantTurn) for call in m.tool_calls}


# --- response ------------------------------------------------------------------------------------


def parse_response(body: Any, *, taken_ids: Collection[str] = (), where: str = "the server") -> ModelResponse:
    """A non-streamed ``chat.completion`` body → ``ModelResponse``.

    Raises:
        ProviderError: the body is an error object.
        ProviderResponseError: the body has no usable choice.
    """
    if isinstance(body, dict) and body.get("error"):
        raise error_from_payload(body, where=where)
    if not isinstance(body, dict):
        raise ProviderResponseError(
            f"server answered with {type(body).__name__}, not a chat completion object"
        )
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ProviderResponseError(
            "server returned no choices (empty 'choices'); the model produced nothing"
        )
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise ProviderResponseError("server returned a choice without a 'message' object")
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ProviderResponseError("server returned 'tool_calls' that is not a list")
    calls, call_extras = _parse_calls(raw_calls, taken_ids)
    extras = [message_extra(key, message[key]) for key in MESSAGE_EXTRAS if message.get(key) is not None]
    return build_response(
        text=content_text(message.get("content")),
        calls=calls,
        extras=tuple(extras) + call_extras,
        finish_reason=choice.get("finish_reason"),
        usage=parse_usage(body.get("usage")),
        refusal=refusal if isinstance(refusal := message.get("refusal"), str) else "",
    )


def _parse_calls(
    raw_calls: list[Any], taken_ids: Collection[str]
) -> tuple[list[ToolCall], tuple[dict[str, Any], ...]]:
    ids = IdMaker(taken_ids)
    calls: list[ToolCall] = []
    extras: list[dict[str, Any]] = []
    for raw in raw_calls:
        if not isinstance(raw, dict):
            raise ProviderResponseError("server returned a tool call that is not an object")
        if raw.get("type") not in (None, "", "function"):
            raise ProviderResponseError(
                f"server returned a tool call of type {raw.get('type')!r}; only functions are supported"
            )
        function = given if isinstance(given := raw.get("function"), dict) else {}
        call = ToolCall(
            id=ids.take(raw.get("id")),
            name=str(function.get("name") or ""),
            arguments=arguments_text(function.get("arguments")),
        )
        calls.append(call)
        extras.extend(call_extra(call.id, key, raw[key]) for key in CALL_EXTRAS if raw.get(key))
    return calls, tuple(extras)


def message_extra(name: str, value: Any) -> dict[str, Any]:
    """An ``AssistantTurn.extras`` entry replaying one assistant-message field."""
    return {"provider": PROVIDER_TAG, "field": name, "value": value}


def call_extra(call_id: str, name: str, value: Any) -> dict[str, Any]:
    """An ``AssistantTurn.extras`` entry replaying one field of the tool call ``call_id``."""
    return {"provider": PROVIDER_TAG, "call_id": call_id, "field": name, "value": value}


class IdMaker:
    """Keeps the server's ids; replaces a missing, empty or repeated one with ``call00001``-style ids.

    Nine alphanumerics on purpose: Mistral chat templates (llama.cpp) reject any other id shape.
    """

    def __init__(self, taken: Collection[str]) -> None:
        self.taken = set(taken)
        self.used: set[str] = set()
        self.counter = 0

    def take(self, wanted: Any) -> str:
        if isinstance(wanted, str) and wanted and wanted not in self.used:
            self.used.add(wanted)
            return wanted
        while True:
            self.counter += 1
            candidate = f"call{self.counter:05d}"
            if candidate not in self.taken and candidate not in self.used:
                self.used.add(candidate)
                return candidate


def arguments_text(value: Any) -> str:
    """Arguments as JSON text: strings as sent, objects serialised, nothing as empty text."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def content_text(content: Any) -> str:
    """Message content as text: a string, or the text parts of a content-part list."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") in ("text", "output_text"):
                parts.append(str(part.get("text") or ""))
            elif not (isinstance(part, dict) and part.get("type") == "refusal"):
                kind = part.get("type") if isinstance(part, dict) else type(part).__name__
                raise ProviderResponseError(
                    f"server returned a content part of type {kind!r}, which is not text"
                )
        return "".join(parts)
    raise ProviderResponseError(f"server returned content of type {type(content).__name__}")


def parse_usage(usage: Any) -> Usage:
    """Token counts; absent or malformed fields count as zero, and no ``usage`` object at all is marked
    as not reported."""
    if not isinstance(usage, dict):
        return Usage(unreported=1)
    details = usage.get("prompt_tokens_details")
    details = details if isinstance(details, dict) else {}
    return Usage(
        input_tokens=_int(usage.get("prompt_tokens")),
        output_tokens=_int(usage.get("completion_tokens")),
        cache_read_tokens=_int(details.get("cached_tokens")),
        cache_write_tokens=_int(details.get("cache_write_tokens")),
    )


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def build_response(
    *,
    text: str,
    calls: list[ToolCall],
    extras: tuple[dict[str, Any], ...],
    finish_reason: Any,
    usage: Usage,
    refusal: str = "",
) -> ModelResponse:
    """Decide the stop kind from the assembled message (not from ``finish_reason`` alone)."""
    truncated = finish_reason == "length"
    stop: StopKind = "tool_use" if calls else "answer"
    notice = ""
    if truncated:
        stop = "truncated"
        notice = "the model ran out of output tokens"
    elif finish_reason == "content_filter" or refusal:
        stop = "filtered"
        notice = (
            f"the model refused: {refusal}" if refusal else "the server's content filter stopped the reply"
        )
    turn = AssistantTurn(
        text=text or ("" if calls else refusal), tool_calls=tuple(calls), extras=extras, truncated=truncated
    )
    return ModelResponse(turn=turn, stop=stop, usage=usage, notice=notice)


def error_from_payload(
    payload: dict[str, Any], *, status: int | None = None, where: str = "the server"
) -> ProviderError:
    """An error object found in a 200 body or in a stream → ``ProviderError`` with the server's words."""
    inner = payload.get("error")
    if status is None and isinstance(inner, dict):
        for key in ("status_code", "status", "code"):
            if isinstance(inner.get(key), int):
                status = inner[key]
                break
    if status is not None and status >= 400:
        return status_error(status, payload, "", where=where)
    message = server_message(payload, json.dumps(payload))
    return ProviderError(f"{where} reported an error: {message}", code=error_code(payload))
