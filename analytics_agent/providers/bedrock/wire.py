"""Bedrock Converse wire format: pure mapping between the neutral conversation and request/response dicts.

No I/O and no boto3 here: dicts in, dicts out, so every rule below is tested without a client.

Request rules (Bedrock enforces them server-side; botocore checks none of them):

* the system prompt goes in the top-level ``system`` list, never in ``messages``;
* roles alternate user/assistant, the first and last message are ``user``; adjacent same-role turns
  merge into one message (tool results first, so Claude finds them at the start of the message);
* an assistant tool call becomes ``toolUse {toolUseId, name, input}`` with ``input`` an object (arguments
  that are not a JSON object become ``{}``; the loop's tool result tells the model what was wrong);
* all results of one assistant turn go in ONE user message, exactly one ``toolResult`` per ``toolUse``, in
  call order; a missing result is filled with an error, a result with no call is dropped;
* ``toolResult.content`` is ``[{"json": {...}}]`` only for a JSON object (without a ``__type`` key
  anywhere), otherwise ``[{"text": ...}]``, never empty; errors carry ``status: "error"``;
* no blank text blocks and no empty messages;
* ``toolConfig`` goes with every request when tools exist; when history holds tool blocks but no tools
  exist (``toolConfig`` needs at least one tool), tool blocks are written out as plain text instead;
* tool names and ids that break Bedrock's patterns are rewritten by one deterministic function, so a
  ``toolUse`` and its ``toolResult`` always agree;
* provider blocks kept in ``AssistantTurn.extras`` (``reasoningContent`` with its signature, server-side
  tool blocks) are replayed unmodified, in their original place relative to text and tool calls.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    Message,
    ModelResponse,
    StopKind,
    ToolCall,
    ToolResult,
    ToolResults,
    Usage,
    UserTurn,
)
from analytics_agent.errors import ProviderResponseError

log = logging.getLogger(__name__)

PROVIDER_TAG = "bedrock"
"""``extras`` entries this module writes carry ``{"provider": "bedrock"}`` so other providers skip them."""

TOOL_NAME_RE = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_ID_RE = re.compile(r"^[a-zA-Z0-9_.:-]{1,64}$")
_THINKING = re.compile(r"\s*<thinking>.*?</thinking>\s*", re.DOTALL)
_NAME_BAD = re.compile(r"[^a-zA-Z0-9_-]")
_ID_BAD = re.compile(r"[^a-zA-Z0-9_.:-]")

# Blocks an assistant message may carry besides text/toolUse that are safe to send back as they came.
_REPLAYABLE = frozenset({"reasoningContent", "citationsContent", "toolResult"})

_STOP_KINDS: dict[str, StopKind] = {
    "end_turn": "answer",
    "stop_sequence": "answer",
    "tool_use": "tool_use",
    "max_tokens": "truncated",
    "guardrail_intervened": "filtered",
    "content_filtered": "filtered",
    "malformed_tool_use": "malformed",
    "malformed_model_output": "malformed",
    "model_context_window_exceeded": "context_exceeded",
}
_NOTICES: dict[StopKind, str] = {
    "truncated": "the model reached its output token limit; the reply was cut off",
    "filtered": "a Bedrock guardrail or content filter stopped the reply",
    "malformed": "the model produced a malformed reply or tool call",
    "context_exceeded": "the conversation no longer fits the model's context window",
}


# --------------------------------------------------------------------------- names and ids


def safe_tool_name(name: str) -> str:
    """``name`` if Bedrock accepts it, else a stable rewrite matching ``[a-zA-Z0-9_-]{1,64}``."""
    return _make_safe(name, TOOL_NAME_RE, _NAME_BAD, fallback="tool")


def safe_tool_id(call_id: str) -> str:
    """``call_id`` if Bedrock accepts it, else a stable rewrite matching ``[a-zA-Z0-9_.:-]{1,64}``."""
    return _make_safe(call_id, TOOL_ID_RE, _ID_BAD, fallback="tooluse")


def _make_safe(value: str, valid: re.Pattern[str], bad: re.Pattern[str], *, fallback: str) -> str:
    if valid.match(value):
        return value
    # A hash of the original keeps two different bad values from colliding after the rewrite.
    digest = hashlib.sha256(value.encode("utf-8")).hexdigest()[:10]
    stem = bad.sub("_", value)[:53] or fallback
    return f"{stem}_{digest}"


# --------------------------------------------------------------------------- request


def build_request(
    conversation: Conversation,
    *,
    model: str,
    tool_config: dict[str, Any] | None,
    inference: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The keyword arguments of ``converse``/``converse_stream`` for this conversation.

    Args:
        conversation: the neutral history; its last message should be the user's (or tool results).
        model: model id, inference profile id or ARN.
        tool_config: ``ToolPayloads.bedrock_tool_config()``; ``None`` or no tools means no tools.
        inference: an ``inferenceConfig`` dict (maxTokens, temperature, ...), sent when non-empty.
    """
    has_tools = bool(tool_config and tool_config.get("tools"))
    messages = map_messages(conversation.messages, tools_available=has_tools)
    request: dict[str, Any] = {"modelId": model, "messages": messages}
    if conversation.system.strip():
        request["system"] = [{"text": conversation.system}]
    if has_tools:
        request["toolConfig"] = tool_config
    if inference:
        request["inferenceConfig"] = inference
    return request


def map_messages(messages: Sequence[Message], *, tools_available: bool = True) -> list[dict[str, Any]]:
    """Neutral messages → alternating Bedrock messages that start and end with ``user``."""
    wire: list[dict[str, Any]] = []
    pending_calls: tuple[ToolCall, ...] = ()
    for message in messages:
        if pending_calls and not isinstance(message, ToolResults):
            # The previous turn's calls got no results at all: answer them so the history stays valid.
            _append(wire, "user", result_blocks(pending_calls, ()))
            pending_calls = ()
        if isinstance(message, UserTurn):
            _append(wire, "user", _text_blocks(message.text))
        elif isinstance(message, AssistantTurn):
            _append(wire, "assistant", assistant_blocks(message))
            pending_calls = message.tool_calls
        elif isinstance(message, ToolResults):
            _append(wire, "user", result_blocks(pending_calls, message.results))
            pending_calls = ()
        else:
            raise TypeError(f"not a conversation message: {type(message).__name__}")
    if pending_calls:
        _append(wire, "user", result_blocks(pending_calls, ()))
    if not tools_available:
        wire = [_flatten_tool_blocks(m) for m in wire]
    return _bracket_with_user(wire)


def _append(wire: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    if not blocks:
        return
    if wire and wire[-1]["role"] == role:
        merged = wire[-1]["content"] + blocks
        # Claude wants the tool results at the start of a user message.
        merged.sort(key=lambda b: 0 if "toolResult" in b else 1)
        wire[-1]["content"] = merged
    else:
        wire.append({"role": role, "content": blocks})


def _bracket_with_user(wire: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not wire or wire[0]["role"] != "user":
        wire.insert(0, {"role": "user", "content": [{"text": "(conversation start)"}]})
    if wire[-1]["role"] != "user":
        wire.append({"role": "user", "content": [{"text": "Please continue."}]})
    return wire


def _text_blocks(text: str) -> list[dict[str, Any]]:
    return [{"text": text}] if text.strip() else []


def assistant_blocks(turn: AssistantTurn) -> list[dict[str, Any]]:
    """Text, then tool calls, with replayable extras put back where they were in the model's reply."""
    blocks = _text_blocks(turn.text) + [tool_use_block(call) for call in turn.tool_calls]
    extras = [
        e for e in turn.extras if e.get("provider") == PROVIDER_TAG and isinstance(e.get("block"), dict)
    ]
    # Anchors count the rebuilt text/toolUse blocks; each extra already inserted shifts the later ones by one.
    for inserted, extra in enumerate(sorted(extras, key=lambda e: int(e.get("anchor", 0)))):
        anchor = min(max(int(extra.get("anchor", 0)), 0), len(blocks) - inserted)
        blocks.insert(anchor + inserted, extra["block"])
    return blocks


def tool_use_block(call: ToolCall) -> dict[str, Any]:
    arguments = call.parsed_arguments
    return {
        "toolUse": {
            "toolUseId": safe_tool_id(call.id),
            "name": safe_tool_name(call.name),
            "input": arguments if arguments is not None else {},
        }
    }


def result_blocks(calls: Sequence[ToolCall], results: Iterable[ToolResult]) -> list[dict[str, Any]]:
    """Exactly one ``toolResult`` per call, in call order."""
    by_id: dict[str, ToolResult] = {}
    for result in results:
        by_id.setdefault(result.call_id, result)
    for extra in by_id.keys() - {c.id for c in calls}:
        log.warning("dropped a tool result for %r: no such call in the previous turn", extra)
    blocks = []
    for call in calls:
        result = by_id.get(call.id) or ToolResult(
            call.id, f"Error: no result was recorded for this {call.name} call", is_error=True
        )
        blocks.append({"toolResult": tool_result_payload(safe_tool_id(call.id), result)})
    return blocks


def tool_result_payload(tool_use_id: str, result: ToolResult) -> dict[str, Any]:
    return {
        "toolUseId": tool_use_id,
        "content": [result_content(result.content, is_error=result.is_error)],
        "status": "error" if result.is_error else "success",
    }


def result_content(text: str, *, is_error: bool = False) -> dict[str, Any]:
    """``{"json": obj}`` for a JSON object Bedrock accepts, else ``{"text": ...}``, never blank."""
    value = _json_object(text)
    if value is not None:
        return {"json": value}
    if text.strip():
        return {"text": text}
    return {"text": "Error: the tool failed without a message" if is_error else "(no output)"}


def _json_object(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except ValueError:
        return None
    if not isinstance(value, dict) or _has_key(value, "__type"):
        return None
    return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")  # NaN/Infinity would not survive the trip to the server


def _has_key(value: Any, key: str) -> bool:
    if isinstance(value, dict):
        return key in value or any(_has_key(v, key) for v in value.values())
    if isinstance(value, list):
        return any(_has_key(v, key) for v in value)
    return False


def _flatten_tool_blocks(message: dict[str, Any]) -> dict[str, Any]:
    """Tool blocks as text, for a request that cannot carry ``toolConfig`` (no tools exist)."""
    content = []
    for block in message["content"]:
        if "toolUse" in block:
            use = block["toolUse"]
            content.append({"text": f"[called {use['name']} with {json.dumps(use['input'])}]"})
        elif "toolResult" in block:
            result = block["toolResult"]
            body = result["content"][0]
            shown = body["text"] if "text" in body else json.dumps(body["json"])
            content.append({"text": f"[{result.get('status', 'success')}: {shown}]"})
        else:
            content.append(block)
    return {"role": message["role"], "content": content}


# --------------------------------------------------------------------------- response


def parse_response(response: dict[str, Any]) -> ModelResponse:
    """A ``ConverseResponse`` dict → the neutral reply (turn, stop kind, usage, notice)."""
    try:
        content = response["output"]["message"]["content"]
    except (KeyError, TypeError):
        raise ProviderResponseError("Bedrock returned a reply without output.message.content") from None
    turn = parse_content(content)
    stop = stop_kind(response.get("stopReason"), has_tool_calls=bool(turn.tool_calls))
    if stop == "truncated":
        turn = AssistantTurn(turn.text, turn.tool_calls, turn.extras, truncated=True)
    return ModelResponse(
        turn=turn,
        stop=stop,
        usage=parse_usage(response.get("usage") or {}),
        notice=_NOTICES.get(stop, ""),
    )


def parse_content(content: Sequence[dict[str, Any]]) -> AssistantTurn:
    """Assistant content blocks → ``AssistantTurn``; extras remember where they sat (``anchor``)."""
    texts: list[str] = []
    calls: list[ToolCall] = []
    extras: list[dict[str, Any]] = []
    for block in content:
        kind = next(iter(block), None) if isinstance(block, dict) and len(block) == 1 else None
        if kind == "text" and isinstance(block["text"], str):
            thinking, answer = split_thinking(block["text"])
            if thinking:  # replayed as it came; the user reads only the answer
                anchor = (1 if any(t.strip() for t in texts) else 0) + len(calls)
                extras.append({"provider": PROVIDER_TAG, "anchor": anchor, "block": {"text": thinking}})
            texts.append(answer)
        elif kind == "toolUse" and block["toolUse"].get("type", "tool_use") == "tool_use":
            calls.append(_tool_call(block["toolUse"], len(calls)))
        elif kind in _REPLAYABLE or kind == "toolUse":  # toolUse here: a server-side tool, not ours to run
            # Anchor = how many of the rebuilt text/toolUse blocks precede this one (text counts once).
            anchor = (1 if any(t.strip() for t in texts) else 0) + len(calls)
            extras.append({"provider": PROVIDER_TAG, "anchor": anchor, "block": block})
        else:
            log.warning("dropped an assistant content block Bedrock sent that we cannot use: %s", kind)
    return AssistantTurn(text="".join(texts), tool_calls=_unique_ids(calls), extras=tuple(extras))


def split_thinking(text: str) -> tuple[str, str]:
    """``(thinking, answer)``: a leading ``<thinking>…</thinking>`` (Nova's visible reasoning) split off.

    The two parts concatenate back to ``text``, so replaying both keeps the model's words unchanged.
    """
    match = _THINKING.match(text)
    if match is None:
        return "", text
    return text[: match.end()], text[match.end() :]


def _tool_call(use: dict[str, Any], index: int) -> ToolCall:
    raw = use.get("input")
    # A streamed input that did not parse arrives as its raw text: keep it so the executor can say why.
    arguments = raw if isinstance(raw, str) else json.dumps(raw if raw is not None else {})
    return ToolCall(
        id=str(use.get("toolUseId") or f"tooluse_{index}"), name=str(use.get("name", "")), arguments=arguments
    )


def _unique_ids(calls: list[ToolCall]) -> tuple[ToolCall, ...]:
    seen: set[str] = set()
    unique = []
    for index, call in enumerate(calls):
        call_id = call.id
        if call_id in seen:
            call_id = safe_tool_id(f"{call.id}_{index}")
        seen.add(call_id)
        unique.append(call if call_id == call.id else ToolCall(call_id, call.name, call.arguments))
    return tuple(unique)


def stop_kind(reason: str | None, *, has_tool_calls: bool) -> StopKind:
    """Map ``stopReason``; a turn with tool calls is a tool turn unless it was cut off or refused."""
    kind = _STOP_KINDS.get(reason or "")
    if kind is None:
        if reason:
            log.info("unknown Bedrock stopReason %r; deciding by the content", reason)
        return "tool_use" if has_tool_calls else "answer"
    if kind == "answer" and has_tool_calls:
        return "tool_use"
    if kind == "tool_use" and not has_tool_calls:
        return "answer"
    return kind


def parse_usage(usage: dict[str, Any]) -> Usage:
    return Usage(
        input_tokens=int(usage.get("inputTokens") or 0),
        output_tokens=int(usage.get("outputTokens") or 0),
        cache_read_tokens=int(usage.get("cacheReadInputTokens") or 0),
        cache_write_tokens=int(usage.get("cacheWriteInputTokens") or 0),
    )
