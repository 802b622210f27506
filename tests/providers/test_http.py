"""The retry policy and error mapping, as pure functions of status, headers and body."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from analytics_agent.errors import (
    ProviderAuthError,
    ProviderError,
    ProviderRateLimitError,
    ProviderResponseError,
)
from analytics_agent.providers.http import (
    RetryPolicy,
    backoff_delay,
    decide,
    retry_after_seconds,
    server_message,
    snippet,
    status_error,
)

POLICY = RetryPolicy(max_retries=3, max_wait=60.0)


def headers(**values: str) -> httpx.Headers:
    return httpx.Headers({k.replace("_", "-"): v for k, v in values.items()})


def test_backoff_doubles_from_half_a_second_caps_at_eight_and_jitter_only_shortens():
    assert [backoff_delay(n, POLICY, 0.0) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert backoff_delay(1, POLICY, 0.999) == pytest.approx(1.0 * (1 - 0.25 * 0.999))


def test_retry_after_ms_wins_over_retry_after():
    assert retry_after_seconds(headers(retry_after_ms="1500", retry_after="9")) == 1.5


def test_retry_after_in_seconds_and_as_an_http_date():
    assert retry_after_seconds(headers(retry_after="7")) == 7.0
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert retry_after_seconds(headers(retry_after="Thu, 01 Jan 2026 12:00:30 GMT"), now=now) == 30.0


def test_unreadable_retry_after_is_ignored():
    assert retry_after_seconds(headers(retry_after="soon")) is None
    assert retry_after_seconds(headers()) is None


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529])
def test_transient_statuses_are_retried_with_backoff(status):
    decision = decide(status, headers(), None, retries_done=1, policy=POLICY, rand=0.0)
    assert decision.retry and decision.delay == 1.0


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_never_retried_even_if_the_server_says_so(status):
    assert not decide(
        status, headers(x_should_retry="true"), None, retries_done=0, policy=POLICY, rand=0
    ).retry


def test_an_exhausted_quota_is_not_retried_whichever_field_names_it():
    for payload in (
        {"error": {"message": "You exceeded your current quota", "type": "insufficient_quota", "code": None}},
        {"error": {"message": "quota", "code": "insufficient_quota"}},
    ):
        assert not decide(429, headers(), payload, retries_done=0, policy=POLICY, rand=0).retry


def test_x_should_retry_overrides_the_status():
    assert not decide(503, headers(x_should_retry="false"), None, retries_done=0, policy=POLICY, rand=0).retry
    assert decide(418, headers(x_should_retry="true"), None, retries_done=0, policy=POLICY, rand=0).retry


def test_the_servers_wait_is_honoured_up_to_the_limit_and_beyond_it_the_error_says_when():
    assert decide(429, headers(retry_after="12"), None, retries_done=0, policy=POLICY, rand=0).delay == 12.0
    too_long = decide(429, headers(retry_after="600"), None, retries_done=0, policy=POLICY, rand=0)
    assert not too_long.retry
    assert "wait 600 s" in too_long.why and "try again after" in too_long.why


def test_retries_stop_after_max_retries():
    decision = decide(503, headers(), None, retries_done=3, policy=POLICY, rand=0)
    assert not decision.retry and "4 attempts" in decision.why


def test_server_message_comes_from_the_error_object_or_a_top_level_message_or_the_text():
    assert server_message({"error": {"message": "bad key"}}, "") == "bad key"
    cerebras = {"code": "request_quota_exceeded", "message": "Requests per second limit exceeded"}
    assert server_message(cerebras, "") == "Requests per second limit exceeded"
    assert (
        server_message({"code": 500, "message": "Unsupported param: tools"}, "") == "Unsupported param: tools"
    )
    assert server_message(None, "plain text failure") == "plain text failure"


def test_html_snippets_are_reduced_to_short_visible_text():
    page = (
        "<html><head><title>502 Bad Gateway</title><style>p{}</style></head><body><h1>Bad</h1></body></html>"
    )
    assert snippet(page) == "502 Bad Gateway Bad"
    assert len(snippet("x" * 1000)) == 200


@pytest.mark.parametrize(
    "status, payload, kind",
    [
        (401, {"error": {"message": "Incorrect API key"}}, ProviderAuthError),
        (403, {"error": {"message": "no access"}}, ProviderAuthError),
        (429, {"message": "slow down"}, ProviderRateLimitError),
        (400, {"error": {"message": "bad request"}}, ProviderError),
        (502, None, ProviderResponseError),
    ],
)
def test_each_status_maps_to_one_typed_error_with_status_and_message(status, payload, kind):
    error = status_error(status, payload, "<html>gateway</html>", where="OpenAI-compatible server at h")
    assert type(error) is kind
    assert error.status == status
    assert str(error).startswith(f"OpenAI-compatible server at h returned {status}: ")


def test_a_404_hints_at_the_base_url_and_model():
    error = status_error(404, {"error": {"message": "model not found"}}, "", where="w")
    assert "base URL" in str(error) and "model" in str(error)
