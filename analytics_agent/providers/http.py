"""HTTP plumbing for httpx-based providers: when to retry, how long to wait, and one typed error per failure.

The decisions are pure functions of (status, headers, body, attempt), so they are tested without a
network; ``Sender`` is the only part doing I/O, on an injected ``httpx.Client``. Policy, close to
openai-python's: retry 408/409/429/5xx and dropped connections with exponential backoff and jitter,
honour ``retry-after-ms`` / ``Retry-After`` / ``x-should-retry``, and never retry client errors or an
exhausted quota (waiting does not refill it).
"""

from __future__ import annotations

import email.utils
import ipaddress
import logging
import random
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
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
from analytics_agent.providers.refusals import brief_validation, is_request_rejection
from analytics_agent.providers.reply_json import load_reply_json

log = logging.getLogger(__name__)

NEVER_RETRY = frozenset({400, 401, 403, 404, 422})
QUOTA_CODES = frozenset({"insufficient_quota"})
SNIPPET_CHARS = 200
MESSAGE_CHARS = 400
RETRYABLE_ERRORS: tuple[type[Exception], ...] = (
    httpx.ConnectError,
    httpx.ReadError,
    httpx.WriteError,
    httpx.RemoteProtocolError,
    httpx.TimeoutException,
)
# A kept-alive connection the server closed under us: the request never reached a live handler.
DROPPED_ERRORS: tuple[type[Exception], ...] = (httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. ``max_retries`` counts retries, not attempts."""

    max_retries: int = 3
    max_wait: float = 60.0
    base_delay: float = 0.5
    max_delay: float = 8.0
    jitter: float = 0.25
    wait_budget: float = 300.0
    """The waits of one request's retries together: however many retries are allowed (a million, with a
    deadline of eleven days), a server that drops every connection is given up on once the next wait
    would pass this, after about 40 retries at the longest backoff."""


@dataclass(frozen=True)
class Decision:
    retry: bool
    delay: float = 0.0
    why: str = ""
    """When not retrying although the status is transient: the sentence to add to the error."""


def backoff_delay(retry_number: int, policy: RetryPolicy, rand: float) -> float:
    """Exponential backoff for the ``retry_number``-th retry (0-based), reduced by up to ``jitter``."""
    # 2**1024 is past a float (OverflowError on the 1,025th retry); the cap is reached long before 2**64
    delay: float = min(policy.base_delay * 2 ** min(retry_number, 64), policy.max_delay)
    return delay * (1 - policy.jitter * rand)


def retry_after_seconds(headers: Mapping[str, str], *, now: datetime | None = None) -> float | None:
    """The server's requested wait: ``retry-after-ms``, else ``Retry-After`` in seconds or an HTTP date."""
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(float(ms) / 1000, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def error_code(payload: Any) -> str | None:
    """The machine-readable error code/type from ``{"error": {...}}`` or a top-level object (Cerebras)."""
    if not isinstance(payload, dict):
        return None
    inner = payload.get("error")
    source = inner if isinstance(inner, dict) else payload
    for key in ("code", "type"):
        value = source.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def _is_quota(payload: Any) -> bool:
    if not isinstance(payload, dict):
        return False
    source = error if isinstance(error := payload.get("error"), dict) else payload
    return any(source.get(key) in QUOTA_CODES for key in ("code", "type"))


def decide(
    status: int,
    headers: Mapping[str, str],
    payload: Any,
    *,
    retries_done: int,
    policy: RetryPolicy,
    rand: float,
    waited: float = 0.0,
) -> Decision:
    """Whether to retry a failed response, and after how long.

    Args:
        status: HTTP status of the failed response.
        headers: its headers (case-insensitive mapping).
        payload: the parsed JSON body, or None when it was not JSON.
        retries_done: retries already made for this request.
        policy: limits.
        rand: a number in [0, 1) for the jitter (injected so tests are exact).
        waited: seconds this request has already waited between attempts (``policy.wait_budget``).
    """
    should = (headers.get("x-should-retry") or "").lower()
    if should == "false" or status in NEVER_RETRY or _is_quota(payload):
        return Decision(False)
    if status >= 500 and is_request_rejection(status, server_message(payload, "")):
        return Decision(False)  # e.g. a 500 that is llama-cpp-python refusing the body: resending cannot help
    if should != "true" and status not in (408, 409, 429) and status < 500:
        return Decision(False)
    if retries_done >= policy.max_retries:
        return Decision(False, why=f"gave up after {retries_done + 1} attempts")
    wanted = retry_after_seconds(headers)
    if wanted is not None and wanted > policy.max_wait:
        return Decision(False, why=_later(wanted))
    delay = backoff_delay(retries_done, policy, rand) if wanted is None else wanted
    if over_budget(waited, delay, policy):
        return Decision(False, why=spent(retries_done, waited))
    return Decision(True, delay)


def over_budget(waited: float, delay: float, policy: RetryPolicy) -> bool:
    """Whether waiting ``delay`` more would take a request's waits past ``policy.wait_budget``."""
    return waited + delay > policy.wait_budget


def spent(retries_done: int, waited: float) -> str:
    return f"retries stopped after {retries_done + 1} attempts and {waited:.0f} s of waiting between them"


def _later(seconds: float) -> str:
    at = datetime.now(UTC).timestamp() + seconds
    clock = datetime.fromtimestamp(at, UTC).strftime("%H:%M:%S UTC")
    return f"the server asks to wait {seconds:.0f} s; try again after {clock}"


def server_message(payload: Any, text: str) -> str:
    """The server's own words, on one line of at most ``MESSAGE_CHARS``: ``error.message``, a top-level
    ``message``/``detail``, or a text snippet. (A validation error can list every field of a union.)"""
    if isinstance(payload, dict):
        inner = payload.get("error")
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            return _brief(inner["message"])
        if isinstance(inner, str) and inner:
            return _brief(inner)
        for key in ("message", "detail"):
            if isinstance(payload.get(key), str) and payload[key]:
                return _brief(payload[key])
    return snippet(text)


def _brief(message: str) -> str:
    return snippet(brief_validation(message), limit=MESSAGE_CHARS)


def snippet(text: str, *, limit: int = SNIPPET_CHARS) -> str:
    """A short one-line excerpt of a body; HTML is reduced to its visible text."""
    if "<" in text and re.search(r"<(html|head|body|title|h1|!doctype)", text, re.IGNORECASE):
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.IGNORECASE | re.DOTALL)
        text = re.sub(r"<[^>]+>", " ", text)
    text = " ".join(text.split())
    if not text:
        return "(empty body)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
