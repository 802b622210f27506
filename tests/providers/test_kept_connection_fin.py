"""A model server that closes a kept-alive connection gracefully (FIN, not a reset) must not fail the
request: an audit found only the reset tested. Real httpx against a raw loopback socket (the server's
closing is the point, which ``loopback.LoopbackServer`` cannot express); ``max_retries=0``, so a request
that got through did so without the retry budget."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator

import pytest
from loopback import read_request

from analytics_agent.conversation import Conversation, UserTurn
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool
from analytics_agent.tools.registry import Registry

REPLY = json.dumps(
    {"choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "42"}}]}
).encode()
JSON_REPLY = (
    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
    + str(len(REPLY)).encode() + b"\r\n\r\n" + REPLY
)  # fmt: skip
EMPTY_STREAM = (
    b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: keep-alive\r\n"
    b"transfer-encoding: chunked\r\n\r\n0\r\n\r\n"
)


class _Args(ToolArguments):
    city: str


class _Weather(Tool):
    name = "get_weather"
    description = "Current weather for a city."
    arguments = _Args


TOOLS = Registry([_Weather()])


def _question() -> Conversation:
    return Conversation(system="Answer with numbers.", messages=[UserTurn("Revenue in 2024?")])


class _Server:
    """Serves ``first`` on a connection it keeps open (no ``connection: close``), then ends that
    connection gracefully: at once (``closed`` is set after), or once the next request has arrived on it.
    A new connection then gets the JSON reply."""

    def __init__(self, first: bytes, close_after_next_request: bool) -> None:
        self.requests: list[bytes] = []
        self.closed = threading.Event()
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen()
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(
            target=self._serve, args=(first, close_after_next_request), daemon=True
        )
        self._thread.start()

    def _serve(self, first: bytes, close_after_next_request: bool) -> None:
        with contextlib.suppress(OSError):  # the client gone: nothing to serve
            self._exchange(first, close_after_next_request)

    def _exchange(self, first: bytes, close_after_next_request: bool) -> None:
        kept, _ = self._listener.accept()
        self.requests.append(read_request(kept))
        kept.sendall(first)
        if close_after_next_request:
            self.requests.append(read_request(kept))  # read whole, so closing sends FIN, not a reset
        kept.close()  # no SO_LINGER 0: a graceful close
        self.closed.set()
        fresh, _ = self._listener.accept()
        self.requests.append(read_request(fresh))
        fresh.sendall(JSON_REPLY)
        fresh.close()

    def close(self) -> None:
        if self._thread.is_alive():  # a failed test left it waiting for a connection: give it one
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=5):
                pass
        self._thread.join(timeout=30)
        self._listener.close()


@pytest.fixture
def serve() -> Iterator[Callable[[bytes, bool], _Server]]:
    made: list[_Server] = []

    def make(first: bytes, close_after_next_request: bool) -> _Server:
        made.append(_Server(first, close_after_next_request))
        return made[-1]

    yield make
    for server in made:
        server.close()


def test_a_connection_closed_gracefully_between_two_questions_is_replaced(serve) -> None:
    """An idle keep-alive timeout: the server ends the connection after its reply; the next question goes
    on a new connection."""
    server = serve(JSON_REPLY, close_after_next_request=False)
    p = OpenAIProvider(base_url=f"http://127.0.0.1:{server.port}/v1", model="m", max_retries=0)
    try:
        assert p.complete(_question(), TOOLS).turn.text == "42"
        assert server.closed.wait(30)  # the FIN was sent before the next question
        assert p.complete(_question(), TOOLS).turn.text == "42"
    finally:
        p.close()
    assert len(server.requests) == 2


def test_after_an_empty_stream_a_graceful_close_of_the_kept_connection_is_sent_again(serve) -> None:
    """The FIN twin of the reset test in test_openai_provider: after an empty event stream the server
    reads the unstreamed request on the kept connection, then closes it without a reply (httpx:
    "Server disconnected without sending a response"). The request is sent again on a new connection,
    outside the retry budget."""
    server = serve(EMPTY_STREAM, close_after_next_request=True)
    refused: list[str] = []
    p = OpenAIProvider(
        base_url=f"http://127.0.0.1:{server.port}/v1", model="m", max_retries=0, stream=True,
        on_stream_refused=lambda reason: refused.append(reason) or "",
    )  # fmt: skip
    try:
        reply = p.complete(_question(), TOOLS)
    finally:
        p.close()
    assert reply.turn.text == "42"
    assert len(refused) == 1 and p.stream is False
    assert [b'"stream": true' in r for r in server.requests] == [True, False, False], server.requests
