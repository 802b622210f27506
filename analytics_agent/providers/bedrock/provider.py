"""Amazon Bedrock as a provider: Converse, or ConverseStream when streaming, through boto3.

The wire format lives in ``bedrock_wire`` (pure), stream assembly in ``bedrock_stream`` (pure) and the
error mapping in ``bedrock_errors``; this module only owns the client and the calls. boto3 is imported
inside functions, so importing this module (and ``analytics-agent --help``) does not load it.

Configuration comes from boto3's own chain: ``region``/``profile`` when given, else ``AWS_REGION``,
``AWS_PROFILE``, the shared config files, and botocore's endpoint settings such as
``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``. Retries and timeouts are set explicitly, because botocore's
defaults changed across versions and a 60 s read timeout is too short for slow models.
"""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any, Literal, cast

from analytics_agent.conversation import Conversation, ModelResponse
from analytics_agent.errors import ConfigError, ProviderError
from analytics_agent.providers.base import TextSink, ToolPayloads
from analytics_agent.providers.bedrock.errors import SECRET_ENV, map_error
from analytics_agent.providers.bedrock.limits import ReplyGuard
from analytics_agent.providers.bedrock.stream import StreamAssembler
from analytics_agent.providers.bedrock.wire import build_request, parse_response
from analytics_agent.providers.http import redacted
from analytics_agent.providers.limits import ReplyLimits
from analytics_agent.providers.redaction import StreamRedactor, checked_reply
from analytics_agent.providers.reply_json import clean_reply, reading_reply, too_deep

log = logging.getLogger(__name__)

RETRY_MODES = ("standard", "adaptive", "legacy")
RetryMode = Literal["standard", "adaptive", "legacy"]  # botocore's, as its stubs spell them
WHERE = "Bedrock"


class BedrockProvider:
    """A ``Provider`` that talks to Bedrock Converse.

    Args:
        model: model id, inference profile id (``us.anthropic...``) or ARN.
        region: AWS region; ``None`` lets boto3 decide (``AWS_REGION``, the profile's region).
        profile: a named profile from the shared AWS config; ``None`` uses the default chain.
        client: a ready ``bedrock-runtime`` client, used as is (tests, custom sessions).
        stream: use ConverseStream and pass text to ``on_text`` as it arrives.
        read_timeout: seconds to wait for response bytes (AWS suggests up to 3600 for slow models).
        connect_timeout: seconds to open the connection.
        max_attempts: total attempts per call, the first included (botocore ``total_max_attempts``).
        retry_mode: botocore retry mode: standard, adaptive or legacy.
        inference: an ``inferenceConfig`` sent with every request (e.g. ``{"maxTokens": 2048}``).
        limits: bounds on each reply (size, deadline); they guard the clients this provider makes.
    """

    name = "bedrock"

    def __init__(
        self,
        *,
        model: str,
        region: str | None = None,
        profile: str | None = None,
        client: Any = None,
        stream: bool = False,
        read_timeout: float = 3600,
        connect_timeout: float = 10,
        max_attempts: int = 4,
        retry_mode: str = "standard",
        inference: dict[str, Any] | None = None,
        limits: ReplyLimits | None = None,
    ) -> None:
        if not model.strip():
            raise ConfigError(
                "Bedrock needs a model: pass --model with a model id, inference profile id or ARN"
            )
        if retry_mode not in RETRY_MODES:
            raise ConfigError(f"retry mode must be one of {', '.join(RETRY_MODES)}, not {retry_mode!r}")
        if max_attempts < 1 or read_timeout <= 0 or connect_timeout <= 0:
            raise ConfigError("max attempts must be at least 1 and timeouts must be positive")
        self.model = model
        self.region = region
        self.profile = profile
        self.stream = stream
        self.inference = dict(inference or {})
        self._client = client
        self._owns_client = client is None
        self._client_settings = (read_timeout, connect_timeout, max_attempts, retry_mode)
        self.limits = limits or ReplyLimits()
        self._guard: ReplyGuard | None = None
        self._credentials: Any = None  # what boto3 resolved (profile, SSO, role), for redaction
        self._stream_refused = False  # set once the model says it cannot stream with tools
        _quiet_botocore_debug()

    @property
    def client(self) -> Any:
        """The ``bedrock-runtime`` client, created on first use."""
        if self._client is None:
            self._client = self._make_client()
        return self._client

    def complete(
        self, conversation: Conversation, tools: ToolPayloads, *, on_text: TextSink | None = None
    ) -> ModelResponse:
        """Send the conversation and return the parsed reply; failures raise ``ProviderError`` types."""
        tool_config = tools.bedrock_tool_config() if len(tools) else None
        request = build_request(
            conversation, model=self.model, tool_config=tool_config, inference=self.inference
        )
        if self.stream and not self._stream_refused:
            try:
                return self._call(self._converse_stream, request, on_text)
            except ProviderError as exc:
                if not (tool_config and _refuses_streaming_tools(exc)):
                    raise
                log.info("%s cannot stream with tools; using Converse from now on", self.model)
                self._stream_refused = True
        return self._call(self._converse, request, on_text)

    def close(self) -> None:
        """Release the client's connections (an injected client is left to its owner)."""
        if self._owns_client and self._client is not None:
            self._client.close()
            self._client = None

    def secrets(self) -> tuple[str, ...]:
        """Every AWS credential in use: the environment's and whatever boto3 resolved (a profile's
        keys, SSO or role session credentials), so none of them is ever shown or written."""
        found = [os.environ.get(name, "") for name in SECRET_ENV]
        if self._credentials is not None:
            try:
                frozen = self._credentials.get_frozen_credentials()
                found += [frozen.access_key, frozen.secret_key, frozen.token or ""]
            except Exception:  # a refresh that fails here fails the request anyway; redaction must not
                log.info("could not read the resolved AWS credentials for redaction", exc_info=True)
        return tuple(secret for secret in found if secret and len(secret) >= 4)

    def _call(self, send: Any, request: dict[str, Any], on_text: TextSink | None) -> ModelResponse:
        client = self.client  # made (and guarded) before the request's deadline starts
        guard = self._guard.request(WHERE) if self._guard is not None else contextlib.nullcontext()
        try:
            with guard:
                result = send(client, request, on_text)
        except ProviderError as exc:
            raise redacted(exc, self.secrets()) from None
        except RecursionError:  # botocore's JSON parser on a reply nested too deeply
            raise too_deep(WHERE) from None
        except Exception as exc:
            from botocore.exceptions import BotoCoreError, ClientError
            from botocore.parsers import ResponseParserError

            if not isinstance(exc, (BotoCoreError, ClientError, ResponseParserError)):
                raise
            error = map_error(exc, model=self.model, region=self._region_name())
            if isinstance(error, ProviderError):
                raise redacted(error, self.secrets()) from None
            raise error from None
        return checked_reply(result, secrets=self.secrets(), where=WHERE)

    def _converse(self, client: Any, request: dict[str, Any], on_text: TextSink | None) -> ModelResponse:
        with reading_reply(WHERE):
            return parse_response(clean_reply(client.converse(**request), where=WHERE))

    def _converse_stream(
        self, client: Any, request: dict[str, Any], on_text: TextSink | None
    ) -> ModelResponse:
        response = client.converse_stream(**request)
        assembler = StreamAssembler()
        shown = StreamRedactor(self.secrets(), on_text) if on_text is not None else None
        stream = response["stream"]
        try:
            with reading_reply(WHERE):
                for event in stream:
                    text = assembler.feed(clean_reply(event, where=WHERE))
                    if text and shown is not None:
                        shown.feed(text)
                if shown is not None:
                    shown.flush()
                return assembler.finish()
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()

    def _region_name(self) -> str | None:
        if self._client is not None:
            return getattr(getattr(self._client, "meta", None), "region_name", None) or self.region
        return self.region

    def _make_client(self) -> Any:
        import boto3
        from botocore.config import Config
        from botocore.exceptions import BotoCoreError

        read_timeout, connect_timeout, max_attempts, retry_mode = self._client_settings
        mode = cast(RetryMode, retry_mode)  # one of RETRY_MODES: checked in __init__
        config = Config(
            retries={"mode": mode, "total_max_attempts": max_attempts},
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,  # each attempt's is clamped to the deadline by the guard
            user_agent_extra="analytics-agent",
        )
        try:
            # botocore itself reads only AWS_DEFAULT_REGION; AWS_REGION is what the AWS CLI v2 and most SDKs
            # read first, so honour it too.
            region = self.region or os.environ.get("AWS_REGION", "").strip() or None
            session = boto3.Session(profile_name=self.profile, region_name=region)
            client = session.client("bedrock-runtime", config=config)
            self._credentials = session.get_credentials()
        except BotoCoreError as exc:
            raise map_error(exc, model=self.model, region=self.region) from None
        self._guard = ReplyGuard(client, self.limits, read_timeout=read_timeout)
        return client


def _refuses_streaming_tools(exc: ProviderError) -> bool:
    text = str(exc).lower()
    return exc.code == "ValidationException" and "stream" in text and "tool" in text


def _quiet_botocore_debug() -> None:
    # botocore's DEBUG records print request headers, session token included; never let them through.
    logger = logging.getLogger("botocore")
    if logger.getEffectiveLevel() < logging.INFO:
        logger.setLevel(logging.INFO)
