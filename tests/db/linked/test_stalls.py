"""What ``stalls`` cuts, on real loopback sockets: a connection to a linked server that waits for an answer
is shut down (its blocked read returns), one that has had its answer is left alone, and so is every
connection to a server no source named. Linux only (``/proc``, ``TCP_INFO``), as the module is."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from analytics_agent.db.linked import stalls

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and TCP_INFO")


@pytest.fixture
def server(monkeypatch) -> Iterator[socket.socket]:
    """A loopback server that answers a connection's first message only if it is b"ask"."""
    monkeypatch.setattr(stalls, "_SOURCES", {})
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def answer(conn: socket.socket) -> None:
        if conn.recv(16) == b"ask":
            time.sleep(0.05)  # the answer comes after the question, not in the kernel's same tick
            conn.sendall(b"answer")

    def serve() -> None:
        while True:
            try:
                conn = listener.accept()[0]
            except OSError:
                return
            held.append(conn)
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    yield listener
    listener.close()
    for conn in held:
        conn.close()


def connect(listener: socket.socket) -> socket.socket:
    return socket.create_connection(listener.getsockname())


def test_a_waiting_connection_is_cut_and_an_answered_one_is_left(server) -> None:
    with stalls.remember("shop"):
        waiting, answered = connect(server), connect(server)
    with waiting, answered:
        answered.sendall(b"ask")
        assert answered.recv(16) == b"answer"
        waiting.sendall(b"wait")
        read: list[bytes] = []
        reader = threading.Thread(target=lambda: read.append(waiting.recv(16)))
        reader.start()
        assert stalls.cut_stalled(3600) == []  # not waiting that long yet
        assert stalls.cut_stalled(0) == ["shop"]
        reader.join(timeout=60)
        assert read == [b""]  # the blocked read returned: the connection is closed
        answered.sendall(b"more")  # still open: a send on a shut-down socket raises
        with pytest.raises(OSError):
            waiting.sendall(b"more")


def test_a_server_no_source_named_is_never_cut(server) -> None:
    other = connect(server)  # opened outside remember: not a source's
    with other:
        other.sendall(b"wait")
        assert not stalls.watching()
        assert stalls.cut_stalled(0) == []
        other.settimeout(0.2)
        with pytest.raises(TimeoutError):
            other.recv(16)  # still open and waiting
