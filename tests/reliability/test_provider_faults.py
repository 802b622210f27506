"""A fault matrix for both providers, through the real agent loop on the real sample database.

Each fault is played by the transport (httpx's MockTransport for the OpenAI-compatible provider, a botocore
``before-send`` hook for Bedrock, so botocore's own parsers and retries run). The loop must recover (and
then answer with the number the tools found) or stop with one clear line: never a traceback, never a hang.
Sleeps are fake and timeouts are raised at once, so the whole matrix runs in about a second.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from analytics_agent.agent.loop import Agent
from analytics_agent.errors import (
    ProviderConnectionError,
    ProviderError,
    ProviderResponseError,
    ProviderTimeoutError,
)
from analytics_agent.providers.openai.provider import OpenAIProvider

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "providers"))
import bedrock_fake as bf

PUNE = {"city": "Pune", "day": "2026-10-24"}
REVENUE = 4798  # checked against the database in test_the_reference_revenue_is_what_the_database_holds
QUESTION = "What was Pune's revenue on 24 Oct 2026?"
HANG_LIMIT_S = 300.0  # a bound so a hang ends the test; generous, so no busy machine reaches it


def test_the_reference_revenue_is_what_the_database_holds(workspace):
    (revenue,) = (
        workspace.cursor()
        .execute(
            "SELECT sum(amount) FROM orders WHERE city = 'Pune' AND day = DATE '2026-10-24' "
            "AND status NOT IN ('cancelled', 'returned')"
        )
        .fetchone()
    )
    assert revenue == REVENUE


def _answer_from_results(text_of_result: str) -> str:
    return f"Pune made {json.loads(text_of_result)['revenue']} rupees."


# --- OpenAI-compatible: replies and faults as httpx responses ----------------------------------------


def o_call(name: str, arguments: Any, *, call_id: str | None = "call_1", finish: str = "tool_calls"):
    function = {
        "name": name,
        "arguments": arguments if not isinstance(arguments, dict) else json.dumps(arguments),
    }
    call: dict[str, Any] = {"type": "function", "function": function}
    if call_id is not None:
        call["id"] = call_id
    return _o_message({"role": "assistant", "content": None, "tool_calls": [call]}, finish)


def o_object_arguments_call():
    call = {"id": "call_obj", "type": "function", "function": {"name": "sales_summary", "arguments": PUNE}}
    return _o_message({"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls")


def o_answer(request: httpx.Request) -> httpx.Response:
    """The final answer, built from the last successful tool message of the request."""
    messages = json.loads(request.content)["messages"]
    results = [m["content"] for m in messages if m["role"] == "tool" and not m["content"].startswith("Error")]
    text = _answer_from_results(results[-1]) if results else "I could not find it."
    return _o_message({"role": "assistant", "content": text}, "stop")(request)


def _o_message(message: dict[str, Any], finish: str):
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55},
    }
    return lambda request: httpx.Response(200, json=body)


def o_status(status: int, *, headers: dict[str, str] | None = None, html: bool = False):
    if html:
        page = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
        return lambda r: httpx.Response(
            status, headers={"content-type": "text/html", **(headers or {})}, content=page
        )
    body = {"error": {"message": f"scripted {status}", "type": "server_error"}}
    return lambda r: httpx.Response(status, headers=headers or {}, json=body)


def o_raw(content: bytes, content_type: str = "application/json"):
    return lambda r: httpx.Response(200, headers={"content-type": content_type}, content=content)


def o_raise(kind: type[Exception], message: str):
    def fail(request: httpx.Request) -> httpx.Response:
        raise kind(message, request=request)

    return fail


def o_stream_error(request: httpx.Request) -> httpx.Response:
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Let me"}, "finish_reason": None}],
    }
    error = {"error": {"message": "upstream model crashed", "type": "server_error"}}
    body = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(error)}\n\n"
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body.encode())  # fmt: skip


def o_stream_cut(request: httpx.Request) -> httpx.Response:
    """A stream that ends without finish_reason or [DONE]: the server went away mid-answer."""
    chunk = {
        "id": "c",
        "object": "chat.completion.chunk",
        "model": "m",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": "Pune made"}, "finish_reason": None}
        ],
    }
    return httpx.Response(200, headers={"content-type": "text/event-stream"},
                          content=f"data: {json.dumps(chunk)}\n\n".encode())  # fmt: skip


CALL = o_call("sales_summary", PUNE)
RETRY_429 = o_status(429, headers={"retry-after": "2"})
OPENAI_MATRIX: dict[str, tuple[list[Callable], str | type[Exception]]] = {
    "429 with Retry-After, then success": ([RETRY_429, CALL, o_answer], "answer"),
    "500 then 503, then success": ([o_status(500), o_status(503), CALL, o_answer], "answer"),
    "a read timeout, then success": ([o_raise(httpx.ReadTimeout, "timed out"), CALL, o_answer], "answer"),
    "timeouts on every attempt": ([o_raise(httpx.ReadTimeout, "timed out")] * 4, ProviderTimeoutError),
    "a reset connection, then success": ([o_raise(httpx.ReadError, "[Errno 104] Connection reset by peer"), CALL, o_answer], "answer"),
    "connection refused on every attempt": ([o_raise(httpx.ConnectError, "[Errno 111] Connection refused")] * 4, ProviderConnectionError),
    "a malformed JSON body": ([o_raw(b'{"choices": [{"index": 0, "message": ')], ProviderResponseError),
    "an HTML error page, then success": ([o_status(502, html=True), CALL, o_answer], "answer"),
    "HTML error pages on every attempt": ([o_status(502, html=True)] * 4, ProviderError),
    "a 200 HTML page": ([o_raw(b"<html><body>Login required</body></html>", "text/html")], ProviderResponseError),
    "empty choices": ([o_raw(b'{"id": "x", "choices": []}')], ProviderResponseError),
    "a tool call without an id": ([o_call("sales_summary", PUNE, call_id=None), o_answer], "answer"),
    "a tool call with an empty id": ([o_call("sales_summary", PUNE, call_id=""), o_answer], "answer"),
    "arguments sent as an object": ([o_object_arguments_call(), o_answer], "answer"),
    "an unknown tool name, then a repair": ([o_call("get_sales", PUNE), CALL, o_answer], "answer"),
    "a call cut off at max tokens, then a repair": ([o_call("sales_summary", '{"city": "Pu', finish="length"), CALL, o_answer], "answer"),
}  # fmt: skip
OPENAI_STREAM_MATRIX = {
    "an error event mid-stream": ([o_stream_error], ProviderError),
    "a stream cut off before it finished": ([o_stream_cut], ProviderError),
}
KNOWN_BUGS: dict[str, str] = {}


def _cases(matrix: dict[str, tuple[Any, Any]]) -> list[Any]:
    """Parameters for a matrix; known bugs are strict xfails, so a fix turns them into failures to remove."""
    return [
        pytest.param(*case, id=name, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[name])]
                     if name in KNOWN_BUGS else [])
        for name, case in matrix.items()
    ]  # fmt: skip


class Script:
    """Serves the replies in order; counts requests; fails the test on one too many."""

    def __init__(self, replies: list[Callable]) -> None:
        self.replies = list(replies)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        assert self.replies, f"request {len(self.requests)} was not scripted"
        return self.replies.pop(0)(request)


def _run(agent: Agent) -> tuple[Any, BaseException | None, bool]:
    """Ask in a thread, so that a run that hangs fails the test instead of stalling the suite."""
    outcome: list[tuple[Any, BaseException | None]] = []

    def ask() -> None:
        try:
            outcome.append((agent.ask(QUESTION), None))
        except BaseException as exc:  # kept for _check, which names what was expected instead
            outcome.append((None, exc))

    worker = threading.Thread(target=ask, daemon=True)
    worker.start()
    worker.join(HANG_LIMIT_S)
    if not outcome:
        return None, None, True
    return *outcome[0], False


def _check(result, error, hung, expected, records_hint: str) -> None:
    assert not hung, f"{records_hint}: the agent was still running after {HANG_LIMIT_S:g} s"
    if expected == "answer":
        assert error is None, f"{records_hint}: {error!r}"
        assert result.stop == "answer" and f"{REVENUE} rupees" in result.answer, result.answer
        return
    assert result is None, f"{records_hint}: expected {expected.__name__}, got an answer: {result.answer}"
    assert isinstance(error, expected), repr(error)
    message = str(error)
    assert message and "\n" not in message and "Traceback" not in message
    assert len(message) < 400


@pytest.mark.parametrize(("replies", "expected"), _cases(OPENAI_MATRIX))
def test_openai_compatible_fault(workspace, replies, expected):
    script, waits = Script(replies), []
    provider = OpenAIProvider(
        base_url="http://model.test/v1", model="m", client=httpx.Client(transport=httpx.MockTransport(script)),
        sleep=waits.append, max_retries=3,
    )  # fmt: skip
    result, error, hung = _run(Agent(provider, workspace.registry, workspace.executor))
    _check(result, error, hung, expected, f"{len(script.requests)} requests")
    assert not script.replies, "some scripted replies were never requested"
    if replies[0] is RETRY_429:
        assert waits == [2.0]  # the server's Retry-After, honoured exactly, on the fake clock
    if expected == "answer":  # every call the model made was answered exactly once, under its id
        last = json.loads(script.requests[-1].content)["messages"]
        ids = [c["id"] for m in last if m["role"] == "assistant" for c in m.get("tool_calls") or []]
        answered = [m["tool_call_id"] for m in last if m["role"] == "tool"]
        assert ids == answered and all(ids)


@pytest.mark.parametrize(("replies", "expected"), _cases(OPENAI_STREAM_MATRIX))
def test_openai_compatible_stream_fault(workspace, replies, expected):
    script = Script(replies)
    provider = OpenAIProvider(
        base_url="http://model.test/v1", model="m", client=httpx.Client(transport=httpx.MockTransport(script)),
        sleep=lambda s: None, max_retries=3, stream=True,
    )  # fmt: skip
    result, error, hung = _run(Agent(provider, workspace.registry, workspace.executor))
    _check(result, error, hung, expected, f"{len(script.requests)} requests")


# --- Bedrock: the same faults through botocore -----------------------------------------------------


def b_reply(*blocks, stop="tool_use"):
    return ("reply", bf.reply(*blocks, stop=stop))


def b_answer(request: dict[str, Any]):
    results = [
        b["toolResult"] for m in request["messages"] for b in m["content"]
        if "toolResult" in b and b["toolResult"].get("status") != "error"
    ]  # fmt: skip
    text = _answer_from_results(json.dumps(results[-1]["content"][0]["json"])) if results else "I could not."
    return bf.reply(bf.text(text), stop="end_turn")


def b_failure(status: int, code: str, message: str = "scripted failure"):
    return (
        "status",
        status,
        {"content-type": "application/json", "x-amzn-ErrorType": code},
        json.dumps({"message": message}).encode(),
    )


def b_raw(status: int, content_type: str, body: bytes):
    return ("status", status, {"content-type": content_type}, body)


def b_raise(factory: Callable[[str], Exception]):
    return ("raise", factory)


def _read_timeout(url: str) -> Exception:
    from botocore.exceptions import ReadTimeoutError

    return ReadTimeoutError(endpoint_url=url)


def _reset(url: str) -> Exception:
    from botocore.exceptions import ConnectionClosedError

    return ConnectionClosedError(endpoint_url=url)


B_CALL = b_reply(bf.tool_use("tooluse_1", "sales_summary", **PUNE))
BEDROCK_MATRIX: dict[str, tuple[list[Any], str | type[Exception]]] = {
    "throttled, then success": ([b_failure(429, "ThrottlingException", "Too many requests"), B_CALL, "answer"], "answer"),
    "500 then 503, then success": ([b_failure(500, "InternalServerException"), b_failure(503, "ServiceUnavailableException"), B_CALL, "answer"], "answer"),
    "a read timeout, then success": ([b_raise(_read_timeout), B_CALL, "answer"], "answer"),
    "timeouts on every attempt": ([b_raise(_read_timeout)] * 4, ProviderTimeoutError),
    "a reset connection, then success": ([b_raise(_reset), B_CALL, "answer"], "answer"),
    "a malformed JSON body": ([b_raw(200, "application/json", b'{"output": {"message": ')], ProviderError),
    "an HTML error page on every attempt": ([b_raw(502, "text/html", b"<html><body>Bad Gateway</body></html>")] * 4, ProviderError),
    "a reply without a message": ([("reply", {"output": {}, "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 1}})], ProviderResponseError),
    "object arguments (Bedrock's own shape)": ([B_CALL, "answer"], "answer"),
    "an unknown tool name, then a repair": ([b_reply(bf.tool_use("tooluse_0", "get_sales", **PUNE)), B_CALL, "answer"], "answer"),
    "a call cut off at max tokens, then a repair": ([b_reply(bf.tool_use("tooluse_0", "sales_summary", city="Pu"), stop="max_tokens"), B_CALL, "answer"], "answer"),
}  # fmt: skip


class BedrockScript:
    def __init__(self, steps: list[Any], *, stream: bool) -> None:
        self.steps = list(steps)
        self.stream = stream
        self.requests: list[dict[str, Any]] = []

    def attach(self, client: Any) -> None:
        from botocore.awsrequest import AWSResponse

        def before_send(request: Any, **_: Any) -> Any:
            body = json.loads(request.body)
            self.requests.append(body)
            assert self.steps, f"request {len(self.requests)} was not scripted"
            step = self.steps.pop(0)
            if step == "answer":
                step = ("reply", b_answer(body))
            if step[0] == "raise":
                raise step[1](request.url)
            if step[0] == "status":
                _, status, headers, raw = step
                return AWSResponse(request.url, status, headers, bf._Raw(raw))
            payload = step[1]
            if self.stream:
                frames = b"".join(bf.event_frame(k, p) for k, p in bf.reply_events(payload))
                headers = {"content-type": "application/vnd.amazon.eventstream"}
                return AWSResponse(request.url, 200, headers, bf._Raw(frames))
            return AWSResponse(
                request.url, 200, {"content-type": "application/json"}, bf._Raw(json.dumps(payload).encode())
            )

        client.meta.events.register("before-send.bedrock-runtime.*", before_send)


@pytest.fixture
def aws(monkeypatch):
    for key, value in bf.FAKE_ENV.items():
        monkeypatch.setenv(key, value)
    from botocore.retries import standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)


@pytest.mark.parametrize(("steps", "expected"), _cases(BEDROCK_MATRIX))
def test_bedrock_fault(workspace, aws, steps, expected):
    from analytics_agent.providers.bedrock.provider import BedrockProvider

    script = BedrockScript(steps, stream=False)
    provider = BedrockProvider(model="us.amazon.nova-micro-v1:0", region="us-east-1", max_attempts=4)
    script.attach(provider.client)
    result, error, hung = _run(Agent(provider, workspace.registry, workspace.executor))
    _check(result, error, hung, expected, f"{len(script.requests)} requests")
    assert not script.steps, "some scripted replies were never requested"
    for secret in bf.SECRETS:
        assert secret not in str(error or "") and secret not in (result.answer if result else "")


def test_bedrock_an_error_mid_stream_stops_with_one_line(workspace, aws):
    from analytics_agent.providers.bedrock.provider import BedrockProvider

    fake = bf.FakeBedrock(
        [bf.Failure(200, "modelStreamErrorException", "The model stream broke.", in_stream=True)]
    )
    provider = BedrockProvider(
        model="us.amazon.nova-micro-v1:0", region="us-east-1", stream=True, max_attempts=1
    )
    fake.attach(provider.client)
    result, error, hung = _run(Agent(provider, workspace.registry, workspace.executor))
    _check(result, error, hung, ProviderError, "stream")
    assert "stream broke" in str(error)


def test_bedrock_stream_recovers_from_throttling_then_answers(workspace, aws):
    from analytics_agent.providers.bedrock.provider import BedrockProvider

    script = BedrockScript(
        [b_failure(429, "ThrottlingException", "slow down"), B_CALL, "answer"], stream=True
    )
    provider = BedrockProvider(model="us.amazon.nova-micro-v1:0", region="us-east-1", stream=True)
    script.attach(provider.client)
    result, error, hung = _run(Agent(provider, workspace.registry, workspace.executor))
    _check(result, error, hung, "answer", "stream")
