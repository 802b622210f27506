"""The provider factory: which class serves which --provider, and which settings reach it."""

from __future__ import annotations

import httpx
import pytest

from analytics_agent.config import resolve_settings
from analytics_agent.errors import ConfigError
from analytics_agent.providers.bedrock.provider import BedrockProvider
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.workspace.provider_factory import make_provider


def test_openai_settings_reach_the_openai_provider() -> None:
    settings = resolve_settings(
        {
            "model": "qwen3",
            "base_url": "http://localhost:11434/v1",
            "api_key": "k-123456",
            "tool_mode": "native",
        },
        env={},
        file={},
    )
    client = httpx.Client(transport=httpx.MockTransport(lambda request: httpx.Response(500)))
    provider = make_provider(settings, stream=True, client=client)
    assert isinstance(provider, OpenAIProvider)
    assert (provider.model, provider.url, provider.stream) == (
        "qwen3",
        "http://localhost:11434/v1/chat/completions",
        True,
    )
    assert "k-123456" not in repr(provider)


def test_bedrock_gets_model_region_profile_and_retries_as_attempts(tmp_path, monkeypatch) -> None:
    aws_config = tmp_path / "aws-config"
    aws_config.write_text("[profile work]\nregion = eu-west-1\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(aws_config))  # the client is made now: its profile must exist
    settings = resolve_settings(
        {"provider": "bedrock", "model": "amazon.nova-micro-v1:0", "region": "eu-west-1", "profile": "work",
         "max_retries": 2, "tool_mode": "native"},
        env={}, file={},
    )  # fmt: skip
    provider = make_provider(settings)
    assert isinstance(provider, BedrockProvider)
    assert (provider.model, provider.region, provider.profile) == (
        "amazon.nova-micro-v1:0",
        "eu-west-1",
        "work",
    )
    assert provider._client_settings[2] == 3  # 2 retries = 3 attempts
    assert provider.inference == {}  # no cap set: the model's own default
    capped = make_provider(
        resolve_settings({**settings_flags(settings), "max_tokens": 1024}, env={}, file={})
    )
    assert capped.inference == {"maxTokens": 1024}  # type: ignore[attr-defined]


def settings_flags(settings) -> dict:
    return {"provider": "bedrock", "model": settings.model, "region": settings.region,
            "profile": settings.profile, "max_retries": settings.max_retries, "tool_mode": "native"}  # fmt: skip


def test_unset_limits_keep_each_providers_own_defaults() -> None:
    flags = {"provider": "bedrock", "model": "m", "region": "us-east-1", "tool_mode": "native"}
    settings = resolve_settings(flags, env={}, file={})
    assert settings.read_timeout is None
    provider = make_provider(settings)
    assert provider._client_settings[0] == 3600  # Bedrock's long read timeout, not OpenAI's 120 s


def test_a_missing_region_or_profile_is_a_config_error_when_the_provider_is_made(
    tmp_path, monkeypatch
) -> None:
    """Before any request (and so before any "[step 1] asking" line), not at the first one."""
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    bedrock = {"provider": "bedrock", "model": "m", "tool_mode": "native"}
    with pytest.raises(ConfigError, match="no AWS region"):
        make_provider(resolve_settings(bedrock, env={}, file={}))
    with pytest.raises(ConfigError, match=r"profile \(work\) could not be found"):
        make_provider(
            resolve_settings({**bedrock, "region": "us-east-1", "profile": "work"}, env={}, file={})
        )


def test_no_model_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no model configured"):
        make_provider(resolve_settings({"provider": "bedrock"}, env={}, file={}))
