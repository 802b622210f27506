"""End the wait on a linked PostgreSQL server that stopped answering in the middle of a session.

DuckDB's postgres scanner reads through libpq's blocking calls (``PQexec``, ``PQgetCopyData``) and never
looks at an interrupt, and the server's ``statement_timeout`` cannot fire in a server that is frozen (its
backend stopped, its host gone): a tool call on such a source waited for ever, and a process whose query
thread waited could not exit. libpq's blocked read does return when its socket is shut down, with "server
closed the connection unexpectedly", and DuckDB then fails the query like any other.

So the sockets a source's ATTACH opened name its server's address (``remember``), and a call past its
time limit shuts down the sockets to those addresses that have waited longer than that limit for a reply
to what they last sent (``cut_stalled``). A connection reading a long result is receiving, and one idle
in the pool has had its answer: neither is touched. Linux only (``/proc``, ``TCP_INFO``); elsewhere
nothing is found and nothing is cut. A source reached through a Unix socket is not covered.
"""

from __future__ import annotations

import contextlib
import os
import socket
import struct
import threading
from collections.abc import Iterator

from analytics_agent.logs import logger

Endpoint = tuple[str, int]
"""A server's address as ``/proc/net/tcp`` writes it (hex) and its port."""

_LOCK = threading.Lock()
_SOURCES: dict[Endpoint, str] = {}
"""Where each linked PostgreSQL source's server is: its address, and the source's name."""
_TCP_INFO = getattr(socket, "TCP_INFO", 11)
_ESTABLISHED = "01"


@contextlib.contextmanager
def remember(source: str) -> Iterator[None]:
    """Record the servers the block connects to (a source's ATTACH) as ``source``'s."""
    before = set(_tcp_sockets())
    yield
    with _LOCK:
        for inode, (endpoint, _) in _tcp_sockets().items():
            if inode not in before:
                _SOURCES[endpoint] = source


def watching() -> bool:
    """Whether a PostgreSQL source is linked in this process: only then is there anything to cut."""
    with _LOCK:
        return bool(_SOURCES)


def cut_stalled(waited_s: float) -> list[str]:
    """Shut down every socket to a linked PostgreSQL server that has waited ``waited_s`` or longer for an
    answer; the names of the sources whose sockets were cut."""
    with _LOCK:
        known = dict(_SOURCES)
    if not known:
        return []
    cut: list[str] = []
    for endpoint, fd in _tcp_sockets().values():
        source = known.get(endpoint)
        if source is not None and _cut_if_waiting(fd, waited_s):
            logger(__name__).info(
                "source %s: cut a connection that waited %g s or more for an answer", source, waited_s
            )
            cut.append(source)
    return sorted(set(cut))


def _cut_if_waiting(fd: int, waited_s: float) -> bool:
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return False
    with sock:
        try:
            info = sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, 64)
            last_sent_ms, _, last_received_ms = struct.unpack_from("III", info, 44)
            # equal times: a connection whose startup got no answer (the kernel's handshake counts as
            # received); or a reply within the same tick, and an idle pooled connection cut costs a reconnect
            if last_received_ms < last_sent_ms or last_sent_ms < waited_s * 1000:
                return False  # answered since it last sent, or not waiting that long yet
            sock.shutdown(socket.SHUT_RDWR)  # the other descriptor's blocked read returns now
        except OSError:
            return False
    return True


def _tcp_sockets() -> dict[str, tuple[Endpoint, int]]:
    """This process's established TCP sockets: inode -> (the peer's address, a descriptor)."""
    mine = _socket_fds()
    if not mine:
        return {}
    found: dict[str, tuple[Endpoint, int]] = {}
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines, None)
                for line in lines:
                    fields = line.split()
                    if len(fields) > 9 and fields[3] == _ESTABLISHED and fields[9] in mine:
                        address, _, port = fields[2].partition(":")
                        found[fields[9]] = ((address, int(port, 16)), mine[fields[9]])
        except OSError:
            continue
    return found


def _socket_fds() -> dict[str, int]:
    """inode -> descriptor for this process's sockets."""
    found: dict[str, int] = {}
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return found
    for name in names:
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if target.startswith("socket:["):
            found[target[8:-1]] = int(name)
    return found
