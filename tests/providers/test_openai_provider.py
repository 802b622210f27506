"""OpenAIProvider through real httpx: MockTransport for scripted servers, loopback sockets for failures."""

from __future__ import annotations

import json
import logging
import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from loopback import read_request

from analytics_agent.conversation import (
    AssistantTurn,
    Conversation,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)
from analytics_agent.errors import (
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderRateLimitError,
    ProviderResponseError,
    ProviderTimeoutError,
)
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool
from analytics_agent.tools.registry import Registry

RECORDED = Path(__file__).parent / "recorded_openai"
KEY = "sk-test-SECRET-0123456789abcdef"
TEXT_REPLY = {
    "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "42"}}]
}


class CityArgs(ToolArguments):
    city: str


class WeatherTool(Tool):
    name = "get_weather"
    description = "Current weather for a city."
    arguments = CityArgs


TOOLS = Registry([WeatherTool()])


def recorded(name: str) -> list[dict[str, Any]]:
    return json.loads((RECORDED / name).read_text())["exchanges"]


def sse(events: list[Any]) -> bytes:
    return "".join("data: " + (e if isinstance(e, str) else json.dumps(e)) + "\n\n" for e in events).encode()


class Server:
    """A scripted endpoint: answers requests in order and keeps every request it got."""

    def __init__(
        self, *answers: httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]
    ) -> None:
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer(request) if callable(answer) else answer

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]


def provider(server: Server, waits: list[float] | None = None, **kwargs: Any) -> OpenAIProvider:
    sleeps = waits if waits is not None else []
    client = httpx.Client(transport=httpx.MockTransport(server))
    return OpenAIProvider(
        base_url="https://api.example.com/v1", model="m", client=client, sleep=sleeps.append, **kwargs
    )


def question() -> Conversation:
    return Conversation(system="Answer with numbers.", messages=[UserTurn("Revenue in 2024?")])


# --- requests ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "base_url, expected",
    [
        ("https://api.openai.com/v1", "https://api.openai.com/v1/chat/completions"),
        ("http://localhost:11434/v1/", "http://localhost:11434/v1/chat/completions"),
        ("http://127.0.0.1:8080/v1/chat/completions", "http://127.0.0.1:8080/v1/chat/completions"),
    ],
)
def test_posts_to_chat_completions_under_the_base_url(base_url, expected):
    server = Server(httpx.Response(200, json=TEXT_REPLY))
    client = httpx.Client(transport=httpx.MockTransport(server))
    OpenAIProvider(base_url=base_url, model="m", client=client).complete(question(), TOOLS)
    assert server.requests[0].method == "POST"
    assert str(server.requests[0].url) == expected


def test_authorization_is_sent_only_when_a_key_is_given():
    keyless, keyed = (
        Server(httpx.Response(200, json=TEXT_REPLY)),
        Server(httpx.Response(200, json=TEXT_REPLY)),
    )
    provider(keyless).complete(question(), TOOLS)
    provider(keyed, api_key=KEY, extra_headers={"HTTP-Referer": "https://x"}).complete(question(), TOOLS)
    assert "authorization" not in keyless.requests[0].headers
    assert keyed.requests[0].headers["authorization"] == f"Bearer {KEY}"
    assert keyed.requests[0].headers["http-referer"] == "https://x"


def test_a_whole_tool_round_trip_sends_each_call_back_once_with_string_arguments_and_content():
    first = recorded("deepseek-reasoner-parallel-tool-calls.json")[1]["response"]["body"]
    server = Server(httpx.Response(200, json=first), httpx.Response(200, json=TEXT_REPLY))
    p = provider(server)
    conversation = question()
    reply = p.complete(conversation, TOOLS)
    conversation.messages.append(reply.turn)
    conversation.messages.append(
        ToolResults(
            tuple(ToolResult(c.id, f"Error: no {c.name}", is_error=True) for c in reply.turn.tool_calls)
        )
    )
    final = p.complete(conversation, TOOLS)
    assert final.turn.text == "42"

    sent = server.bodies[1]
    assert sent["messages"][0] == {"role": "system", "content": "Answer with numbers."}
    assistant = sent["messages"][2]
    assert assistant["content"] == "Let me get your name and roll the die!"
    assert assistant["reasoning_content"].startswith("Great, now I have access")
    assert all(isinstance(c["function"]["arguments"], str) for c in assistant["tool_calls"])
    tool_messages = [m for m in sent["messages"] if m["role"] == "tool"]
    call_ids = [c["id"] for c in assistant["tool_calls"]]
    assert [m["tool_call_id"] for m in tool_messages] == call_ids
    assert all(isinstance(m["content"], str) and m["content"].startswith("Error: no ") for m in tool_messages)
    assert server.bodies[0]["tool_choice"] == "auto" and server.bodies[0]["stream"] is False


# --- retries -------------------------------------------------------------------------------------


def test_429_with_retry_after_ms_waits_that_long_then_succeeds():
    waits: list[float] = []
    server = Server(
        httpx.Response(429, headers={"retry-after-ms": "250"}, json={"error": {"message": "slow"}}),
        httpx.Response(200, json=TEXT_REPLY),
    )
    assert provider(server, waits).complete(question(), TOOLS).turn.text == "42"
    assert waits == [0.25]
    assert len(server.requests) == 2


def test_recorded_cerebras_429_without_error_wrapper_is_retried_after_retry_after_seconds():
    exchanges = recorded("cerebras-qwen3-coder-429-then-tool-call.json")
    waits: list[float] = []
    server = Server(
        httpx.Response(429, headers={"retry-after": "2"}, json=exchanges[1]["response"]["body"]),
        httpx.Response(200, json=exchanges[2]["response"]["body"]),
    )
    reply = provider(server, waits).complete(question(), TOOLS)
    assert waits == [2.0]
    assert reply.turn.tool_calls[0].id == "4f027f52b"


def test_500_then_503_then_success_backs_off_exponentially():
    waits: list[float] = []
    server = Server(
        httpx.Response(500, json={}), httpx.Response(503, text="busy"), httpx.Response(200, json=TEXT_REPLY)
    )
    provider(server, waits).complete(question(), TOOLS)
    assert len(waits) == 2
    assert 0.375 <= waits[0] <= 0.5 and 0.75 <= waits[1] <= 1.0


def test_connection_error_then_success_is_retried():
    waits: list[float] = []
    server = Server(httpx.ConnectError("refused"), httpx.Response(200, json=TEXT_REPLY))
    assert provider(server, waits).complete(question(), TOOLS).turn.text == "42"
    assert len(waits) == 1 and len(server.requests) == 2


@pytest.mark.parametrize(
    "status, body, kind",
    [
        (
            400,
            {"error": {"message": "Invalid parameter: messages", "type": "invalid_request_error"}},
            ProviderError,
        ),
        (401, {"error": {"message": "Incorrect API key provided: sk-...abcd"}}, ProviderAuthError),
        (
            429,
            {
                "error": {
                    "message": "You exceeded your current quota",
                    "type": "insufficient_quota",
                    "code": "insufficient_quota",
                }
            },
            ProviderRateLimitError,
        ),
    ],
)
def test_client_errors_and_exhausted_quota_fail_at_once_with_the_servers_message(status, body, kind):
    waits: list[float] = []
    server = Server(httpx.Response(status, json=body, headers={"retry-after": "1"}))
    with pytest.raises(kind) as caught:
        provider(server, waits).complete(question(), TOOLS)
    assert waits == [] and len(server.requests) == 1
    assert caught.value.status == status
    assert (
        str(caught.value)
        == f"OpenAI-compatible server at api.example.com returned {status}: {body['error']['message']}"
    )


def test_recorded_groq_400_tool_use_failed_keeps_its_code():
    body = recorded("groq-gpt-oss-tool-use-failed.json")[0]["response"]["body"]
    with pytest.raises(ProviderError, match="Tool call validation failed") as caught:
        provider(Server(httpx.Response(400, json=body))).complete(question(), TOOLS)
    assert caught.value.code == "tool_use_failed"


def test_gives_up_after_max_retries_with_a_clear_error():
    waits: list[float] = []
    body = recorded("hf-together-llama4-500-on-continuation.json")[1]["response"]["body"]
    server = Server(*[httpx.Response(500, json=body) for _ in range(3)])
    with pytest.raises(ProviderError) as caught:
        provider(server, waits, max_retries=2).complete(question(), TOOLS)
    assert len(server.requests) == 3 and len(waits) == 2
    assert str(caught.value) == (
        "OpenAI-compatible server at api.example.com returned 500: Internal server error (gave up after 3 attempts)"
    )


def test_a_requested_wait_beyond_the_limit_fails_at_once_and_says_when_to_retry():
    waits: list[float] = []
    server = Server(
        httpx.Response(429, headers={"retry-after": "3600"}, json={"error": {"message": "rate limited"}})
    )
    with pytest.raises(ProviderRateLimitError, match=r"wait 3600 s; try again after \d\d:\d\d:\d\d UTC"):
        provider(server, waits, max_retry_wait=60).complete(question(), TOOLS)
    assert waits == []


def test_an_html_error_page_becomes_a_response_error_with_status_and_snippet():
    page = "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"
    with pytest.raises(ProviderResponseError, match="returned 502: 502 Bad Gateway nginx"):
        provider(Server(httpx.Response(502, text=page)), max_retries=0).complete(question(), TOOLS)


def test_a_200_that_is_not_json_is_a_response_error():
    with pytest.raises(ProviderResponseError, match="returned 200 with a body that is not JSON: Welcome"):
        provider(Server(httpx.Response(200, text="<html><body>Welcome</body></html>"))).complete(
            question(), TOOLS
        )


# --- secrets -------------------------------------------------------------------------------------


def test_the_api_key_appears_in_no_error_log_or_repr(caplog):
    echo = {"error": {"message": f"Incorrect API key provided: {KEY}"}}
    server = Server(httpx.Response(503, json=echo), httpx.Response(401, json=echo))
    p = provider(server, api_key=KEY)
    with caplog.at_level(logging.DEBUG), pytest.raises(ProviderAuthError) as caught:
        p.complete(question(), TOOLS)
    texts = [str(caught.value), repr(caught.value), repr(p), repr(p._client.headers)]
    texts += [r.getMessage() for r in caplog.records]
    assert caplog.records  # the retry was logged, so the log check means something
    assert "Incorrect API key provided: ***" in str(caught.value)
    assert not [t for t in texts if KEY in t]


# --- failures without a response -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_nothing_listening_is_a_connection_error_naming_host_and_port():
    port = free_port()
    waits: list[float] = []
    p = OpenAIProvider(base_url=f"http://127.0.0.1:{port}/v1", model="m", max_retries=1, sleep=waits.append)
    with pytest.raises(ProviderConnectionError, match=rf"127\.0\.0\.1:{port}.*is the server running"):
        p.complete(question(), TOOLS)
    p.close()
    assert len(waits) == 1


@pytest.fixture
def silent_server() -> Iterator[int]:
    """Accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    listener.close()


def test_a_server_that_never_answers_is_a_timeout_error(silent_server):
    p = OpenAIProvider(
        base_url=f"http://127.0.0.1:{silent_server}/v1", model="m", read_timeout=0.2, max_retries=0
    )
    with pytest.raises(ProviderTimeoutError, match="did not answer in time"):
        p.complete(question(), TOOLS)
    p.close()


# --- streaming -----------------------------------------------------------------------------------


def event_stream(events: list[Any]) -> httpx.Response:
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=sse(events))


def test_streaming_passes_text_as_it_arrives_and_sends_the_stream_options():
    events = [e["data"] for e in recorded("openai-gpt-4o-mini-stream-tool-call.json")[1]["response"]["body"]]
    server = Server(event_stream(events))
    seen: list[str] = []
    reply = provider(server, stream=True).complete(question(), TOOLS, on_text=seen.append)
    assert "".join(seen) == reply.turn.text == "The capital of the UK is London."
    assert len(seen) == 8
    assert server.bodies[0]["stream"] is True
    assert server.bodies[0]["stream_options"] == {"include_usage": True}
    assert server.requests[0].headers["accept"] == "text/event-stream"


def test_a_mid_stream_error_event_raises_the_servers_message():
    events = [
        {"choices": [{"index": 0, "delta": {"content": "Hi"}}]},
        {"error": {"message": "overloaded", "code": 503}},
    ]
    with pytest.raises(ProviderError, match="overloaded"):
        provider(Server(event_stream(events)), stream=True).complete(question(), TOOLS)


class BrokenStream(httpx.SyncByteStream):
    """Sends some bytes, then the connection drops."""

    def __init__(self, first: bytes) -> None:
        self.first = first

    def __iter__(self) -> Iterator[bytes]:
        if self.first:
            yield self.first
        raise httpx.ReadError("connection reset by peer")


def test_a_stream_that_breaks_before_any_event_is_restarted():
    waits: list[float] = []
    broken = httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=BrokenStream(b""))
    ok = {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}
    server = Server(broken, event_stream([ok, "[DONE]"]))
    reply = provider(server, waits, stream=True).complete(question(), TOOLS)
    assert reply.turn.text == "ok"
    assert len(server.requests) == 2 and len(waits) == 1


def test_a_stream_that_breaks_after_data_is_not_restarted():
    first = sse([{"choices": [{"index": 0, "delta": {"content": "partial"}}]}])
    broken = httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=BrokenStream(first))
    server = Server(broken, event_stream(["[DONE]"]))
    seen: list[str] = []
    with pytest.raises(ProviderConnectionError, match="dropped the connection"):
        provider(server, stream=True).complete(question(), TOOLS, on_text=seen.append)
    assert seen == ["partial"] and len(server.requests) == 1


def test_a_server_that_ignores_stream_true_is_read_as_one_json_reply():
    server = Server(httpx.Response(200, json=TEXT_REPLY))
    seen: list[str] = []
    reply = provider(server, stream=True).complete(question(), TOOLS, on_text=seen.append)
    assert reply.turn.text == "42" and seen == ["42"]


def test_a_streamed_429_is_retried_like_any_other():
    waits: list[float] = []
    server = Server(
        httpx.Response(429, headers={"retry-after-ms": "100"}, json={"error": {"message": "slow"}}),
        event_stream([{"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}]),
    )
    assert provider(server, waits, stream=True).complete(question(), TOOLS).turn.text == "ok"
    assert waits == [0.1]


def test_an_injected_client_is_not_closed_by_the_provider():
    client = httpx.Client(transport=httpx.MockTransport(Server(httpx.Response(200, json=TEXT_REPLY))))
    OpenAIProvider(base_url="http://h/v1", model="m", client=client).close()
    assert not client.is_closed


def test_a_conversation_with_an_unanswered_call_is_refused_before_sending():
    server = Server()
    conversation = question()
    conversation.messages += [
        AssistantTurn(tool_calls=(ToolCall("c1", "get_weather", "{}"),)),
        UserTurn("again"),
    ]
    with pytest.raises(ProviderError, match="c1 have no result"):
        provider(server).complete(conversation, TOOLS)
    assert server.requests == []


def test_a_proxy_page_instead_of_an_event_stream_is_a_response_error():
    page = httpx.Response(
        200, headers={"content-type": "text/html"}, text="<html><body>Login required</body></html>"
    )
    with pytest.raises(
        ProviderResponseError, match=r"\(text/html\) instead of an event stream: Login required"
    ):
        provider(Server(page), stream=True).complete(question(), TOOLS)


def test_an_event_stream_sent_as_text_plain_is_still_read():
    chunk = {"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]}
    plain = httpx.Response(200, headers={"content-type": "text/plain"}, content=sse([chunk, "[DONE]"]))
    assert provider(Server(plain), stream=True).complete(question(), TOOLS).turn.text == "ok"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"base_url": "localhost:11434", "model": "m"}, "not an http(s) URL"),
        ({"base_url": "ftp://user:pw@h/v1", "model": "m"}, "'ftp://h/v1'"),
        ({"base_url": "http://h/v1", "model": " "}, "no model name"),
    ],
)
def test_bad_settings_are_config_errors_that_say_what_to_fix(kwargs, message):
    from analytics_agent.errors import ConfigError

    with pytest.raises(ConfigError, match=re.escape(message)):
        OpenAIProvider(**kwargs)


@pytest.fixture
def stream_refusing_server() -> Iterator[tuple[int, list[bytes]]]:
    """llama-cpp-python's way with a streamed request with tools (seen on 0.3.36): a 200 event stream
    with no event, the connection kept alive, then dropped when the next request arrives on it. A new
    connection gets a whole JSON reply."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    requests: list[bytes] = []

    def serve() -> None:
        first, _ = listener.accept()
        requests.append(read_request(first))
        first.sendall(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: keep-alive\r\n"
            b"transfer-encoding: chunked\r\n\r\n0\r\n\r\n"
        )
        requests.append(read_request(first))  # the next request came on the kept connection: drop it
        first.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        first.close()
        second, _ = listener.accept()
        requests.append(read_request(second))
        body = json.dumps(TEXT_REPLY).encode()
        second.sendall(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
            + str(len(body)).encode() + b"\r\n\r\n" + body
        )  # fmt: skip
        second.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1], requests
    listener.close()
    thread.join(timeout=30)


def test_after_an_empty_stream_the_unstreamed_request_survives_the_server_dropping_the_kept_connection(
    stream_refusing_server,
):
    port, requests = stream_refusing_server
    refused: list[str] = []
    p = OpenAIProvider(
        base_url=f"http://127.0.0.1:{port}/v1", model="m", max_retries=0, stream=True,
        on_stream_refused=lambda reason: refused.append(reason) or "",
    )  # fmt: skip
    reply = p.complete(question(), TOOLS)
    p.close()
    assert reply.turn.text == "42"
    assert len(refused) == 1 and p.stream is False
    streamed = [b'"stream": true' in r for r in requests]
    assert streamed == [True, False, False], requests


# --- output cap and slow local servers (issue 25) ------------------------------------------------


def provider_at(
    base_url: str, server: Server, waits: list[float] | None = None, **kwargs: Any
) -> OpenAIProvider:
    client = httpx.Client(transport=httpx.MockTransport(server), timeout=httpx.Timeout(120.0, connect=10.0))
    sleeps = waits if waits is not None else []
    return OpenAIProvider(base_url=base_url, model="m", client=client, sleep=sleeps.append, **kwargs)


@pytest.mark.parametrize(
    "base_url, field",
    [
        ("http://127.0.0.1:8080/v1", "max_tokens"),  # llama-cpp-python ignores max_completion_tokens
        ("http://localhost:11434/v1", "max_tokens"),  # Ollama too
        ("https://openrouter.ai/api/v1", "max_tokens"),
        ("https://api.openai.com/v1", "max_completion_tokens"),  # o-series refuse max_tokens
        ("https://me.openai.azure.com/openai/v1", "max_completion_tokens"),
    ],
)
def test_every_request_carries_an_output_cap_in_the_field_the_server_reads(base_url, field):
    server = Server(httpx.Response(200, json=TEXT_REPLY))
    provider_at(base_url, server).complete(question(), TOOLS)
    body = server.bodies[0]
    other = {"max_tokens", "max_completion_tokens"} - {field}
    assert body[field] == 4096 and not other & set(body)


def test_the_output_cap_is_configurable_and_zero_sends_none():
    server = Server(httpx.Response(200, json=TEXT_REPLY), httpx.Response(200, json=TEXT_REPLY))
    provider_at("http://127.0.0.1:8080/v1", server, max_tokens=512).complete(question(), TOOLS)
    provider_at("http://127.0.0.1:8080/v1", server, max_tokens=0).complete(question(), TOOLS)
    assert server.bodies[0]["max_tokens"] == 512
    assert "max_tokens" not in server.bodies[1] and "max_completion_tokens" not in server.bodies[1]


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "host", ["127.0.0.1:8080", "localhost:8080", "192.168.1.20:8000", "[::1]:8080", "ollama:11434"]
)
def test_a_read_timeout_on_a_local_server_is_not_sent_again_and_says_what_to_raise(host, stream):
    waits: list[float] = []
    server = Server(httpx.ReadTimeout("timed out"), httpx.Response(200, json=TEXT_REPLY))
    p = provider_at(f"http://{host}/v1", server, waits, stream=stream, max_retries=3, max_tokens=2048)
    with pytest.raises(ProviderTimeoutError) as caught:
        p.complete(question(), TOOLS)
    assert len(server.requests) == 1 and waits == []
    message = str(caught.value)
    assert "not sent again" in message
    assert "--read-timeout (now 120 s)" in message and "--max-tokens (now 2048)" in message


class SlowStream(httpx.SyncByteStream):
    """A streamed body whose first read times out (the server is still generating)."""

    def __iter__(self) -> Iterator[bytes]:
        raise httpx.ReadTimeout("timed out")
        yield b""  # pragma: no cover - makes this a generator


def test_a_stream_that_times_out_before_any_event_on_a_local_server_is_not_restarted():
    slow = httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=SlowStream())
    server = Server(slow, event_stream(["[DONE]"]))
    with pytest.raises(ProviderTimeoutError, match="--read-timeout"):
        provider_at("http://127.0.0.1:8080/v1", server, stream=True, max_retries=3).complete(
            question(), TOOLS
        )
    assert len(server.requests) == 1


def test_a_read_timeout_on_a_hosted_server_is_still_retried():
    waits: list[float] = []
    server = Server(httpx.ReadTimeout("timed out"), httpx.Response(200, json=TEXT_REPLY))
    reply = provider_at("https://api.example.com/v1", server, waits, max_retries=3).complete(
        question(), TOOLS
    )
    assert reply.turn.text == "42" and len(server.requests) == 2 and len(waits) == 1
