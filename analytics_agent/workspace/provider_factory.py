"""Build the configured provider. The one place that knows which class serves which ``--provider``.

Provider modules are imported here, lazily, so ``--help`` never pays for httpx or boto3.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from analytics_agent.config import Settings
from analytics_agent.errors import ConfigError
from analytics_agent.paths import data_dir
from analytics_agent.providers.base import Provider
from analytics_agent.providers.limits import ReplyLimits

NO_MODEL_MESSAGE = (
    "no model configured: pass --model (and --base-url for a local server, e.g. "
    "--base-url http://localhost:11434/v1 --model qwen3:8b) or set ANALYTICS_AGENT_MODEL and "
    "OPENAI_BASE_URL/OPENAI_API_KEY; to see it work offline, run: analytics-agent demo"
)


def make_provider(
    settings: Settings,
    *,
    stream: bool = False,
    client: httpx.Client | None = None,
    stream_asked: bool = False,
) -> Provider:
    """The provider ``settings`` describe.

    Args:
        settings: resolved settings; ``settings.model`` must be set.
        stream: ask the endpoint to stream (text is then passed to ``on_text`` as it arrives), unless it
            is remembered as one that cannot.
        stream_asked: the user asked for streaming by name (``--stream``): a remembered "no streaming" for
            this endpoint and model is forgotten and the stream tried again.
        client: an httpx client for the OpenAI-compatible provider (tests and the demo pass a
            ``MockTransport`` client); ignored by Bedrock.

    Raises:
        ConfigError: no model, or a provider that is not available.
    """
    if not settings.model:
        raise ConfigError(NO_MODEL_MESSAGE)
    if settings.provider == "openai":
        provider = _openai(
            settings, stream=stream, client=client, key=tool_mode_key(settings), stream_asked=stream_asked
        )
    elif settings.provider == "bedrock":
        provider = _bedrock(settings, stream=stream)
    else:
        raise ConfigError(f"unknown provider {settings.provider!r}; use openai or bedrock")
    return _with_tool_mode(settings, provider)


def _with_tool_mode(settings: Settings, provider: Provider) -> Provider:
    """The provider offering tools natively, as text, or natively until the model turns out to have no
    tool calling (``--tool-mode``); the choice is remembered per endpoint and model in the data folder."""
    from analytics_agent.providers.tool_mode import ToolModeMemory, with_tool_mode

    return with_tool_mode(
        provider, settings.tool_mode, key=tool_mode_key(settings), memory=ToolModeMemory(tool_modes_path())
    )


def tool_mode_key(settings: Settings) -> str:
    """Names the endpoint and model a remembered tool mode belongs to."""
    if settings.provider == "bedrock":
        return f"bedrock {settings.region or '(default region)'} {settings.model}"
    return f"{settings.base_url} {settings.model}"


def tool_modes_path() -> Path:
    return data_dir() / "tool_modes.json"


def _openai(
    settings: Settings, *, stream: bool, client: httpx.Client | None, key: str, stream_asked: bool = False
) -> Provider:
    try:
        from analytics_agent.providers.openai.provider import OpenAIProvider
    except ModuleNotFoundError as exc:
        if exc.name != "analytics_agent.providers.openai.provider":
            raise
        raise ConfigError("the openai provider is not available yet in this build") from None
    limits = _given(
        connect_timeout=settings.connect_timeout,
        read_timeout=settings.read_timeout,
        max_retries=settings.max_retries,
    )
    from analytics_agent.providers.tool_mode import ToolModeMemory

    # A server that closed a stream before any event (llama-cpp-python with tools) is asked unstreamed,
    # remembered per endpoint and model as the tool mode is.
    memory, stream_key = ToolModeMemory(tool_modes_path()), f"{key} (streaming)"
    if stream_asked:  # --stream by name: the user wants to try again (as --tool-mode native does)
        memory.forget(stream_key)

    def refused(reason: str) -> str:
        memory.remember(stream_key, "off", reason)
        return f", remembered for {key} (--stream tries again)"

    return OpenAIProvider(
        base_url=settings.base_url,
        model=settings.model or "",
        api_key=settings.api_key.reveal() if settings.api_key else None,
        client=client,
        stream=stream and memory.get(stream_key) != "off",
        limits=reply_limits(settings),
        on_stream_refused=refused,
        **_given(max_tokens=settings.max_tokens),
        **limits,
    )


def _bedrock(settings: Settings, *, stream: bool) -> Provider:
    # Seam for the Bedrock provider: it lands as providers/bedrock/provider.py with this constructor.
    try:
        from analytics_agent.providers.bedrock.provider import BedrockProvider
    except ModuleNotFoundError as exc:
        if exc.name != "analytics_agent.providers.bedrock.provider":
            raise
        raise ConfigError("--provider bedrock is not available yet; use --provider openai") from None
    attempts = None if settings.max_retries is None else settings.max_retries + 1
    limits = _given(
        connect_timeout=settings.connect_timeout, read_timeout=settings.read_timeout, max_attempts=attempts
    )
    provider = BedrockProvider(
        model=settings.model or "",
        region=settings.region,
        profile=settings.profile,
        stream=stream,
        limits=reply_limits(settings),
        # Bedrock models have their own output default; a cap the user set is sent as inferenceConfig.
        inference={"maxTokens": settings.max_tokens} if settings.max_tokens else None,
        **limits,
    )
    # The client is made now, not at the first request: a missing region or an unknown profile is a
    # configuration error, reported before any "[step 1] asking ..." line.
    provider.client  # noqa: B018 - the property makes the client
    return provider


def reply_limits(settings: Settings) -> ReplyLimits:
    """The bounds on each reply; only the deadline is a setting (the sizes protect memory, not taste)."""
    if settings.request_deadline is None:
        return ReplyLimits()
    return ReplyLimits(deadline_s=settings.request_deadline)


def _given(**values: Any) -> dict[str, Any]:
    """Only the limits the user set: otherwise each provider keeps the default that suits it."""
    return {k: v for k, v in values.items() if v is not None}
