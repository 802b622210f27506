"""A scripted stand-in model that speaks the OpenAI ``/chat/completions`` wire format.

It is not a provider: it is the *server* side. Give the real ``OpenAIProvider`` an
``httpx.Client(transport=script.transport())`` and the demo and tests exercise the real provider, the
real loop and the real tools offline. ``respond`` is pure HTTP-in/HTTP-out, so a loopback
``http.server`` can serve the same script.

Each ``Step`` answers one request: it first runs its checks on the request body (e.g. "the tool
message for call X mentions 'day'"), then sends text and/or tool calls, as JSON or as SSE chunks
(whichever the request asked for, unless the step forces one). A request with no step left, or a
failing check, gets an HTTP 400 whose message says what was expected, and is recorded in ``failures``;
``assert_all_used()`` raises if any step was not used or anything failed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx


class ScriptError(AssertionError):
    """A request the script did not expect, or a step that was never used."""


Check = Callable[[dict[str, Any]], None]
"""Inspects a request body; raises ``ScriptError`` (or AssertionError) with what was wrong."""
TextSource = str | Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class ScriptedCall:
    """A tool call the stand-in makes.

    Args:
        name: the tool.
        arguments: a dict (sent as JSON text) or raw text (sent as is, e.g. broken JSON).
        id: the call id; None makes one (``call_<step>_<index>``).
        omit_id: send the call with no ``id`` at all (llama.cpp, Ollama and Gemini do).
        as_object: send ``arguments`` as a JSON object, not a string (some servers do).
    """

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)
    id: str | None = None
    omit_id: bool = False
    as_object: bool = False


@dataclass(frozen=True)
class Step:
    """One reply. ``text`` may be a function of the request body (to answer from tool results).

    ``status`` other than 200 sends an error body (``error_message``) with ``headers``, e.g. a 429
    with ``{"retry-after": "0"}``; ``sse`` None follows the request's ``stream`` flag.
    """

    text: TextSource = ""
    tool_calls: Sequence[ScriptedCall] = ()
    checks: Sequence[Check] = ()
    finish_reason: str | None = None
    sse: bool | None = None
    usage: dict[str, int] | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error_message: str = "scripted error"


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


class ScriptedModel:
    """Serves ``steps`` in order and records every request it receives (thread-safe)."""

    def __init__(self, steps: Sequence[Step], *, model: str = "scripted") -> None:
        self.steps = list(steps)
        self.model = model
        self.requests: list[RecordedRequest] = []
        self.failures: list[str] = []
        self._used = 0
        self._lock = threading.Lock()

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._handle)

    def client(self) -> httpx.Client:
        return httpx.Client(transport=self.transport())

    @property
    def used(self) -> int:
        return self._used

    def assert_all_used(self) -> None:
        """Raise ``ScriptError`` if a check failed, a request was unexpected, or a step is unused."""
        problems = list(self.failures)
        if self._used < len(self.steps):
            problems.append(f"{len(self.steps) - self._used} of {len(self.steps)} steps were never requested")
        if problems:
            raise ScriptError("; ".join(problems))

    def _handle(self, request: httpx.Request) -> httpx.Response:
        status, headers, content = self.respond(
            request.method, request.url.path, dict(request.headers), request.read()
        )
        return httpx.Response(status, headers=headers, content=content)

    def respond(
        self, method: str, path: str, headers: dict[str, str], content: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        """Answer one HTTP request: (status, headers, body bytes)."""
        with self._lock:
            try:
                body: Any = json.loads(content.decode("utf-8")) if content else None  # _next_step checks it
            except ValueError:
                body = content.decode("utf-8", "replace")
            lowered = {k.lower(): v for k, v in headers.items()}
            self.requests.append(RecordedRequest(method, path, lowered, body))
            number = len(self.requests)
            try:
                step = self._next_step(method, path, body, number)
                return self._reply(step, body, number)
            except AssertionError as exc:
                message = f"scripted model: request {number}: {exc}"
                self.failures.append(message)
                return _error(400, message, {})

    def _next_step(self, method: str, path: str, body: Any, number: int) -> Step:
        if method != "POST" or not path.endswith("/chat/completions"):
            raise ScriptError(f"expected POST …/chat/completions, got {method} {path}")
        if not isinstance(body, dict):
            raise ScriptError("the request body is not a JSON object")
        if self._used >= len(self.steps):
            raise ScriptError(f"unexpected request: the script has only {len(self.steps)} steps")
        step = self.steps[self._used]
        self._used += 1
        for check in step.checks:
            check(body)
        return step

    def _reply(self, step: Step, body: dict[str, Any], number: int) -> tuple[int, dict[str, str], bytes]:
        if step.status != 200:
            return _error(step.status, step.error_message, step.headers)
        text = step.text(body) if callable(step.text) else step.text
        calls = [_wire_call(call, number, i) for i, call in enumerate(step.tool_calls)]
        finish = step.finish_reason or ("tool_calls" if calls else "stop")
        usage = step.usage or _usage(body, text, calls)
        stream = bool(body.get("stream")) if step.sse is None else step.sse
        if stream:
            payload = sse_body(self.model, text, calls, finish, usage, number)
            return 200, {"content-type": "text/event-stream", **step.headers}, payload
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = calls
        reply = {
            "id": f"chatcmpl-scripted-{number}",
            "object": "chat.completion",
            "created": 0,
            "model": self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": usage,
        }
        return 200, {"content-type": "application/json", **step.headers}, json.dumps(reply).encode()


def _wire_call(call: ScriptedCall, number: int, index: int) -> dict[str, Any]:
    if isinstance(call.arguments, str) or not call.as_object:
        arguments: Any = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
    else:
        arguments = call.arguments
    wire: dict[str, Any] = {"type": "function", "function": {"name": call.name, "arguments": arguments}}
    if not call.omit_id:
        wire["id"] = call.id or f"call_{number}_{index}"
    return wire


def sse_body(
    model: str, text: str, calls: list[dict[str, Any]], finish: str, usage: dict[str, int], number: int
) -> bytes:
    """The reply as OpenAI streams it: text in pieces, each call's arguments in two fragments, the
    finish reason, a usage chunk with no choices, then ``[DONE]``."""
    head = {
        "id": f"chatcmpl-scripted-{number}",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
    }

    def chunk(delta: dict[str, Any] | None, finish_reason: str | None = None, **extra: Any) -> str:
        choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish_reason}]
        return "data: " + json.dumps({**head, "choices": choices, **extra}) + "\n\n"

    parts = [chunk({"role": "assistant", "content": ""})]
    parts += [chunk({"content": piece}) for piece in _pieces(text, 3)]
    for index, call in enumerate(calls):
        arguments = call["function"]["arguments"]
        text_args = arguments if isinstance(arguments, str) else json.dumps(arguments)
        first = {
            "index": index,
            "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""},
        }
        if "id" in call:
            first["id"] = call["id"]
        parts.append(chunk({"tool_calls": [first]}))
        for piece in _pieces(text_args, 2):
            parts.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    parts.append(chunk({}, finish))
    parts.append(chunk(None, usage=usage))
    parts.append("data: [DONE]\n\n")
    return "".join(parts).encode()


def _pieces(text: str, count: int) -> list[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // count))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _usage(body: dict[str, Any], text: str, calls: list[dict[str, Any]]) -> dict[str, int]:
    # Roughly 4 characters a token: enough for budgets and traces to show plausible numbers.
    prompt = len(json.dumps(body.get("messages", []))) // 4 + len(json.dumps(body.get("tools", []))) // 4
    completion = max(1, (len(text) + len(json.dumps(calls))) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def _error(status: int, message: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}
    return status, {"content-type": "application/json", **headers}, json.dumps(body).encode()


# --- reading requests (for checks and for answers built from tool results) -----------------------


def tool_messages(body: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every tool result in a request: (call id, tool name, content), in order."""
    names: dict[str, str] = {}
    found = []
    for message in body.get("messages", []):
        for call in message.get("tool_calls") or []:
            names[call.get("id", "")] = call.get("function", {}).get("name", "")
        if message.get("role") == "tool":
            call_id = message.get("tool_call_id", "")
            found.append((call_id, names.get(call_id, ""), str(message.get("content", ""))))
    return found


def last_tool_result(body: dict[str, Any], name: str, *, ok: bool = True) -> dict[str, Any]:
    """The latest result of tool ``name`` as a JSON object (``ok``: skip error results)."""
    for _, tool, content in reversed(tool_messages(body)):
        if tool != name or (ok and content.startswith("Error")):
            continue
        try:
            value = json.loads(content)
        except ValueError:
            raise ScriptError(f"the {name} result is not JSON: {content[:80]!r}") from None
        if isinstance(value, dict):
            return value
    raise ScriptError(f"the request has no {'successful ' if ok else ''}{name} result")


def expect_tool_result(call_id: str, *words: str, error: bool | None = None) -> Check:
    """Check: the request answers ``call_id`` with content containing every word (and is/isn't an error)."""

    def check(body: dict[str, Any]) -> None:
        contents = [c for cid, _, c in tool_messages(body) if cid == call_id]
        if len(contents) != 1:
            raise ScriptError(f"expected one tool message for call {call_id}, found {len(contents)}")
        content = contents[0]
        missing = [w for w in words if w not in content]
        if missing:
            raise ScriptError(f"the result of call {call_id} does not mention {missing}: {content[:120]!r}")
        if error is not None and content.startswith("Error") != error:
            raise ScriptError(f"the result of call {call_id} should {'' if error else 'not '}be an error")

    return check


def expect_user_text(*words: str) -> Check:
    """Check: the last user message contains every word."""

    def check(body: dict[str, Any]) -> None:
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        text = str(users[-1].get("content", "")) if users else ""
        missing = [w for w in words if w not in text]
        if missing:
            raise ScriptError(f"the last user message does not mention {missing}: {text[:120]!r}")

    return check


def expect_tools(*names: str) -> Check:
    """Check: the request offers these tools."""

    def check(body: dict[str, Any]) -> None:
        offered = {t.get("function", {}).get("name") for t in body.get("tools", [])}
        missing = sorted(set(names) - offered)
        if missing:
            raise ScriptError(f"the request does not offer the tools {missing}")

    return check
