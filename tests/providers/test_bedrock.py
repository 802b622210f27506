"""BedrockProvider with a real bedrock-runtime client: Stubber, and botocore's real parsers via before-send.

Nothing reaches AWS: credentials are fake (from the environment), the Stubber answers Converse calls, and
``FakeBedrock`` answers at the HTTP layer (JSON bodies, hand-encoded event-stream frames, error headers).
Every request is checked against ``bedrock_rules``.
"""

from __future__ import annotations

import copy
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bedrock_fake import (
    FAKE_ENV,
    SECRETS,
    Failure,
    FakeBedrock,
    make_client,
    reasoning,
    reply,
    text,
    tool_use,
)
from bedrock_rules import check_request

from analytics_agent.conversation import (
    Conversation,
    ToolCall,
    ToolResult,
    ToolResults,
    UserTurn,
)
from analytics_agent.errors import (
    ConfigError,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderRateLimitError,
    ProviderTimeoutError,
)
from analytics_agent.providers.bedrock.provider import BedrockProvider
from analytics_agent.tools.registry import Registry

MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
NO_TOOLS = Registry([])


@pytest.fixture
def fake_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in FAKE_ENV.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries happen as configured, without the seconds of sleep between them."""
    from botocore.retries import standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)


def provider_for(fake: FakeBedrock, **options: Any) -> BedrockProvider:
    provider = BedrockProvider(model=MODEL, region="us-east-1", **options)
    fake.attach(provider.client)
    return provider


def ask(text_: str) -> Conversation:
    return Conversation(system="You answer with numbers.", messages=[UserTurn(text_)])


# --------------------------------------------------------------------------- client and configuration


def test_the_client_gets_explicit_retries_and_a_long_read_timeout(fake_env):
    client = BedrockProvider(model=MODEL).client
    config = client.meta.config
    assert config.retries == {"mode": "standard", "total_max_attempts": 4}
    assert (config.read_timeout, config.connect_timeout) == (3600, 10)
    assert client.meta.region_name == "us-east-1"  # from AWS_REGION, which botocore alone ignores


def test_an_injected_client_is_used_as_is(monkeypatch):
    client = make_client(monkeypatch)
    assert BedrockProvider(model=MODEL, client=client).client is client


def test_endpoint_url_from_the_environment_is_honoured(fake_env, monkeypatch):
    fake = FakeBedrock([reply(text("Pune had 3 orders."))])
    with fake.serve() as server:
        monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", server.url)
        response = BedrockProvider(model=MODEL).complete(ask("Pune?"), NO_TOOLS)
    assert response.turn.text == "Pune had 3 orders."
    assert fake.paths == [f"/model/{MODEL}/converse"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"model": " "}, "--model"),
        ({"model": MODEL, "retry_mode": "fast"}, "retry mode"),
        ({"model": MODEL, "max_attempts": 0}, "max attempts"),
    ],
)
def test_bad_settings_are_config_errors(options, message):
    with pytest.raises(ConfigError, match=message):
        BedrockProvider(**options)


def test_no_region_is_a_config_error_that_says_how_to_set_one():
    with pytest.raises(ConfigError, match="--region"):
        BedrockProvider(model=MODEL).client  # noqa: B018


def test_an_unknown_profile_is_a_config_error(fake_env):
    with pytest.raises(ConfigError, match="nosuchprofile"):
        BedrockProvider(model=MODEL, profile="nosuchprofile").client  # noqa: B018


def test_no_credentials_is_an_auth_error_that_says_how_to_provide_them():
    fake = FakeBedrock([])
    provider = provider_for(fake)
    with pytest.raises(ProviderAuthError, match="AWS_PROFILE") as caught:
        provider.complete(ask("q"), NO_TOOLS)
    assert "\n" not in str(caught.value)
    assert fake.attempts == 0


def test_an_unreachable_endpoint_is_a_connection_error(fake_env, monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", "http://127.0.0.1:9")
    with pytest.raises(ProviderConnectionError, match="cannot reach Bedrock"):
        BedrockProvider(model=MODEL, max_attempts=1, connect_timeout=2).complete(ask("q"), NO_TOOLS)


def test_importing_the_provider_does_not_import_boto3():
    code = "import sys, analytics_agent.providers.bedrock.provider; print('boto3' in sys.modules, 'botocore' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


# --------------------------------------------------------------------------- Converse through the Stubber


def test_complete_step_by_step_through_the_stubber(fake_env, monkeypatch, workspace):
    from botocore.stub import Stubber

    client = make_client(monkeypatch)
    sent: list[dict[str, Any]] = []

    def record(params: dict[str, Any], **_: Any) -> None:
        check_request(params)
        sent.append(copy.deepcopy(params))

    client.meta.events.register("before-parameter-build.bedrock-runtime.Converse", record)
    provider = BedrockProvider(model=MODEL, client=client)
    conversation = ask("How did Pune do on 24 Oct, and what happened to order A-1042?")
    signed = reasoning("Two lookups.", "c2lnbmVk")
    with Stubber(client) as stubber:
        stubber.add_response(
            "converse",
            reply(
                signed,
                tool_use("tooluse_1", "sales_summary", city="Pune", day="2026-10-24"),
                tool_use("tooluse_2", "get_order", order_id="A-1042"),
                stop="tool_use",
            ),
        )
        stubber.add_response("converse", reply(text("Pune: 3 orders; A-1042 delivered.")))
        first = provider.complete(conversation, workspace.registry)
        assert [c.name for c in first.turn.tool_calls] == ["sales_summary", "get_order"]
        conversation.messages += [
            first.turn,
            ToolResults(
                (ToolResult("tooluse_1", '{"orders": 3}'), ToolResult("tooluse_2", "Error: x", True))
            ),
        ]
        second = provider.complete(conversation, workspace.registry)
        stubber.assert_no_pending_responses()
    assert second.turn.text == "Pune: 3 orders; A-1042 delivered."
    assert sent[0]["toolConfig"] == workspace.registry.bedrock_tool_config()
    assert sent[1]["messages"][1]["content"][0] == signed  # replayed unmodified, first in the message
    assert [b["toolResult"]["status"] for b in sent[1]["messages"][2]["content"]] == ["success", "error"]


# --------------------------------------------------------------------------- streaming through the real parser


def test_streamed_text_reaches_on_text_live_and_the_call_is_assembled(fake_env):
    fake = FakeBedrock(
        [
            reply(
                text("Looking up the order."),
                tool_use("functions.get_order:0", "get_order", order_id="A-1042"),
                stop="tool_use",
            )
        ]
    )
    seen: list[str] = []
    response = provider_for(fake, stream=True).complete(ask("A-1042?"), NO_TOOLS, on_text=seen.append)
    assert len(seen) > 1 and "".join(seen) == "Looking up the order."
    assert response.turn.tool_calls == (
        ToolCall("functions.get_order:0", "get_order", '{"order_id": "A-1042"}'),
    )
    assert fake.paths == [f"/model/{MODEL}/converse-stream"]


def test_non_streaming_calls_do_not_touch_on_text(fake_env):
    fake = FakeBedrock([reply(text("Hi."))])
    seen: list[str] = []
    provider_for(fake).complete(ask("hi"), NO_TOOLS, on_text=seen.append)
    assert seen == []


def test_an_in_stream_exception_event_becomes_the_same_typed_error(fake_env):
    fake = FakeBedrock([Failure(200, "throttlingException", "Too many tokens per minute", in_stream=True)])
    with pytest.raises(ProviderRateLimitError, match="Too many tokens per minute") as caught:
        provider_for(fake, stream=True).complete(ask("q"), NO_TOOLS)
    assert caught.value.code == "ThrottlingException"
    assert "even after retries" not in str(caught.value)  # botocore does not retry in-stream errors


def test_an_in_stream_validation_error_is_a_provider_error_with_the_server_message(fake_env):
    fake = FakeBedrock(
        [Failure(200, "validationException", "messages.3: Did not find 1 tool_result", in_stream=True)]
    )
    with pytest.raises(ProviderError, match="Did not find 1 tool_result"):
        provider_for(fake, stream=True).complete(ask("q"), NO_TOOLS)


def test_a_model_that_cannot_stream_with_tools_falls_back_to_converse_for_good(fake_env, workspace):
    refusal = Failure(400, "ValidationException", "This model doesn't support tool use in streaming mode.")
    fake = FakeBedrock([refusal, reply(text("First.")), reply(text("Second."))])
    provider = provider_for(fake, stream=True)
    assert provider.complete(ask("one"), workspace.registry).turn.text == "First."
    assert provider.complete(ask("two"), workspace.registry).turn.text == "Second."
    assert [p.rsplit("/", 1)[-1] for p in fake.paths] == ["converse-stream", "converse", "converse"]


def test_other_validation_errors_while_streaming_are_not_swallowed(fake_env, workspace):
    fake = FakeBedrock([Failure(400, "ValidationException", "The text field is blank.")])
    with pytest.raises(ProviderError, match="blank"):
        provider_for(fake, stream=True).complete(ask("q"), workspace.registry)
    assert fake.attempts == 1


# --------------------------------------------------------------------------- errors and retries


def test_throttling_is_retried_up_to_max_attempts_then_a_rate_limit_error(fake_env):
    fake = FakeBedrock([Failure(429, "ThrottlingException", "Too many requests")] * 4)
    with pytest.raises(ProviderRateLimitError, match=r"even after retries.*Too many requests"):
        provider_for(fake).complete(ask("q"), NO_TOOLS)
    assert fake.attempts == 4


def test_throttling_then_success_answers_after_one_retry(fake_env):
    fake = FakeBedrock([Failure(429, "ThrottlingException", "slow down"), reply(text("Done."))])
    assert provider_for(fake, max_attempts=2).complete(ask("q"), NO_TOOLS).turn.text == "Done."
    assert fake.attempts == 2


@pytest.mark.parametrize(
    ("status", "code", "error", "attempts", "hint"),
    [
        (
            403,
            "AccessDeniedException",
            ProviderAuthError,
            1,
            "request access to this model in the Bedrock console",
        ),
        (404, "ResourceNotFoundException", ProviderError, 1, "inference profile id such as 'us.anthropic"),
        (408, "ModelTimeoutException", ProviderTimeoutError, 1, "took too long"),
        (400, "ValidationException", ProviderError, 1, "rejected the request"),
        (503, "ServiceUnavailableException", ProviderError, 3, "unavailable in us-east-1"),
        (429, "ModelNotReadyException", ProviderError, 3, "not ready"),
        (500, "InternalServerException", ProviderError, 3, "internal error"),
        (403, "UnrecognizedClientException", ProviderAuthError, 1, "rejected the credentials"),
    ],
)
def test_service_errors_map_to_one_line_errors_that_say_what_to_fix(
    fake_env, status, code, error, attempts, hint
):
    fake = FakeBedrock([Failure(status, code, f"server says {code}")] * attempts)
    with pytest.raises(error) as caught:
        provider_for(fake, max_attempts=3).complete(ask("q"), NO_TOOLS)
    message = str(caught.value)
    assert hint in message and f"server says {code}" in message and "\n" not in message
    assert (caught.value.status, caught.value.code) == (status, code)
    assert fake.attempts == attempts  # only throttling and server faults are retried


def test_no_secret_appears_in_errors_or_log_records(fake_env, caplog):
    caplog.set_level(logging.DEBUG)
    leak = (
        f"The security token {FAKE_ENV['AWS_SESSION_TOKEN']} for {FAKE_ENV['AWS_ACCESS_KEY_ID']} is invalid"
    )
    fake = FakeBedrock(
        [
            reply(text("ok")),
            Failure(403, "UnrecognizedClientException", leak),
            Failure(200, "throttlingException", leak, True),
        ]
    )
    provider = provider_for(fake)
    provider.complete(ask("q"), NO_TOOLS)
    messages = []
    for stream in (False, True):
        provider.stream = stream
        with pytest.raises(ProviderError) as caught:
            provider.complete(ask("q"), NO_TOOLS)
        messages.append(str(caught.value))
    assert "***" in messages[0] and "***" in messages[1]
    everything = "\n".join([*messages, caplog.text, *(r.getMessage() for r in caplog.records)])
    assert caplog.records  # boto3 did log (credential lookup, retries): the check has something to look at
    for secret in SECRETS:
        assert secret not in everything


def test_the_factory_builds_a_bedrock_provider_with_the_users_limits_only(fake_env):
    from analytics_agent.config import Settings
    from analytics_agent.workspace.provider_factory import make_provider

    settings = Settings(
        provider="bedrock", model=MODEL, region="eu-west-1", max_retries=1, tool_mode="native"
    )
    provider = make_provider(settings, stream=True)
    config = provider.client.meta.config
    assert isinstance(provider, BedrockProvider) and provider.stream
    assert (provider.client.meta.region_name, config.retries["total_max_attempts"]) == ("eu-west-1", 2)
    assert config.read_timeout == 3600  # not the HTTP providers' default
