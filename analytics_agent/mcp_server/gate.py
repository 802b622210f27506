"""Fair turns for tool calls: one client's thousand slow calls must not starve every other client.

Each client runs at most ``per_client`` calls at once and all clients together at most ``overall`` (by
default the machine's cores: each DuckDB query is parallel already, more at once only thrash); a client's
extra calls wait on their own queue, so another client's call gets the next free worker. A client with
``queued_per_client`` calls already running or waiting is told it is busy, in one line, instead of
queueing without end; so is a signed-in user past their rate (a token bucket: ``rate`` calls a second
on average, ``burst`` at once; a session costs nothing to open, so a rate per session would hold nobody).

A client is a signed-in user (``who``: every session of one user shares one share) or, for a process
without sign-in, the MCP session the request came on (``client_of``). ``close`` turns new calls away
while ``drained`` waits for the running ones: a server that shuts down finishes what it started.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable, Hashable, Mapping
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import anyio

from analytics_agent.errors import ConfigError
from analytics_agent.team.principal import Principal

T = TypeVar("T")
OVERALL = max(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 2)
PER_CLIENT = 4
QUEUED_PER_CLIENT = 64
QUICK_WORKERS = 2
"""Workers of their own for the catalog reads (``quick``): listing tables never waits behind slow queries."""
WAIT_S = 60.0
"""How long a call may wait for its turn and a free worker before it is refused; once running, its query
has a time limit of its own (the executor's, 15 s), so no request lasts longer than the two together."""
RATE = 5.0
"""Calls a second one client may make on average …"""
BURST = 60
"""… and at once after a quiet spell (an agent's first look at a database is a burst of calls)."""
MAX_RATE = 1_000.0
MAX_BURST = 100_000


def call_limits(rate: float | None, burst: int | None, *, signed_in: bool) -> dict[str, Any]:
    """``--rate`` and ``--burst`` checked (``CallGate``'s keywords; the defaults where not given). They
    limit signed-in users only, so given without sign-in they would limit no one: refused, as is a
    value that is not a finite positive number (``nan`` fails every comparison). Pure."""
    if rate is not None and not (isinstance(rate, int | float) and 0 < rate <= MAX_RATE):
        raise ConfigError(f"--rate must be calls a second > 0 and at most {MAX_RATE:,.0f}, not {rate!r}")
    if burst is not None and not (isinstance(burst, int) and 1 <= burst <= MAX_BURST):
        raise ConfigError(f"--burst must be a whole number of calls from 1 to {MAX_BURST:,}, not {burst!r}")
    given = [flag for flag, value in (("--rate", rate), ("--burst", burst)) if value is not None]
    if given and not signed_in:
        raise ConfigError(
            f"{' and '.join(given)} limit each signed-in user, and this server signs no one in: "
            "add --http --auth users (or --auth oidc), or drop the option"
        )
    return {"rate": RATE if rate is None else float(rate), "burst": BURST if burst is None else burst}


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


def who(principal: Principal, ctx: Any) -> Hashable:
    """The key fairness and rate limits count by: a signed-in user, whatever session or client they use;
    without sign-in, the client as the transport tells it (``client_of``)."""
    return client_of(ctx) if principal.local else ("user", principal.name)


def client_name(ctx: Any) -> str:
    """The name the client gives itself (``clientInfo.name``), for the audit trail; "" when none."""
    meta = getattr(ctx, "meta", None)
    info = meta.get(_CLIENT_INFO) if isinstance(meta, Mapping) else None
    if isinstance(info, Mapping):
        return str(info.get("name", ""))
    params = getattr(getattr(ctx, "session", None), "client_params", None)
    return str(getattr(getattr(params, "client_info", None), "name", "") or "")


class Busy(Exception):
    """The client already has its share of calls running or waiting."""


class RateLimited(Busy):
    """The client called faster than its rate."""


class ShuttingDown(Busy):
    """The server is stopping: it finishes the calls running, starts no new one."""


class TokenBucket:
    """``rate`` tokens a second up to ``burst``, on an injected clock (tests move it; nothing sleeps)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self._clock = rate, burst, clock
        self._tokens = float(burst)
        self._at = clock()

    def take(self) -> float:
        """0 when a token was taken; otherwise the seconds until one is due (nothing taken)."""
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self.rate

    def full(self) -> bool:
        return self._tokens + (self._clock() - self._at) * self.rate >= self.burst


class _Client:
    def __init__(self, per_client: int) -> None:
        self.turns = anyio.Semaphore(per_client)
        self.pending = 0


def _is_user(client: Hashable) -> bool:
    """Whether ``client`` is a signed-in user's key (``who``): only users have a rate."""
    return isinstance(client, tuple) and len(client) == 2 and client[0] == "user"


def _label(client: Hashable) -> str:
    return f"user {client[1]}" if isinstance(client, tuple) and _is_user(client) else "this client"


class CallGate:
    def __init__(
        self,
        *,
        overall: int = OVERALL,
        per_client: int = PER_CLIENT,
        queued_per_client: int = QUEUED_PER_CLIENT,
        rate: float = RATE,
        burst: int = BURST,
        clock: Callable[[], float] = time.monotonic,
        wait_s: float = WAIT_S,
    ) -> None:
        self._workers = anyio.CapacityLimiter(overall)
        self._threads = anyio.CapacityLimiter(overall)  # never waited on: a call holds a worker first
        self._wait_s = wait_s
        self._quick = anyio.CapacityLimiter(QUICK_WORKERS)
        self._per_client = min(per_client, overall)
        self._queued = queued_per_client
        self._rate, self._burst, self._clock = rate, burst, clock
        # an entry lives only while its client has calls pending, so a key made of an id() is never reused
        # while its entry exists
        self._clients: dict[Hashable, _Client] = {}
        self._buckets: dict[Hashable, TokenBucket] = {}
        self._running = 0
        self._idle = anyio.Event()
        self._idle.set()
        self.closing = False

    def close(self) -> None:
        """Start no new call from now on (each is told the server is shutting down)."""
        self.closing = True

    async def drained(self) -> None:
        """Return once no call is running or waiting."""
        await self._idle.wait()

    @property
    def running(self) -> int:
        """Calls admitted and not yet ended (running or waiting for a worker)."""
        return self._running

    async def run(self, client: Hashable, work: Callable[[], T], *, quick: bool = False) -> T:
        """``work()`` in a worker thread, in ``client``'s turn; ``quick`` work (a catalog read, which reads
        no table's rows) takes no turn and runs on workers of its own, so a client's own slow calls, and
        everyone else's, never hold its ``list_tables``.

        Raises:
            ShuttingDown: ``close`` was called.
            Busy: ``client`` already has ``queued_per_client`` calls running or waiting.
            RateLimited: ``client`` is a signed-in user past their rate.
            Busy: the call waited ``wait_s`` for its turn and a worker (it did not run).
        """
        key = client
        state = self._admit(key)
        state.pending += 1
        self._running += 1
        if self._running == 1:
            self._idle = anyio.Event()
        try:
            if quick:
                return await anyio.to_thread.run_sync(work, limiter=self._quick)
            async with self._turn(key, state):
                return await anyio.to_thread.run_sync(work, limiter=self._threads)
        finally:
            state.pending -= 1
            if state.pending == 0:
                del self._clients[key]
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    @asynccontextmanager
    async def _turn(self, key: Hashable, state: _Client) -> AsyncIterator[None]:
        """``state``'s turn and a worker, waited for at most ``wait_s``."""
        holder = object()
        with anyio.move_on_after(self._wait_s) as waiting:
            await state.turns.acquire()
            try:
                await self._workers.acquire_on_behalf_of(holder)
            except BaseException:
                state.turns.release()
                raise
        if waiting.cancelled_caught:
            raise Busy(
                f"busy: {_label(key)}'s call waited {self._wait_s:g} s for a free worker and was not run; "
                "call again later"
            )
        try:
            yield
        finally:
            self._workers.release_on_behalf_of(holder)
            state.turns.release()

    def _admit(self, key: Hashable) -> _Client:
        if self.closing:
            raise ShuttingDown("the server is shutting down; call again once it is back")
        state = self._clients.get(key)
        if state is not None and state.pending >= self._queued:
            raise Busy(
                f"busy: {_label(key)} already has {state.pending} calls running or waiting; "
                "wait for some to finish, then call again"
            )
        if _is_user(key):
            self._take_token(key)
        if state is None:
            state = self._clients[key] = _Client(self._per_client)
        return state

    def _take_token(self, key: Hashable) -> None:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) > 10_000:  # forget clients that have been quiet long enough to be full
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full()}
            bucket = self._buckets[key] = TokenBucket(self._rate, self._burst, self._clock)
        wait = bucket.take()
        if wait > 0:
            raise RateLimited(
                f"rate limit: {_label(key)} may make {self._rate:g} calls a second ({self._burst} at once); "
                f"call again in {max(wait, 0.1):.1f} s"
            )
