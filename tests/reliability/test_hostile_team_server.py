"""``ask --server`` against a hostile team server (issue 38 round three, classes 5 and 6, on the remote
front door): a server that keeps the connection alive with a line every half second and never answers,
tool arguments nested 100,000 deep, a result of megabytes. The client ends each in one line, never hangs
and never raises out of a call; the trickling server runs in the test, the client in a child held to
1 GiB with a timeout as the safety net (nothing asserts on time)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from analytics_agent.workspace.remote import MAX_TEXT_CHARS, RemoteExecutor

WORKTREE = str(Path(__file__).resolve().parents[2])


class TricklingServer:
    """Answers the sign-in check (a POST of ``{}``) with 200, then every other request with the headers
    of an event stream and a keep-alive comment every half second, for ever."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/mcp"
        self._closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = self._listener.accept()
                threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            length = next(
                (
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                ),
                0,
            )
            while len(body) < length:
                body += conn.recv(65536)
            if body.strip() == b"{}":  # the sign-in check
                conn.sendall(
                    b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"
                )
                return
            conn.sendall(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n\r\n"
            )
            while not self._closed:
                conn.sendall(b": keep-alive\n\n")
                time.sleep(0.5)

    def close(self) -> None:
        self._closed = True
        self._listener.close()


def test_a_server_that_trickles_and_never_answers_is_one_line() -> None:
    """httpx's timeout is per read, so a keep-alive line every half second held ``--server`` for ever
    (here: past the child's 90 s safety net). Each request now has an overall deadline."""
    server = TricklingServer()
    code = f"""
        import analytics_agent.workspace.remote as remote
        from analytics_agent.errors import ConfigError
        remote.REQUEST_DEADLINE_S = 3.0  # the rule under test, made short
        try:
            remote.open_remote({server.url!r}, "aat_token")
        except ConfigError as exc:
            print("refused:", exc)
    """

    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))

    try:
        result = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=90,
            env={**os.environ, "PYTHONPATH": WORKTREE}, preexec_fn=cap,
        )  # fmt: skip
    finally:
        server.close()
    assert result.stdout == f"refused: cannot use the team server {server.url}: no answer within 3 s\n", (
        result.stdout + result.stderr[-2000:]
    )
    assert result.stdout.count("\n") == 1 and "Traceback" not in result.stderr


class Portal:
    def call(self, function, *args):
        return function(*args)


class Client:
    def __init__(self, answer) -> None:
        self.answer, self.calls = answer, []

    def call_tool(self, name, arguments):
        self.calls.append((name, arguments))
        return self.answer


def test_deep_arguments_are_an_error_the_model_reads_never_an_exception() -> None:
    """100,000-deep arguments raised RecursionError out of ``execute`` (which never raises): ``chat``
    ended. Now the model reads one error line, and nothing reaches the server."""
    import mcp_types as types

    client = Client(types.CallToolResult(content=[]))
    deep = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    outcome = RemoteExecutor(Portal(), client).execute("aggregate", deep)
    assert outcome.is_error and "not JSON" in outcome.text and "nests more than" in outcome.text
    assert client.calls == []


def test_a_result_of_megabytes_is_cut_before_the_model_reads_it() -> None:
    import mcp_types as types

    huge = "x" * (5 * MAX_TEXT_CHARS)
    outcome = RemoteExecutor(
        Portal(), Client(types.CallToolResult(content=[types.TextContent(text=huge)]))
    ).execute("list_tables", {})
    assert len(outcome.text) < MAX_TEXT_CHARS + 100
    assert outcome.text.endswith(f"…[truncated: {len(huge):,} chars]")
    json.dumps(outcome.text)  # still one string the loop can send
