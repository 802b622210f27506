"""What a piece of code opened and left open: file descriptors and threads new since a snapshot.

A count of the process's handles is not a stable quantity: in a pytest-xdist worker, a handle left by an
earlier test (a socket, a DuckDB file, a server thread winding down) may be closed by the garbage collector
or end while the code under test runs, so the count drops by one and a leak-free run fails (CI, 2026-12: the
soak's ``assert 16 == 17`` on a busy machine). Leaks are what the code under test opened and did not close:
descriptors and threads present now that were not in the snapshot.
"""

from __future__ import annotations

import gc
import os
import threading
from dataclasses import dataclass


def _descriptors() -> set[tuple[int, str]]:
    # A descriptor number is reused once closed: pair it with what it points to, so a closed handle whose
    # number was reused for something new still counts as new.
    found: set[tuple[int, str]] = set()
    for name in os.listdir("/proc/self/fd"):
        try:
            found.add((int(name), os.readlink(f"/proc/self/fd/{name}")))
        except OSError:  # the listing's own descriptor, closed by now
            continue
    return found


@dataclass(frozen=True)
class Handles:
    descriptors: frozenset[tuple[int, str]]
    threads: frozenset[threading.Thread]

    @classmethod
    def now(cls) -> Handles:
        gc.collect()  # what is already unreachable is not a handle anyone holds
        return cls(frozenset(_descriptors()), frozenset(threading.enumerate()))

    def opened_since(self, earlier: Handles) -> list[str]:
        """Descriptors and threads here that ``earlier`` did not have, as readable lines (empty: none)."""
        new_fds = sorted(self.descriptors - earlier.descriptors)
        new_threads = [t for t in self.threads - earlier.threads if t.is_alive()]
        return [f"fd {fd} -> {target}" for fd, target in new_fds] + [f"thread {t.name}" for t in new_threads]


def opened_since(earlier: Handles) -> list[str]:
    """What was opened after ``earlier`` and is still open now."""
    return Handles.now().opened_since(earlier)
