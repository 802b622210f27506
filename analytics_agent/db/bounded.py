"""A time bound for catalog work that runs outside a tool call (profiles of linked tables, ``semantic
init``): DuckDB has no statement timeout, so a thread interrupts the connection once the bound passes."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import duckdb

REPEAT_S = 0.05
"""An interrupt that lands before a query starts is lost (DuckDB clears it), so it is sent again."""


@dataclass
class Bound:
    seconds: float
    expired: bool = False
    _done: threading.Event = field(default_factory=threading.Event)


@contextlib.contextmanager
def time_bound(conn: duckdb.DuckDBPyConnection, seconds: float) -> Iterator[Bound]:
    """Interrupt ``conn`` if the block runs past ``seconds``; ``bound.expired`` then says why it failed
    (the block sees ``duckdb.InterruptException``)."""
    bound = Bound(seconds)

    def watch() -> None:
        if bound._done.wait(seconds):
            return
        bound.expired = True
        conn.interrupt()
        while not bound._done.wait(REPEAT_S):
            conn.interrupt()

    thread = threading.Thread(target=watch, name="catalog-bound", daemon=True)
    thread.start()
    try:
        yield bound
    finally:
        bound._done.set()
        thread.join()
