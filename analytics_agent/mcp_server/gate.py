"""Fair turns for tool calls: one client's thousand slow calls must not starve every other client.

Each client (one MCP session) runs at most ``per_client`` calls at once and all clients together at most
``overall``; a client's extra calls wait on their own queue, so another client's call gets the next free
worker. A client with ``queued_per_client`` calls already running or waiting is told it is busy, in one
line, instead of queueing without end.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

import anyio

T = TypeVar("T")
OVERALL = 8
PER_CLIENT = 4
QUEUED_PER_CLIENT = 64
QUICK_WORKERS = 2
"""Workers of their own for the catalog reads (``quick``): listing tables never waits behind slow queries."""


_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"


def client_of(ctx: Any) -> Hashable:
    """The client a request comes from, as far as the transport can tell.

    Not ``ctx.session``: the SDK (mcp 2.x) builds a new ``ServerSession`` for every request, so keyed on it
    every call was a client of its own and no per-client cap ever applied (issue 38: one client's 40 slow
    calls held another's ``list_tables`` for 73 s). Over Streamable HTTP a client is its session (the
    ``mcp-session-id`` header) or, in the 2026-07-28 protocol that has none, its address and the name it
    gives; over stdio the process has one client; a 2025 connection keeps its ``initialize`` parameters
    for its whole life, and that object stands for it (the SDK names no connection id publicly).
    """
    meta = getattr(ctx, "meta", None)
    info = meta.get(_CLIENT_INFO) if isinstance(meta, Mapping) else None
    name = str(info.get("name", "")) if isinstance(info, Mapping) else ""
    request = getattr(ctx, "request", None)
    headers = getattr(request, "headers", None)
    if headers is not None:
        session_id = headers.get("mcp-session-id")
        if session_id:
            return ("session", session_id)
        return ("peer", getattr(getattr(request, "client", None), "host", None), name)
    if info is not None:  # 2026-07-28 over stdio or in memory: no handshake, one client per transport
        return ("local", name)
    params = getattr(ctx.session, "client_params", None)
    return ("connection", id(params)) if params is not None else ("local", name)


class Busy(Exception):
    """The client already has its share of calls running or waiting."""


class _Client:
    def __init__(self, per_client: int) -> None:
        self.turns = anyio.Semaphore(per_client)
        self.pending = 0


class CallGate:
    def __init__(
        self,
        *,
        overall: int = OVERALL,
        per_client: int = PER_CLIENT,
        queued_per_client: int = QUEUED_PER_CLIENT,
    ) -> None:
        self._workers = anyio.CapacityLimiter(overall)
        self._quick = anyio.CapacityLimiter(QUICK_WORKERS)
        self._per_client = per_client
        self._queued = queued_per_client
        # an entry lives only while its client has calls pending, so a key made of an id() is never reused
        # while its entry exists
        self._clients: dict[Hashable, _Client] = {}

    async def run(self, client: Hashable, work: Callable[[], T], *, quick: bool = False) -> T:
        """``work()`` in a worker thread, in ``client``'s turn; ``quick`` work (a catalog read, which reads
        no table's rows) takes no turn and runs on workers of its own, so a client's own slow calls, and
        everyone else's, never hold its ``list_tables``.

        Raises:
            Busy: ``client`` already has ``queued_per_client`` calls running or waiting.
        """
        key = client
        state = self._clients.get(key)
        if state is None:
            state = self._clients[key] = _Client(self._per_client)
        if state.pending >= self._queued:
            raise Busy(
                f"busy: this client already has {state.pending} calls running or waiting; "
                "wait for some to finish, then call again"
            )
        state.pending += 1
        try:
            if quick:
                return await anyio.to_thread.run_sync(work, limiter=self._quick)
            async with state.turns:
                return await anyio.to_thread.run_sync(work, limiter=self._workers)
        finally:
            state.pending -= 1
            if state.pending == 0:
                del self._clients[key]
