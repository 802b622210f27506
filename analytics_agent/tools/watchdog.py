"""Stop queries that run past their time limit, with one thread for all of them.

DuckDB has no statement timeout; ``cursor.interrupt()`` from another thread stops a running query. A
``threading.Timer`` per call would start a thread per call, a fixed cost larger than many of our queries.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import threading
import time
from collections.abc import Callable, Iterator

REPEAT_S = 0.05
"""How often an overdue block's ``on_expiry`` is called again, in real seconds, until the block ends."""


class Watchdog:
    """Calls each guarded block's ``on_expiry`` if the block is still running at its deadline."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock  # injectable, so tests move time instead of waiting for it
        self._wake = threading.Condition()
        self._deadlines: dict[int, tuple[float, Callable[[], object]]] = {}
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._looks_at = math.inf
        """When (on the clock) the thread looks at the deadlines next; a guard whose deadline is not
        earlier need not wake it. Waking it on every call cost a thread switch per query, about as much
        CPU as the rest of a fast call's Python."""

    @contextlib.contextmanager
    def guard(self, seconds: float, on_expiry: Callable[[], object]) -> Iterator[None]:
        with self._wake:
            token = next(self._tokens)
            deadline = self._clock() + seconds
            self._deadlines[token] = (deadline, on_expiry)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="query-watchdog", daemon=True)
                self._thread.start()
            elif deadline < self._looks_at:
                self._wake.notify()
        try:
            yield
        finally:
            with self._wake:
                self._deadlines.pop(token, None)

    def stop(self) -> None:
        """End the thread (it starts again if another block is guarded)."""
        with self._wake:
            thread, self._thread = self._thread, None
            self._stopping = True
            self._looks_at = math.inf
            self._wake.notify()
        if thread is not None:
            thread.join()
        self._stopping = False

    def _watch(self) -> None:
        with self._wake:
            while not self._stopping:
                now = self._clock()
                overdue = False
                for deadline, on_expiry in list(self._deadlines.values()):
                    if deadline <= now:
                        # Called again until the block ends: an interrupt that lands before the block's
                        # query has started is lost (DuckDB clears it when a query begins).
                        on_expiry()
                        overdue = True
                upcoming = min((d for d, _ in self._deadlines.values() if d > now), default=None)
                if overdue:
                    self._looks_at = now  # again within REPEAT_S: every guard's deadline is later
                    self._wake.wait(REPEAT_S)
                else:
                    self._looks_at = math.inf if upcoming is None else upcoming
                    self._wake.wait(None if upcoming is None else upcoming - now)
