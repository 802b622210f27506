"""Map boto3/botocore failures of a Bedrock call to this project's errors: one line that says what to fix.

Both spellings of a service error code are handled: ``ThrottlingException`` (an HTTP error before the
stream starts) and ``throttlingException`` (an exception event inside a ConverseStream, which botocore
raises as ``EventStreamError`` while the stream is iterated). No message ever carries a credential:
every text goes through ``redact``, which blanks the values of the AWS secret environment variables.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from analytics_agent.errors import (
    AnalyticsAgentError,
    ConfigError,
    ProviderAuthError,
    ProviderConnectionError,
    ProviderError,
    ProviderRateLimitError,
    ProviderResponseError,
    ProviderTimeoutError,
)

SECRET_ENV = ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_BEARER_TOKEN_BEDROCK")
_AUTH_CODES = frozenset(
    {
        "UnrecognizedClientException",
        "InvalidSignatureException",
        "ExpiredTokenException",
        "ExpiredToken",
        "IncompleteSignature",
        "MissingAuthenticationTokenException",
    }
)


def redact(text: str) -> str:
    """``text`` with any AWS secret from the environment replaced by ``***``."""
    for name in SECRET_ENV:
        value = os.environ.get(name, "")
        if len(value) >= 4:  # a tiny value would blank ordinary words
            text = text.replace(value, "***")
    return text


def map_error(exc: BaseException, *, model: str, region: str | None) -> AnalyticsAgentError:
    """The error to raise for ``exc``, raised by a Converse or ConverseStream call for ``model``."""
    from botocore import exceptions as bx

    if isinstance(exc, bx.ClientError):
        return _map_client_error(exc, model=model, region=region or "(default region)")
    if isinstance(exc, (bx.NoCredentialsError, bx.PartialCredentialsError, bx.CredentialRetrievalError)):
        return ProviderAuthError(
            "no usable AWS credentials: set AWS_PROFILE (or --profile) to a configured profile, "
            "or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; for SSO run 'aws sso login'"
        )
    if isinstance(exc, (bx.TokenRetrievalError, bx.SSOError)):
        return ProviderAuthError(f"AWS sign-in expired or failed ({_text(exc)}); run 'aws sso login'")
    if isinstance(exc, bx.NoRegionError):
        return ConfigError("no AWS region: pass --region (e.g. us-east-1) or set AWS_REGION")
    if isinstance(exc, bx.ProfileNotFound):
        return ConfigError(f"{_text(exc)}; check --profile / AWS_PROFILE against ~/.aws/config")
    if isinstance(exc, (bx.ConnectTimeoutError, bx.ReadTimeoutError)):
        return ProviderTimeoutError(
            f"Bedrock did not answer in time ({_text(exc)}); try again, or raise the timeout", code="timeout"
        )
    if isinstance(exc, (bx.EndpointConnectionError, bx.ConnectionError, bx.ConnectionClosedError)):
        return ProviderConnectionError(
            f"cannot reach Bedrock ({_text(exc)}); check the network, the region and "
            "AWS_ENDPOINT_URL_BEDROCK_RUNTIME if you set it"
        )
    from botocore.parsers import ResponseParserError

    if isinstance(exc, ResponseParserError):
        return ProviderResponseError(f"Bedrock sent a reply that cannot be read ({_text(exc)}); try again")
    if isinstance(exc, bx.ParamValidationError):
        return ProviderError(f"the Bedrock request was refused before sending: {_text(exc)}")
    return ProviderError(f"Bedrock call failed: {_text(exc)}")


def _map_client_error(exc: Any, *, model: str, region: str) -> AnalyticsAgentError:
    error = exc.response.get("Error", {}) if isinstance(exc.response, dict) else {}
    code = str(error.get("Code") or "")
    canonical = code[:1].upper() + code[1:]  # in-stream events use lower-camel codes
    message = redact(str(error.get("Message") or "").strip()) or "(no message)"
    status = exc.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
    if canonical in _AUTH_CODES:
        return ProviderAuthError(
            f"AWS rejected the credentials ({canonical}: {message}); refresh them "
            "(new keys, or 'aws sso login') and check AWS_PROFILE",
            status=status,
            code=canonical,
        )
    build = _BUILDERS.get(canonical)
    if build is None:
        return ProviderError(
            f"Bedrock error {canonical or 'unknown'}: {message}", status=status, code=canonical
        )
    kind, text = build(message, model, region)
    if code[:1].islower():  # an in-stream exception event: botocore does not retry those
        text = text.replace(_RETRIED, "")
    return kind(text, status=status, code=canonical)


def _text(exc: BaseException) -> str:
    return redact(" ".join(str(exc).split())) or type(exc).__name__


_RETRIED = ", even after retries"
_Builder = Callable[[str, str, str], tuple[type[ProviderError], str]]
_BUILDERS: dict[str, _Builder] = {
    "ThrottlingException": lambda m, model, r: (
        ProviderRateLimitError,
        f"Bedrock is throttling requests to {model} in {r}{_RETRIED} ({m}); wait a minute and "
        "try again, or ask for a higher quota in Service Quotas",
    ),
    "ValidationException": lambda m, model, r: (
        ProviderError,
        f"Bedrock rejected the request: {m}"
        + (
            "; check --model (a model id, inference profile id or ARN) and --region"
            if "model id" in m.lower()
            else ""
        ),
    ),
    "AccessDeniedException": lambda m, model, r: (
        ProviderAuthError,
        f"access to {model} in {r} was denied ({m}); request access to this model in the Bedrock console "
        "(Model access) for that region, and make sure your IAM identity may call bedrock:InvokeModel "
        "and bedrock:InvokeModelWithResponseStream",
    ),
    "ResourceNotFoundException": lambda m, model, r: (
        ProviderError,
        f"Bedrock has no model {model!r} in {r} ({m}); check the model id and --region, and for "
        "cross-region models use an inference profile id such as 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'",
    ),
    "ModelTimeoutException": lambda m, model, r: (
        ProviderTimeoutError,
        f"{model} took too long to answer ({m}); try again or ask a shorter question",
    ),
    "ModelNotReadyException": lambda m, model, r: (
        ProviderError,
        f"{model} is not ready to serve requests yet ({m}); try again in a minute",
    ),
    "ServiceUnavailableException": lambda m, model, r: (
        ProviderError,
        f"Bedrock is unavailable in {r} right now{_RETRIED} ({m}); try again later",
    ),
    "InternalServerException": lambda m, model, r: (
        ProviderError,
        f"Bedrock had an internal error{_RETRIED} ({m}); try again later",
    ),
    "ModelErrorException": lambda m, model, r: (ProviderError, f"{model} failed to answer ({m}); try again"),
    "ModelStreamErrorException": lambda m, model, r: (
        ProviderError,
        f"{model} failed while streaming its answer ({m}); try again, or without streaming",
    ),
}
