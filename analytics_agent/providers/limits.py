"""Bounds on what a model endpoint may send: total bytes, one stream event's bytes, and a deadline.

A malicious or broken endpoint must not be able to take the process's memory or time. Every reply is
read in chunks through these functions, never whole: a reply larger than ``max_reply_bytes``, or a
stream line/event larger than ``max_event_bytes``, stops the request with a ``ProviderResponseError``;
a request (all its retries included) still unfinished after ``deadline_s`` stops with a
``ProviderTimeoutError``, however the server trickles (keep-alive comments, one byte a second).

How the deadline holds: each attempt's connect/read timeouts are clamped to the time left, so a silent
server is cut at the deadline; every chunk received checks the clock; and once headers have arrived a
timer shuts the socket down at the deadline, so a read blocked in the HTTP library returns at once.
"""

from __future__ import annotations

import codecs
import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from analytics_agent.errors import ProviderResponseError, ProviderTimeoutError

log = logging.getLogger(__name__)

MIB = 1024 * 1024
DEFAULT_MAX_REPLY_BYTES = 32 * MIB
DEFAULT_MAX_EVENT_BYTES = 4 * MIB
DEFAULT_DEADLINE_S = 900.0
ERROR_BODY_BYTES = 64 * 1024
"""Of a failed response only this much is read: enough for any server's error message."""
MAX_TOOL_CALLS_PER_REPLY = 128
"""More calls than this in one reply is not a model at work; the reply is refused whole."""


@dataclass(frozen=True)
class ReplyLimits:
    """What one model request may cost. The defaults leave real replies (kilobytes) far inside."""

    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES
    """A whole reply: one JSON body or a whole event stream."""
    max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES
    """One server-sent-events line, or one event (its lines together)."""
    deadline_s: float = DEFAULT_DEADLINE_S
    """One model request from the first attempt to the last byte, retries and their waits included."""


class Deadline:
    """The end time of one model request.

    Args:
        seconds: from now.
        where: names the server in the error.
        clock: a monotonic clock (injected by tests).
    """

    def __init__(self, seconds: float, *, where: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.where = where
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return self._end - self._clock()

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def error(self) -> ProviderTimeoutError:
        return ProviderTimeoutError(
            f"{self.where} did not finish its reply within the {self.seconds:g} s deadline, so it was "
            "stopped; try again, or raise --request-deadline for a slow model",
            code="deadline",
        )

    def check(self) -> None:
        """Raise the deadline error once the time is up."""
        if self.expired:
            raise self.error()

    def clamp(self, timeout: float | None) -> float:
        """``timeout`` shortened to the time left (a little above zero, so a timeout stays a timeout)."""
        left = max(self.remaining(), 0.01)
        return left if timeout is None else min(timeout, left)

    def sleeper(self, sleep: Callable[[float], None]) -> Callable[[float], None]:
        """``sleep`` that never waits past the deadline (a retry after it would be refused anyway)."""
        return lambda seconds: sleep(max(0.0, min(seconds, self.remaining())))

    @contextmanager
    def cut_off(self, sock: socket.socket | None) -> Iterator[None]:
        """Shut ``sock`` down at the deadline, so a read blocked on it returns at once.

        Without a socket (a mock transport) the per-chunk checks alone apply.
        """
        if sock is None:
            yield
            return
        timer = threading.Timer(max(self.remaining(), 0.0), _shutdown, args=(sock,))
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed: nothing is blocked on it
        sock.shutdown(socket.SHUT_RDWR)


def too_many_calls(where: str) -> ProviderResponseError:
    """The refusal of a reply with more than ``MAX_TOOL_CALLS_PER_REPLY`` calls, raised by a stream
    assembler as soon as the next call starts (reading 100,000 calls first would take minutes)."""
    return ProviderResponseError(
        f"{where} sent more than {MAX_TOOL_CALLS_PER_REPLY} tool calls in one reply (at most "
        f"{MAX_TOOL_CALLS_PER_REPLY} are accepted), so it was dropped"
    )


def too_large(where: str, limit: int, what: str = "a reply") -> ProviderResponseError:
    return ProviderResponseError(
        f"{where} sent {what} larger than {_size(limit)}, so it was dropped; a real reply is far "
        "smaller: check the server"
    )


def _size(limit: int) -> str:
    return f"{limit / MIB:g} MiB" if limit >= MIB else f"{limit / 1024:g} KiB"


def bounded_chunks(
    chunks: Iterable[bytes], *, limit: int, deadline: Deadline, what: str = "a reply"
) -> Iterator[bytes]:
    """``chunks`` as they come, stopped when their total passes ``limit`` or the deadline passes.

    A transport failure after the deadline (the socket was shut down on purpose) is reported as the
    deadline, not as a dropped connection that could be retried.
    """
    total = 0
    try:
        for chunk in chunks:
            deadline.check()
            total += len(chunk)
            if total > limit:
                raise too_large(deadline.where, limit, what)
            yield chunk
    except (ProviderResponseError, ProviderTimeoutError):
        raise
    except Exception:
        if deadline.expired:
            raise deadline.error() from None
        raise
    if deadline.expired:  # a close-delimited body "ends" when the socket is shut down at the deadline
        raise deadline.error()


def read_bounded(chunks: Iterable[bytes], *, limit: int, deadline: Deadline) -> bytes:
    """All of a body, or the size/deadline error."""
    return b"".join(bounded_chunks(chunks, limit=limit, deadline=deadline))


def read_prefix(chunks: Iterable[bytes], *, limit: int = ERROR_BODY_BYTES) -> bytes:
    """At most ``limit`` bytes of a body whose rest does not matter (a failed response's message)."""
    taken = bytearray()
    for chunk in chunks:
        taken += chunk[: limit - len(taken)]
        if len(taken) >= limit:
            break
    return bytes(taken)


def bounded_lines(chunks: Iterable[bytes], *, max_event_bytes: int, deadline: Deadline) -> Iterator[str]:
    """Text lines of an event stream (without their endings), each event bounded in size.

    Lines end at ``\\n``, ``\\r\\n`` or ``\\r`` only (a JSON string may hold U+2028, which ``splitlines``
    would split). An event's lines are counted together up to the blank line that ends it, so neither
    one endless line nor endless lines without a blank one can grow past ``max_event_bytes``.
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""
    event_chars = 0
    for chunk in chunks:
        text = pending + decoder.decode(chunk)
        lines = text.replace("\r\n", "\n").split("\n")
        pending = lines.pop()  # not ended yet (a lone \r at the end may be half of \r\n)
        for line in _split_cr(lines):
            event_chars = 0 if not line else event_chars + len(line)
            yield line
        if event_chars + len(pending) > max_event_bytes:
            raise too_large(deadline.where, max_event_bytes, "a stream event")
    pending += decoder.decode(b"", final=True)
    if pending:
        yield from _split_cr([pending.removesuffix("\r")])


def _split_cr(lines: list[str]) -> Iterator[str]:
    """Lines still holding a lone ``\r`` (old Mac line ends) split there too."""
    for line in lines:
        yield from line.split("\r") if "\r" in line else (line,)
