"""The reply limits of ``providers.limits`` applied to a botocore client (Converse and ConverseStream).

botocore reads a Converse body whole and hands a ConverseStream body to its event parser as it comes;
neither has a size bound or a deadline. ``ReplyGuard`` wraps the client's HTTP session (the one object
botocore sends every attempt through, after its ``before-send`` hooks): each attempt still goes out
through that session (proxies, TLS settings and botocore's error types stay the same), with the read
timeout clamped to what is left of the request's deadline, and comes back with a body that is read in
bounded chunks:

* Converse: the body is read here, at most ``max_reply_bytes``; transport failures are raised as the
  botocore errors they would have been, so botocore's retries behave as before;
* ConverseStream: the event stream is counted chunk by chunk (botocore itself bounds one event at
  24 MiB) and cut off at the deadline.

A new attempt after the deadline is refused with the deadline's ``ProviderTimeoutError``. A client
without the expected session (another botocore version) is left unguarded rather than broken.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from analytics_agent.providers.limits import Deadline, ReplyLimits, bounded_chunks, read_bounded

log = logging.getLogger(__name__)

_CHUNK = 64 * 1024


class ReplyGuard:
    """Bounds every reply of one ``bedrock-runtime`` client while a request is open.

    Args:
        client: a botocore ``bedrock-runtime`` client this guard may hook.
        limits: the bounds.
        read_timeout: the client's configured read timeout (each attempt gets at most this).
    """

    def __init__(self, client: Any, limits: ReplyLimits, *, read_timeout: float) -> None:
        self.limits = limits
        self._read_timeout = read_timeout
        self._deadline: Deadline | None = None
        endpoint: Any = getattr(client, "_endpoint", None)
        self._session: Any = getattr(endpoint, "http_session", None)
        if self._session is None or not hasattr(self._session, "send"):
            log.info("botocore has no http_session to guard; Bedrock replies keep botocore's own limits")
            return
        endpoint.http_session = _GuardedSession(self._session, self._send)

    @contextlib.contextmanager
    def request(self, where: str = "Bedrock") -> Iterator[Deadline]:
        """The span of one model request: its deadline starts now and ends with the block."""
        self._deadline = Deadline(self.limits.deadline_s, where=where)
        try:
            yield self._deadline
        finally:
            self._deadline = None

    def _send(self, request: Any) -> Any:
        deadline = self._deadline
        if deadline is None:
            return self._session.send(request)  # outside a guarded request: as botocore would
        deadline.check()  # no new attempt (a botocore retry) after the deadline
        request.context["read_timeout"] = deadline.clamp(self._read_timeout)
        streaming = request.stream_output
        request.stream_output = True  # the body is read below, in bounded chunks, never preloaded
        response = self._session.send(request)
        body = BoundedBody(response.raw, self.limits, deadline)
        response.raw = body if streaming else _Loaded(body.read_all(request.url))
        return response


class _GuardedSession:
    """Stands in for botocore's HTTP session: ``send`` goes through the guard, the rest is the session's."""

    def __init__(self, session: Any, send: Any) -> None:
        self._session = session
        self.send = send

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class BoundedBody:
    """A urllib3 response body read through the size and deadline bounds (what ``AWSResponse`` reads)."""

    def __init__(self, raw: Any, limits: ReplyLimits, deadline: Deadline) -> None:
        self._raw = raw
        self._limits = limits
        self._deadline = deadline
        self._cut = contextlib.ExitStack()
        sock = getattr(getattr(raw, "connection", None), "sock", None)
        self._cut.enter_context(deadline.cut_off(sock))

    def stream(self, amt: int = _CHUNK, **_: Any) -> Iterator[bytes]:
        try:
            yield from bounded_chunks(
                self._raw.stream(amt), limit=self._limits.max_reply_bytes, deadline=self._deadline
            )
        finally:
            self._cut.close()

    def read_all(self, url: str) -> bytes:
        """The whole (bounded) body; a transport failure becomes the botocore error botocore retries."""
        from botocore.exceptions import ConnectionClosedError, ReadTimeoutError
        from urllib3.exceptions import ProtocolError
        from urllib3.exceptions import ReadTimeoutError as Urllib3ReadTimeout

        try:
            return read_bounded(
                self._raw.stream(_CHUNK), limit=self._limits.max_reply_bytes, deadline=self._deadline
            )
        except Urllib3ReadTimeout as exc:
            raise ReadTimeoutError(endpoint_url=url, error=exc) from None
        except ProtocolError as exc:
            raise ConnectionClosedError(endpoint_url=url, error=exc) from None
        finally:
            self.close()

    def close(self) -> None:
        self._cut.close()
        self._raw.close()


class _Loaded:
    """A body already read, in the shape ``AWSResponse`` reads it."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def stream(self, amt: int = _CHUNK, **_: Any) -> Iterator[bytes]:
        data, self._data = self._data, b""
        if data:
            yield data

    def read(self, *_: Any) -> bytes:
        data, self._data = self._data, b""
        return data

    def close(self) -> None:
        self._data = b""
