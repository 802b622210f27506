"""The stdio server: our own front for the start of a session, the SDK from the first message it leaves.

A desktop client starts the server, does the handshake and lists the tools, often long before the user
asks anything. ``import mcp.server`` alone costs about 1.7 s of CPU, so the front answers ``initialize``,
``notifications/initialized``, ``ping`` and ``tools/list`` itself (``wire``), and meanwhile lets go of the
idle database and announces changes as the SDK server's watcher does. The first message it does not
answer hands the session over: the SDK server starts on a stream that replays the client's
``initialize`` (under an id no client uses, its answer dropped) and ``notifications/initialized``, then
that message and everything after it. The client sees one server.

Like the SDK's stdio transport, the front points file descriptor 0 at the null device and 1 at stderr
while it serves, so a stray ``print`` or a child process cannot write into the protocol.
"""

from __future__ import annotations

import io
import json
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from analytics_agent.mcp_server import wire

if TYPE_CHECKING:
    from analytics_agent.team.audit import AuditLog
    from analytics_agent.tools.registry import Registry
    from analytics_agent.workspace.live import LiveWorkspace

log = logging.getLogger(__name__)
DEFAULT_POLL_S = 0.5
REPLAY_ID = "analytics-agent/front/replayed-initialize"
"""The id of the ``initialize`` replayed to the SDK at handover; its answer is dropped."""


class Session:
    """What the front has answered, and what the SDK must be shown first when it takes over."""

    def __init__(self, registry: Callable[[], Registry], server_version: str) -> None:
        self._registry = registry
        self._version = server_version
        self._opened = False
        self.initialized = False
        """``notifications/initialized`` arrived: the client may now be told about changes."""
        self.replay: list[bytes] = []
        self._listed: tuple[object, dict[str, Any]] | None = None

    def answer(self, line: bytes) -> bytes | None:
        """The reply to ``line`` (empty for a notification), or None: the SDK must take this one."""
        message = wire.parse(line)
        if message is None:
            return None
        if not self._opened:
            requested = wire.plain_initialize(message.params) if message.method == "initialize" else None
            if message.id is None or requested is None:
                return None  # a request before initialize, a 2026-07-28 client, …: the SDK's answers
            self._opened = True
            self.replay.append(wire.request(REPLAY_ID, "initialize", message.params))
            return wire.response(message.id, wire.initialize_result(wire.negotiate(requested), self._version))
        if message.id is None:
            if message.method != "notifications/initialized" or self.initialized:
                return None
            if not wire.plain_params(message.params):
                return None
            self.initialized = True
            self.replay.append(line + b"\n")
            return b""
        if message.method == "ping" and wire.plain_params(message.params):
            return wire.response(message.id, {})
        if message.method == "tools/list" and wire.plain_params(message.params, "cursor"):
            return wire.response(message.id, self._tools())
        return None

    def _tools(self) -> dict[str, Any]:
        registry = self._registry()
        if self._listed is None or self._listed[0] is not registry:  # rendered once per registry
            self._listed = (registry, wire.tools_list_result(registry.mcp_tools()))
        return self._listed[1]


def serve(
    live: LiveWorkspace,
    *,
    timezone: str | None = None,
    poll_s: float = DEFAULT_POLL_S,
    trail: AuditLog | None = None,
) -> None:
    """Serve ``live`` on stdin/stdout until the client closes stdin; tool calls (always the SDK's to answer)
    go to ``trail`` when given."""
    wire_in, wire_out = _claim_stdio()
    chunks: queue.Queue[bytes] = queue.Queue()
    threading.Thread(target=_read, args=(wire_in, chunks), name="mcp-stdin", daemon=True).start()
    session = Session(lambda: live.registry, wire.server_version())
    try:
        rest = _front(session, live, chunks, wire_out, poll_s)
        if rest is not None:
            _handover(live, timezone, poll_s, rest, chunks, wire_out, trail)
    except BrokenPipeError:  # the client went away mid-answer: nothing is left to tell it
        pass
    finally:
        _release_stdio(wire_in, wire_out)


def _front(
    session: Session, live: LiveWorkspace, chunks: queue.Queue[bytes], out: int, poll_s: float
) -> bytes | None:
    """Answer what the front can; the bytes the SDK must read first once it cannot, None at EOF."""
    pending = b""
    due = time.monotonic() + poll_s
    while True:
        try:
            chunk: bytes | None = chunks.get(timeout=max(0.0, due - time.monotonic()))
        except queue.Empty:
            chunk = None
        if time.monotonic() >= due:
            _tick(live, session, out)
            due = time.monotonic() + poll_s
        if chunk is None:
            continue
        if chunk == b"":
            if not pending:
                return None
            chunks.put(b"")  # the SDK reads a last line without its newline, then the end
            return b"".join(session.replay) + pending
        pending += chunk
        while (end := pending.find(b"\n")) >= 0:
            line, pending = pending[:end], pending[end + 1 :]
            reply = session.answer(line)
            if reply is None:
                return b"".join([*session.replay, line, b"\n", pending])
            if reply:
                _write(out, reply)


def _tick(live: LiveWorkspace, session: Session, out: int) -> None:
    """What the SDK server's watcher does: let go of the idle database, say when another process changed it."""
    try:
        change = live.tick()
    except Exception:  # a watcher that dies would lock the user out of their file; log and go on
        log.exception("checking the database for changes failed")
        return
    if not session.initialized:
        return
    if change.tools:
        log.info("the tools changed; telling clients")
        _write(out, wire.notification(wire.TOOLS_CHANGED))
    if change.tables:
        _write(out, wire.notification(wire.RESOURCES_CHANGED))


def _handover(
    live: LiveWorkspace,
    timezone: str | None,
    poll_s: float,
    prefix: bytes,
    chunks: queue.Queue[bytes],
    out: int,
    trail: AuditLog | None = None,
) -> None:
    """Run the SDK server on the replayed session, then the rest of stdin, until the client closes it."""
    import anyio
    from mcp.server.stdio import stdio_server

    from analytics_agent.mcp_server.server import build_server

    log.info("handing the session to the MCP SDK")
    server = build_server(live, timezone=timezone, poll_s=poll_s, trail=trail)
    reader = io.TextIOWrapper(
        io.BufferedReader(_Replayed(prefix, chunks)), encoding="utf-8", errors="replace"
    )
    writer = _Outgoing(out)

    async def main() -> None:
        stdin = anyio.wrap_file(cast("io.TextIOWrapper", reader))
        stdout = anyio.wrap_file(cast("io.TextIOWrapper", writer))
        async with stdio_server(stdin, stdout) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


class _Replayed(io.RawIOBase):
    """``prefix``, then what the reader thread reads from the client, then the end."""

    def __init__(self, prefix: bytes, chunks: queue.Queue[bytes]) -> None:
        self._held = prefix
        self._chunks = chunks
        self._ended = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._held and not self._ended:
            self._held = self._chunks.get()
            self._ended = not self._held
        size = min(len(buffer), len(self._held))
        buffer[:size] = self._held[:size]
        self._held = self._held[size:]
        return size


class _Outgoing(io.TextIOBase):
    """The SDK's lines to the client, less its answer to the replayed ``initialize``."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._pending = ""
        self._dropped = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._pending += text
        while (end := self._pending.find("\n")) >= 0:
            line, self._pending = self._pending[: end + 1], self._pending[end + 1 :]
            if not self._dropped and REPLAY_ID in line and self._is_replay_answer(line):
                continue
            _write(self._fd, line.encode("utf-8"))
        return len(text)

    def _is_replay_answer(self, line: str) -> bool:
        try:
            message = json.loads(line)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("id") != REPLAY_ID or "method" in message:
            return False
        self._dropped = True
        if "error" in message:  # the front said yes where the SDK says no: every later call would fail
            log.error("the MCP SDK refused the client's initialize at handover: %s", message["error"])
        return True


def _read(fd: int, chunks: queue.Queue[bytes]) -> None:
    """The only reader of the client's stream, front and SDK alike; b"" marks the end."""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        chunks.put(chunk)
        if not chunk:
            return


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _claim_stdio() -> tuple[int, int]:
    """Private copies of the client's streams; fd 0 then reads the null device and fd 1 writes to stderr."""
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    os.dup2(2, 1)
    return wire_in, wire_out


def _release_stdio(wire_in: int, wire_out: int) -> None:
    sys.stdout.flush()
    os.dup2(wire_in, 0)
    os.dup2(wire_out, 1)
