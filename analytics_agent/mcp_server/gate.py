"""Fair turns for tool calls: one client's thousand slow calls must not starve every other client.

Each client (one MCP session) runs at most ``per_client`` calls at once and all clients together at most
``overall``; a client's extra calls wait on their own queue, so another client's call gets the next free
worker. A client with ``queued_per_client`` calls already running or waiting is told it is busy, in one
line, instead of queueing without end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio

T = TypeVar("T")
OVERALL = 8
PER_CLIENT = 4
QUEUED_PER_CLIENT = 64


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
        self._per_client = per_client
        self._queued = queued_per_client
        # keyed by id(): an entry lives only while its client has calls pending, so an id is never reused
        # while its entry exists
        self._clients: dict[int, _Client] = {}

    async def run(self, client: object, work: Callable[[], T]) -> T:
        """``work()`` in a worker thread, in ``client``'s turn.

        Raises:
            Busy: ``client`` already has ``queued_per_client`` calls running or waiting.
        """
        key = id(client)
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
            async with state.turns:
                return await anyio.to_thread.run_sync(work, limiter=self._workers)
        finally:
            state.pending -= 1
            if state.pending == 0:
                del self._clients[key]
