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

botocore's own retries are held to the wait budget the OpenAI-compatible path has (``RetryPolicy.
wait_budget``, 300 s): with ``--max-retries 1000000`` and a deadline of days, a Bedrock endpoint that
failed every attempt was retried until the deadline (11 days), one 20 s wait after another. The guard
answers botocore's ``needs-retry`` event first: once the waits allowed so far plus the longest the next
one can be would pass the budget, it says "no retry", and botocore raises the last error as it is.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from analytics_agent.providers.limits import Deadline, ReplyLimits, bounded_chunks, read_bounded
from analytics_agent.providers.retry import RetryPolicy

log = logging.getLogger(__name__)

_CHUNK = 64 * 1024


WAIT_BUDGET = RetryPolicy().wait_budget
STANDARD_MAX_BACKOFF = 20.0
"""botocore's longest wait between attempts in its standard and adaptive modes (``ExponentialBackoff``:
``random() * min(2 ** (attempt - 1), 20)``); its legacy mode has no cap (``rand * 2 ** (attempt - 1)``)."""


class RetryBudget:
    """Allows botocore another attempt only while the waits it may have slept, each counted at its
    longest, stay within ``budget`` seconds for the request."""

    def __init__(self, budget: float, mode: str) -> None:
        self.budget = budget
        self.mode = mode
        self.waits = 0.0
        """The longest the waits allowed so far can have been, together."""

    def start(self) -> None:
        self.waits = 0.0

    def longest_wait(self, attempts: int) -> float:
        """The longest wait botocore can sleep after its ``attempts``-th attempt failed."""
        longest: float = 2.0 ** min(max(attempts - 1, 0), 64)
        return longest if self.mode == "legacy" else min(longest, STANDARD_MAX_BACKOFF)

    def needs_retry(self, attempts: int = 1, **_: Any) -> bool | None:
        """botocore's ``needs-retry`` event: False (no retry: botocore raises the last error) once the
        next wait could pass the budget; None leaves the decision to botocore's own handler."""
        longest = self.longest_wait(attempts)
        if self.waits + longest > self.budget:
            log.info(
                "Bedrock: no more retries after %d attempts: the waits would pass %g s", attempts, self.budget
            )
            return False
        self.waits += longest  # counted whether or not botocore retries: never less than it slept
        return None


def _retry_mode(client: Any) -> str:
    retries = getattr(getattr(getattr(client, "meta", None), "config", None), "retries", None) or {}
    return str(retries.get("mode") or "legacy") if isinstance(retries, dict) else "legacy"


class ReplyGuard:
    """Bounds every reply of one ``bedrock-runtime`` client while a request is open.

    Args:
        client: a botocore ``bedrock-runtime`` client this guard may hook.
        limits: the bounds.
        read_timeout: the client's configured read timeout (each attempt gets at most this).
    """

    def __init__(
        self, client: Any, limits: ReplyLimits, *, read_timeout: float, wait_budget: float = WAIT_BUDGET
    ) -> None:
        self.limits = limits
        self._read_timeout = read_timeout
        self._deadline: Deadline | None = None
        self._budget = RetryBudget(wait_budget, _retry_mode(client))
        events: Any = getattr(getattr(client, "meta", None), "events", None)
        if events is not None:  # before botocore's own retry handler: the first answer decides
            events.register_first("needs-retry.bedrock-runtime", self._budget.needs_retry)
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
        self._budget.start()
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
