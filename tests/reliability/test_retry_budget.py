"""However many retries a user allows, one request's retries stop once their waits pass the budget
(issue 38, item 6: "an infinite deadline with a million retries against a server that drops every
connection never ends"). Real httpx against a loopback server that reads each request and closes the
connection without answering; the sleep is injected (it sleeps nothing and counts the waits), so the
test waits for nothing and asserts on attempts and waits, never on time."""

from __future__ import annotations

import contextlib
import socket
import threading

import pytest
from loopback import read_request

from analytics_agent.conversation import Conversation, UserTurn
from analytics_agent.errors import ProviderConnectionError
from analytics_agent.providers.http import RetryPolicy, backoff_delay, decide
from analytics_agent.providers.limits import ReplyLimits
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.tools.registry import Registry

NEVER_ENDS = 5_000  # attempts past any budget: a regression fails here instead of running on


class DroppingServer:
    """Accepts every connection, reads its request, and closes it without a byte of answer."""

    def __init__(self) -> None:
        self.attempts = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}/v1"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        with contextlib.suppress(OSError):  # closed by the test
            while True:
                conn, _ = self._listener.accept()
                with conn:
                    read_request(conn)
                    self.attempts += 1

    def close(self) -> None:
        self._listener.close()


class CountedSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        if len(self.waits) > NEVER_ENDS:
            raise AssertionError(f"still retrying after {NEVER_ENDS} waits")


def test_a_million_retries_against_a_dropping_server_stop_at_the_wait_budget() -> None:
    server, sleep = DroppingServer(), CountedSleep()
    provider = OpenAIProvider(
        base_url=server.url,
        model="m",
        max_retries=1_000_000,
        sleep=sleep,
        limits=ReplyLimits(deadline_s=1_000_000),
    )
    try:
        with pytest.raises(ProviderConnectionError) as caught:
            provider.complete(Conversation(system="s", messages=[UserTurn("q")]), Registry([]))
    finally:
        provider.close()
        server.close()
    budget = RetryPolicy().wait_budget
    assert sum(sleep.waits) <= budget < sum(sleep.waits) + RetryPolicy().max_delay
    assert len(sleep.waits) < 60 and server.attempts == len(sleep.waits) + 1
    message = str(caught.value)
    assert "dropped the connection" in message and "retries stopped after" in message
    assert "\n" not in message


@pytest.mark.parametrize("headers", [{}, {"retry-after": "30"}, {"retry-after-ms": "8000"}])
def test_a_server_failing_every_attempt_is_given_up_on_at_the_wait_budget(headers: dict[str, str]) -> None:
    """The same budget for a status that asks for retries (503), with or without ``Retry-After``."""
    policy = RetryPolicy(max_retries=1_000_000)
    waited, retries = 0.0, 0
    while (
        decision := decide(503, headers, None, retries_done=retries, policy=policy, rand=0.0, waited=waited)
    ).retry:
        waited += decision.delay
        retries += 1
        assert retries < NEVER_ENDS
    assert waited <= policy.wait_budget
    assert decision.why.startswith(f"retries stopped after {retries + 1} attempts")


def test_a_few_retries_within_the_budget_are_unchanged() -> None:
    decision = decide(503, {}, None, retries_done=2, policy=RetryPolicy(), rand=0.0, waited=1.5)
    assert decision.retry and decision.delay == 2.0


def test_the_backoff_of_a_late_retry_is_the_longest_wait_not_an_overflow() -> None:
    """With retries past 1,024 the doubled wait passed a float: OverflowError, an internal error."""
    assert backoff_delay(5_000, RetryPolicy(), 0.0) == RetryPolicy().max_delay


# --- Bedrock: botocore's own retries -------------------------------------------------------------------
BEDROCK_ENV = {
    "AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE1234",
    "AWS_SECRET_ACCESS_KEY": "fake/secret+KEY/do-not-print-0123456789",
    "AWS_REGION": "us-east-1",
}


class BotocoreSleep(CountedSleep):
    """Stands in for the ``time`` module botocore's endpoint sleeps with between attempts."""

    def __getattr__(self, name: str):
        import time

        return getattr(time, name)

    def sleep(self, seconds: float) -> None:
        self(seconds)


@pytest.mark.parametrize("mode", ["standard", "legacy"])
def test_bedrocks_botocore_retries_stop_at_the_same_wait_budget(monkeypatch, serve, mode: str) -> None:
    """A real botocore ``bedrock-runtime`` client against a loopback server that answers 503 to every
    attempt, with a million attempts allowed and a deadline of eleven days: botocore retried until the
    deadline (in standard mode, one 20 s wait after another; in legacy mode each wait doubles without a
    cap). Its sleep is counted, not slept. Now it stops once the waits, each counted at its longest,
    would pass the 300 s budget of the OpenAI-compatible path, and the last error is the one line."""
    from botocore import endpoint

    from analytics_agent.errors import ProviderError
    from analytics_agent.providers.bedrock.provider import BedrockProvider

    for name, value in BEDROCK_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    server = serve(
        lambda path, headers, body: (503, {"content-type": "application/json"}, b'{"message":"busy"}')
    )
    monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", server.url)
    sleep = BotocoreSleep()
    monkeypatch.setattr(endpoint, "time", sleep)
    provider = BedrockProvider(
        model="us.amazon.nova-micro-v1:0", max_attempts=1_000_000, retry_mode=mode,
        limits=ReplyLimits(deadline_s=1_000_000),
    )  # fmt: skip
    try:
        with pytest.raises(ProviderError) as caught:
            provider.complete(Conversation(system="s", messages=[UserTurn("q")]), Registry([]))
    finally:
        provider.close()
    # botocore's waits are random() * 2 ** (attempt - 1), capped at 20 s except in legacy mode
    longest = [min(2.0 ** min(n, 1000), 1e300 if mode == "legacy" else 20.0) for n in range(len(sleep.waits))]
    assert all(w <= cap for w, cap in zip(sleep.waits, longest, strict=True)), sleep.waits
    assert sum(longest) <= RetryPolicy().wait_budget
    assert len(server.headers) == len(sleep.waits) + 1 >= 3  # it still retried
    assert "\n" not in str(caught.value)
