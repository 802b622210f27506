"""HTTP plumbing for httpx-based providers: one typed error per failure, and ``Sender``, the only part doing
I/O, on an injected ``httpx.Client``. When to retry and how long to wait are the pure rules of ``retry``
(re-exported here, where the providers and their tests have always found them).
"""

from __future__ import annotations

import ipaddress
import logging
import random
import time
from collections.abc import Callable, Iterable
from typing import Any

import httpx

from analytics_agent.errors import (
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderRateLimitError,
    ProviderResponseError,
    ProviderTimeoutError,
)
from analytics_agent.providers.limits import read_prefix
from analytics_agent.providers.messages import (
    MESSAGE_CHARS as MESSAGE_CHARS,
)
from analytics_agent.providers.messages import (
    SNIPPET_CHARS as SNIPPET_CHARS,
)
from analytics_agent.providers.messages import (
    server_message as server_message,
)
from analytics_agent.providers.messages import (
    snippet as snippet,
)
from analytics_agent.providers.reply_json import load_reply_json
from analytics_agent.providers.retry import (
    Decision as Decision,
)
from analytics_agent.providers.retry import (
    RetryPolicy as RetryPolicy,
)
from analytics_agent.providers.retry import (
    backoff_delay as backoff_delay,
)
from analytics_agent.providers.retry import (
    decide as decide,
)
from analytics_agent.providers.retry import (
    error_code as error_code,
)
from analytics_agent.providers.retry import (
    over_budget as over_budget,
)
from analytics_agent.providers.retry import (
    retry_after_seconds as retry_after_seconds,
)
from analytics_agent.providers.retry import (
    spent as spent,
)

log = logging.getLogger(__name__)

RETRYABLE_ERRORS: tuple[type[Exception], ...] = (
    httpx.ConnectError,
    httpx.ReadError,
    httpx.WriteError,
    httpx.RemoteProtocolError,
    httpx.TimeoutException,
)
# A kept-alive connection the server closed under us: the request never reached a live handler.
DROPPED_ERRORS: tuple[type[Exception], ...] = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


def parse_json(text: str) -> Any:
    """The body as JSON, or None when it is not JSON (``reply_json``: lone surrogates replaced).

    Raises:
        ProviderResponseError: the JSON nests deeper than any reply should.
    """
    try:
        return load_reply_json(text)
    except ValueError:
        return None


def status_error(status: int, payload: Any, text: str, *, where: str, why: str = "") -> ProviderError:
    """One typed error for a failed response, carrying the server's message and the status."""
    message = f"{where} returned {status}: {server_message(payload, text)}"
    if status == 404:
        message += " (check the base URL, usually ending in /v1, and the model name)"
    if why:
        message += f" ({why})"
    code = error_code(payload)
    if status in (401, 403):
        return ProviderAuthError(message, status=status, code=code)
    if status == 429:
        return ProviderRateLimitError(message, status=status, code=code)
    if status == 408:
        return ProviderTimeoutError(message, status=status, code=code)
    if payload is None:
        return ProviderResponseError(message, status=status, code=code)
    return ProviderError(message, status=status, code=code)


def transport_error(exc: Exception, *, where: str, attempts: int, timeout_hint: str = "") -> ProviderError:
    """One typed error for a request that got no response.

    ``timeout_hint``: what to change when the server is too slow (replaces the generic advice)."""
    tried = f" after {attempts} attempts" if attempts > 1 else ""
    if isinstance(exc, httpx.ConnectTimeout):
        return ProviderTimeoutError(f"connecting to {where} timed out{tried}; is the server running?")
    if isinstance(exc, httpx.TimeoutException):
        advice = timeout_hint or "raise the read timeout for slow local models, or try again"
        return ProviderTimeoutError(f"{where} did not answer in time{tried} ({type(exc).__name__}); {advice}")
    if isinstance(exc, httpx.ConnectError):
        return ProviderConnectionError(
            f"cannot connect to {where}{tried}: {_reason(exc)}; is the server running?"
        )
    return ProviderConnectionError(f"{where} dropped the connection{tried}: {_reason(exc)}")


def is_local_host(host: str) -> bool:
    """A server on this machine or this network: loopback, a private or link-local address, ``localhost``,
    ``*.local``, or a one-label name (a container or LAN host). No DNS lookup: the name as written decides."""
    name = host.strip("[]").lower().rstrip(".")
    if not name:
        return False
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return name == "localhost" or name.endswith((".localhost", ".local")) or "." not in name
    mapped = getattr(address, "ipv4_mapped", None)
    if mapped is not None:
        address = mapped
    return address.is_loopback or address.is_private or address.is_link_local


def _reason(exc: Exception) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def redact(text: str, secrets: Iterable[str]) -> str:
    """Remove every secret from a text (servers sometimes echo what they were sent)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def redacted(error: ProviderError, secrets: Iterable[str]) -> ProviderError:
    """The same error with any secret removed from its message."""
    clean = type(error)(redact(Exception.__str__(error), secrets), status=error.status, code=error.code)
    return clean


class Sender:
    """Sends one request with retries on an injected client; returns a successful response or raises.

    A streamed response is returned open (the caller reads and closes it); any other is fully read.
    """

    def __init__(
        self,
        client: httpx.Client,
        *,
        where: str,
        policy: RetryPolicy,
        sleep: Callable[[float], None] = time.sleep,
        rand: Callable[[], float] = random.random,
        retry_read_timeouts: bool = True,
        timeout_hint: str = "",
    ) -> None:
        self.client = client
        self.where = where
        self.policy = policy
        self.sleep = sleep
        self.rand = rand
        self.retry_read_timeouts = retry_read_timeouts
        """False for a local server: it was busy generating, and sending the same request again only
        queues the same long generation behind the one still running (a single-slot server)."""
        self.timeout_hint = timeout_hint

    def gives_up_on(self, exc: Exception, retries_done: int) -> bool:
        """Whether a request that got no response (``exc``) is final rather than worth another attempt."""
        if retries_done >= self.policy.max_retries:
            return True
        slow = isinstance(exc, httpx.TimeoutException) and not isinstance(exc, httpx.ConnectTimeout)
        return slow and not self.retry_read_timeouts

    def no_response(self, exc: Exception, retries_done: int, why: str = "") -> ProviderError:
        """The typed error for a request that got no response after ``retries_done`` retries (``why``:
        the retry budget's sentence, when that is what ended it)."""
        error = transport_error(
            exc, where=self.where, attempts=retries_done + 1, timeout_hint=self.timeout_hint
        )
        if not why:
            return error
        return type(error)(f"{error} ({why})", status=error.status, code=error.code)

    def send(self, build: Callable[[], httpx.Request], *, stream: bool = False) -> httpx.Response:
        """Send ``build()`` until it succeeds, a failure is final, or retries run out.

        Args:
            build: makes a fresh request per attempt.
            stream: return the response unread, for server-sent events.

        Raises:
            ProviderError: the typed error for the final failure.
        """
        return self.send_counted(build, stream=stream)[0]

    def send_counted(
        self,
        build: Callable[[], httpx.Request],
        *,
        stream: bool,
        retries_done: int = 0,
        reopen_dropped: bool = False,
    ) -> tuple[httpx.Response, int]:
        """Like ``send``, also taking and returning the retries spent (a stream restart shares them).

        ``reopen_dropped``: the connection in the pool is suspect (the server just failed a request on
        it), so one dropped connection is sent again at once on a new one, outside the retry budget.
        """
        waited = 0.0
        while True:
            try:
                response = self.client.send(build(), stream=stream)
            except RETRYABLE_ERRORS as exc:
                if reopen_dropped and isinstance(exc, DROPPED_ERRORS):
                    reopen_dropped = False
                    log.info("%s: %s on a reused connection; sending again on a new one", self.where, exc)
                    continue
                if self.gives_up_on(exc, retries_done):
                    raise self.no_response(exc, retries_done) from None
                delay = backoff_delay(retries_done, self.policy, self.rand())
                if over_budget(waited, delay, self.policy):
                    raise self.no_response(exc, retries_done, spent(retries_done, waited)) from None
                log.info("%s: %s; retrying in %.2f s", self.where, type(exc).__name__, delay)
            except httpx.HTTPError as exc:
                raise self.no_response(exc, 0) from None
            else:
                if response.is_success:
                    return response, retries_done
                delay = self._failed(response, retries_done, waited)
            self.sleep(delay)
            waited += delay
            retries_done += 1

    def _failed(self, response: httpx.Response, retries_done: int, waited: float) -> float:
        """Read a failed response; return the wait before the next attempt, or raise its error."""
        try:
            # Only the start of a failed body is read: its message is there, and its size is the server's.
            text = read_prefix(response.iter_bytes()).decode(response.encoding or "utf-8", errors="replace")
        except httpx.HTTPError:
            text = ""
        finally:
            response.close()
        payload = parse_json(text)
        decision = decide(
            response.status_code,
            response.headers,
            payload,
            retries_done=retries_done,
            policy=self.policy,
            rand=self.rand(),
            waited=waited,
        )
        if not decision.retry:
            raise status_error(response.status_code, payload, text, where=self.where, why=decision.why)
        log.info("%s returned %d; retrying in %.2f s", self.where, response.status_code, decision.delay)
        return decision.delay
