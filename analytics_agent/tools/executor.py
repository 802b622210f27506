"""Run one tool call for a model: validate, execute on the sandbox with a time limit, shape. Never raises.

Whatever goes wrong becomes an error result the model can act on (unknown tool → the real names; bad
arguments → one line per field; a failing query → one sentence). Stack traces go to the log only.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import duckdb

from analytics_agent.db.linked.stalls import cut_stalled, watching
from analytics_agent.db.values import to_jsonable
from analytics_agent.errors import ToolError, UnknownToolError
from analytics_agent.logs import logger
from analytics_agent.tools.address_space import DEFAULT_HEADROOM, PROCESS_CAP
from analytics_agent.tools.args.quick import decode_arguments
from analytics_agent.tools.base import Prepared, Tool, ToolValue
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.results.shaping import Shaped, estimate_tokens, shape_object, shape_rows
from analytics_agent.tools.watchdog import Watchdog

DEFAULT_TIMEOUT_S = 15.0
REINTERRUPT_S = 0.05
CLOSE_ATTEMPTS = 100
"""``close`` interrupts running calls every 50 ms, at most 100 times (5 s), then lets them be."""
IDLE_CURSORS = 8
"""Cursors kept for the next calls (as many as calls that ran at once, up to this): a ``.sql`` tool's
kept plan is prepared on the cursor it ran on (``fetch._run``) and a new cursor would prepare it again."""


@dataclass(frozen=True)
class ToolOutcome:
    """What a call produced: the text the model reads, whether it is an error, and facts for the trace."""

    name: str
    text: str
    is_error: bool
    rows: int = 0
    truncated: bool = False
    sql: str = ""
    params: Any = None
    """The SQL's bound values, JSON-ready (dates as ISO text)."""
    duration_ms: float = 0.0
    arguments: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def tokens(self) -> int:
        """The estimate of ``text`` (``shaping.estimate_tokens``), counted when read: the trace and the loop
        read it, a `tools call` or an MCP answer never does."""
        return estimate_tokens(self.text)


class Executor:
    def __init__(
        self,
        registry: Registry,
        connection: duckdb.DuckDBPyConnection,
        *,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        clock: Callable[[], float] = time.monotonic,
        memory_headroom: int = DEFAULT_HEADROOM,
    ) -> None:
        self.registry = registry
        self.connection = connection
        self.timeout_s = timeout_s
        self.memory_headroom = memory_headroom  # address space a call may add (address_space.py)
        self._watchdog = Watchdog(clock)  # the clock of the time limit alone; tests move it
        self._catalog_watchdog = Watchdog()  # a tool's first use, before its query's own limit starts
        self._live: set[duckdb.DuckDBPyConnection] = set()  # cursors of calls running now
        self._stopped: set[duckdb.DuckDBPyConnection] = set()  # of those, the ones stop_running interrupted
        self._idle: list[duckdb.DuckDBPyConnection] = []  # cursors of calls that ended, for the next ones
        self._live_changed = threading.Condition()
        self._closed = False
        self._stopping = False  # while stop_running waits, no call starts a query

    def close(self) -> None:
        """Stop the calls still running (Ctrl-C during parallel calls), then the watchdog thread; the
        connection belongs to the caller. A running query is interrupted at once rather than left to its
        time limit: the caller closes the connection next, which DuckDB refuses while a cursor is busy,
        and a query left running would hold the process at exit."""
        with self._live_changed:
            self._closed = True
        self.stop_running()
        self._watchdog.stop()
        self._catalog_watchdog.stop()
        with self._live_changed:
            idle, self._idle = self._idle, []
        for cursor in idle:
            cursor.close()

    def stop_running(self, until: Callable[[], bool] = lambda: True) -> None:
        """Interrupt the calls running now and wait (at most ``CLOSE_ATTEMPTS`` rounds) for them to end:
        after a Ctrl-C in a chat the next question must not share the connection with the dropped one's
        queries, which would otherwise run on to their time limit.

        ``until`` says when the caller's calls are all over. A call its worker has begun but that holds
        no cursor yet is not in ``_live``: until then a call asking for a cursor is refused, so it
        cannot start its query after the last interrupt."""
        with self._live_changed:
            self._stopping = True
            try:
                for attempt in range(CLOSE_ATTEMPTS):
                    if not self._live and until():
                        break
                    for cursor in self._live:
                        self._stopped.add(cursor)
                        cursor.interrupt()  # again each time: one that lands before its query starts is lost
                    if attempt and self._live:
                        # a linked PostgreSQL read blocked in libpq sees no interrupt, and the connection
                        # cannot be closed while it waits: what waits for an answer now is cut
                        cut_stalled(0)
                    self._live_changed.wait(REINTERRUPT_S)
            finally:
                self._stopping = False

    def execute(self, name: str, arguments: str | dict[str, Any] | None) -> ToolOutcome:
        started = time.perf_counter()
        try:
            return self._execute(name, arguments, started)  # with its duration: no copy to make
        except ToolError as exc:
            outcome = error_outcome(name, str(exc))
        except Exception:  # the model must get an answer whatever broke; the trace goes to the log
            logger(__name__).info("tool %s failed", name, exc_info=True)  # shown with -v, never on its own
            outcome = error_outcome(
                name, f"{name} failed unexpectedly; try different arguments or another tool"
            )
        return replace(outcome, duration_ms=(time.perf_counter() - started) * 1000)

    def run_value(self, tool: Tool, arguments: dict[str, Any]) -> ToolValue:
        """Run ``tool`` (which need not be registered) under the same checks and time limit as a model's
        call, and return its unshaped value. Raises ToolError (the one-line reason) when it fails."""
        prepared = tool.prepare(decode_arguments(arguments))
        with self._cursor() as cursor, self._time_limit(tool.name, cursor.interrupt) as stalled:
            return self._run(tool, cursor, prepared, stalled)

    def _execute(self, name: str, arguments: str | dict[str, Any] | None, started: float) -> ToolOutcome:
        with self._time_limit(name, watchdog=self._catalog_watchdog):  # a first use reads the catalog
            tool = self.registry.get(name)
            if tool is None:
                raise UnknownToolError(
                    f"unknown tool {name!r}; available tools: {', '.join(self.registry.names)}"
                )
            prepared = tool.prepare(decode_arguments(arguments))
        with self._cursor() as cursor, self._time_limit(name, cursor.interrupt) as stalled:
            value = self._run(tool, cursor, prepared, stalled)
        shaped = _shape(value)
        return ToolOutcome(
            name=name,
            text=shaped.text,
            is_error=False,
            rows=shaped.rows,
            truncated=shaped.truncated,
            sql=value.sql,
            params=to_jsonable(value.params),
            duration_ms=(time.perf_counter() - started) * 1000,
            arguments=prepared.arguments,
        )

    @contextlib.contextmanager
    def _cursor(self) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor of its own for one call (one an earlier call left, or a new one), known to ``close``
        while it runs."""
        with self._live_changed:
            if self._closed:
                raise ToolError("the session is closing; the call was not run")
            if self._stopping:
                raise ToolError("the question was interrupted; the call was not run")
            cursor = self._idle.pop() if self._idle else self.connection.cursor()
            self._live.add(cursor)
        try:
            yield cursor
        finally:
            with self._live_changed:
                self._live.discard(cursor)
                self._stopped.discard(cursor)
                self._live_changed.notify_all()
                kept = not self._closed and len(self._idle) < IDLE_CURSORS
                if kept:
                    self._idle.append(cursor)
            if not kept:
                cursor.close()

    @contextlib.contextmanager
    def _time_limit(
        self, name: str, on_expiry: Callable[[], object] | None = None, watchdog: Watchdog | None = None
    ) -> Iterator[list[str]]:
        """The time limit: at its deadline ``on_expiry`` (again until the block ends), and the linked
        PostgreSQL connections that have waited that long for an answer are cut (a read blocked in
        libpq sees no interrupt; ``db/linked/stalls``). Yields the names of the sources cut: the error
        that cut causes is said as one line naming them. Without ``on_expiry``, only the cut, and only
        when a PostgreSQL source is linked."""
        stalled: list[str] = []
        if on_expiry is None and not watching():
            yield stalled
            return

        def expire() -> None:
            if on_expiry is not None:
                on_expiry()
            stalled.extend(s for s in cut_stalled(self.timeout_s) if s not in stalled)

        try:
            with (watchdog or self._watchdog).guard(self.timeout_s, expire):
                yield stalled
        except duckdb.Error:  # the catalog read by a tool's first use
            if not stalled:
                raise
            raise ToolError(stalled_message(name, stalled, self.timeout_s)) from None

    def _run(
        self, tool: Tool, cursor: duckdb.DuckDBPyConnection, prepared: Prepared, stalled: list[str]
    ) -> ToolValue:
        try:
            with PROCESS_CAP.held(self.memory_headroom):
                return prepared.run(cursor)
        except duckdb.Error as exc:
            if stalled:
                raise ToolError(stalled_message(tool.name, stalled, self.timeout_s)) from None
            raise self._failure(tool, cursor, exc) from None
        except MemoryError:  # the address space's limit
            raise ToolError(f"{tool.name} needed more memory than allowed; narrow the question") from None

    def _failure(self, tool: Tool, cursor: duckdb.DuckDBPyConnection, exc: duckdb.Error) -> ToolError:
        if cursor in self._stopped:  # whatever error the stop caused (a cut connection's too)
            return ToolError(f"{tool.name} was stopped: the question was interrupted")
        if isinstance(exc, duckdb.InterruptException):
            return ToolError(
                f"{tool.name} took longer than {self.timeout_s:g} s and was stopped; "
                "narrow the question (a shorter date range or a filter)"
            )
        if isinstance(exc, duckdb.OutOfMemoryException):
            return ToolError(f"{tool.name} needed more memory than allowed; narrow the question")
        if isinstance(exc, duckdb.PermissionException):
            return ToolError(
                f"{tool.name} could not run: the sandbox reads no files and no network, only the tables "
                "of this database; query them by name"
            )
        logger(__name__).info("tool %s: query failed: %s", tool.name, exc)
        return ToolError(f"{tool.name} could not run: {_first_line(exc)}")


def stalled_message(tool: str, sources: list[str], seconds: float) -> str:
    """Why a call on a linked source that stopped answering was ended, and what to do."""
    names = ", ".join(sources)
    return (
        f"{tool} was stopped: the PostgreSQL source {names} did not answer for {seconds:g} s (its server "
        "accepts the connection but has stopped replying); check that server, or leave sources out with "
        "--no-sources"
    )


def _shape(value: ToolValue) -> Shaped:
    if isinstance(value.value, dict):
        return shape_object(value.value)
    return shape_rows(value.value)


def error_outcome(name: str, message: str) -> ToolOutcome:
    """A failed call as the model reads it: ``Error: <one line>``."""
    text = f"Error: {message}"
    return ToolOutcome(name=name, text=text, is_error=True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
