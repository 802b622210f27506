"""A hard bound on the memory tool calls take: the process's address space, held while calls run.

DuckDB's ``memory_limit`` covers its buffer manager, not every allocation: a value built by a scalar
function (``replace`` of a long text by a long text, a list of long strings from ``list_transform``, the
text of such a list) grew to 4-5 GB against the 1 GB limit (issue 38), and ``run_sql``'s checks can refuse
known builders, not every product of sizes. The kernel's ``RLIMIT_AS`` bounds every allocation of the
process, whichever library makes it. While at least one call runs, the soft limit is the address space in
use when the first of them began plus a headroom; an allocation past it fails (DuckDB raises its
OutOfMemoryException, Python a MemoryError), the call ends with one line and its memory is given back.
When the last call ends the previous limit is back, so a load or the model's reply is never held to it.

The limit is the process's, not a thread's: while an over-the-cap call runs, other work of the process
that allocates then may fail too; it lasts as long as that call. Only Linux reports the address space in
use (``/proc/self/statm``) and enforces ``RLIMIT_AS``; elsewhere calls run without this bound.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

try:
    import resource
except ImportError:  # Windows
    resource = None  # type: ignore[assignment]

GIB = 1024**3
DEFAULT_HEADROOM = 3 * GIB
"""Address space a call may add to what the process held when it began: DuckDB's 1 GB memory limit, and
as much again for what it maps and never touches (a query stopped at the 1 GB limit had taken 1.5 GB of
address space), and 1 GB for the rows fetched into Python. Measured in docs/safety.md."""
_STATM = "/proc/self/statm"


def address_space() -> int | None:
    """Bytes of address space the process holds now, or None where the system does not say."""
    try:
        pages = int(os.pread(_statm(), 64, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * _PAGE


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_kept: tuple[int, int] | None = None  # (pid, fd): reading a kept file costs 5 us, opening it 30 us


def _statm() -> int:
    """A descriptor of ``/proc/self/statm`` kept open, opened again in a forked child (whose ``self``
    is another process)."""
    global _kept
    pid = os.getpid()
    if _kept is None or _kept[0] != pid:
        _kept = (pid, os.open(_STATM, os.O_RDONLY | os.O_CLOEXEC))
    return _kept[1]


class AddressSpaceCap:
    """Counts the calls running; the first sets the soft ``RLIMIT_AS``, the last puts the old one back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._previous: tuple[int, int] | None = None  # the limits to put back; None: none were set

    @contextlib.contextmanager
    def held(self, headroom: int = DEFAULT_HEADROOM) -> Iterator[None]:
        with self._lock:
            if self._running == 0:
                self._previous = _lower(headroom)
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                if self._running == 0 and self._previous is not None:
                    _set(self._previous)
                    self._previous = None


def _lower(headroom: int) -> tuple[int, int] | None:
    """Lower the soft limit to the address space in use plus ``headroom`` (never above a limit already
    set); return the limits to put back, or None when nothing was changed."""
    used = address_space()
    if resource is None or used is None:
        return None
    previous = resource.getrlimit(resource.RLIMIT_AS)
    soft, hard = previous
    cap = used + headroom
    for limit in (soft, hard):
        if limit != resource.RLIM_INFINITY:
            cap = min(cap, limit)
    if cap == soft:
        return None
    return previous if _set((cap, hard)) else None


def _set(limits: tuple[int, int]) -> bool:
    try:
        resource.setrlimit(resource.RLIMIT_AS, limits)
    except (ValueError, OSError):  # a system that does not take the limit: run without it
        return False
    return True


PROCESS_CAP = AddressSpaceCap()
"""The one counter of the process (the limit is the process's): every executor holds it around a call."""
