"""The one error hierarchy of analytics-agent.

Every error a user can cause or meet is one of these; the CLI catches ``AnalyticsAgentError`` once,
prints its message as a single line and exits non-zero. Anything else is a bug and is logged with its
stack trace, never shown to the user as one.

    AnalyticsAgentError                 base: ``str(e)`` is a one-line message that says what to fix
    ├── ConfigError                     missing or contradictory settings (no model, bad flag value)
    │   └── AccessPolicyError           the access policy file is malformed (carries file:line)
    ├── DatabaseError                   the database file cannot be opened, created or is locked
    ├── LoadError                       a CSV/Parquet load failed; the database is unchanged
    ├── ExportError                     a chart or result file cannot be written (bad name, no access)
    ├── Interrupted                     Ctrl-C during a write: says whether it committed (exit 130)
    ├── SourceError                     a data source (files in place, PostgreSQL, DuckLake, MotherDuck)
    │                                   is misconfigured or cannot be reached
    ├── ToolDefinitionError             a .sql tool file is malformed (carries file:line)
    │   └── SemanticModelError          a semantic file is not YAML, or names what the database lacks
    ├── EvalFileError                   an eval question file or a stored eval run cannot be used
    ├── SignInError                     a team server refused a request's token (carries the HTTP status)
    ├── ToolError                       a tool call failed; its message is what the model reads
    │   ├── UnknownToolError
    │   └── ArgumentError               arguments not JSON or not fitting the schema
    └── ProviderError                   the model endpoint failed (carries the server's own message)
        ├── ProviderAuthError           401/403, no credentials, model access not granted
        ├── ProviderRateLimitError      429/throttling after retries, or quota exhausted
        ├── ProviderTimeoutError        connect/read timeout after retries
        ├── ProviderConnectionError     endpoint unreachable
        └── ProviderResponseError       malformed or unusable response
"""

from __future__ import annotations


class AnalyticsAgentError(Exception):
    """Base of every error meant for a user: the message is one line that says what to fix."""

    def __str__(self) -> str:
        text = super().__str__()
        return " ".join(text.split())  # one line, always


class ConfigError(AnalyticsAgentError):
    """A setting, flag or file the user must fix before anything runs (exit 2, as for a usage error)."""

    exit_code = 2


class AccessPolicyError(ConfigError):
    """The access policy (who may read what) cannot be used: the server does not start on it."""

    def __init__(self, message: str, *, path: str, line: int | None = None) -> None:
        super().__init__(f"{path}:{line}: {message}" if line else f"{path}: {message}")
        self.path = path
        self.line = line


class DatabaseError(AnalyticsAgentError):
    pass


class LoadError(AnalyticsAgentError):
    pass


class ExportError(AnalyticsAgentError):
    pass


class SourceError(AnalyticsAgentError):
    pass


class Interrupted(AnalyticsAgentError):
    """Ctrl-C stopped a write; the message says what state it left."""

    exit_code = 130


class ToolDefinitionError(AnalyticsAgentError):
    def __init__(self, message: str, *, path: str | None = None, line: int | None = None) -> None:
        where = f"{path}:{line}: " if path and line else (f"{path}: " if path else "")
        super().__init__(f"{where}{message}")
        self.path = path
        self.line = line


class SemanticModelError(ToolDefinitionError):
    pass


class EvalFileError(AnalyticsAgentError):
    """A question file (JSONL/YAML) or a stored run is malformed; the message names the file and line."""


class SignInError(AnalyticsAgentError):
    """A token the team server refuses: no token, a bad, expired or foreign one (401), or one without a
    scope the server requires (403). The message is the reason, and never quotes the token."""

    def __init__(self, message: str, *, status: int = 401, code: str = "invalid_token") -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class ToolError(AnalyticsAgentError):
    """What the model reads when a call fails: one line per problem, so several lines are kept."""

    def __str__(self) -> str:
        return Exception.__str__(self).strip()


class UnknownToolError(ToolError):
    pass


class ArgumentError(ToolError):
    pass


class ProviderError(AnalyticsAgentError):
    def __init__(self, message: str, *, status: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class ProviderAuthError(ProviderError):
    pass


class ProviderRateLimitError(ProviderError):
    pass


class ProviderTimeoutError(ProviderError):
    pass


class ProviderConnectionError(ProviderError):
    pass


class ProviderResponseError(ProviderError):
    pass


class EmptyStreamError(ProviderResponseError):
    """The server closed a streamed reply before sending any event (llama-cpp-python's server cannot
    stream with tools): the same request goes again without streaming."""
