"""When an HTTP provider call is retried and how long it waits. Pure functions of (status, headers, body,
attempt), tested without a network. Policy, close to openai-python's: retry 408/409/429/5xx and dropped
connections with exponential backoff and jitter, honour ``retry-after-ms`` / ``Retry-After`` /
``x-should-retry``, and never retry client errors or an exhausted quota (waiting does not refill it).
"""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from analytics_agent.providers.messages import server_message
from analytics_agent.providers.refusals import is_request_rejection

NEVER_RETRY = frozenset({400, 401, 403, 404, 422})
QUOTA_CODES = frozenset({"insufficient_quota"})


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
