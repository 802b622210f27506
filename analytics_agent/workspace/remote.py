"""Tools from a team server: ``ask``/``chat --server URL`` run their tool calls there, as a signed-in user.

The model still runs here; only the tools move. The server's ``tools/list`` becomes a registry (its schemas
exactly as served), each call goes to its ``tools/call`` with the user's bearer token, and the system
prompt is the server's own guidance prompt, so the model is told about the server's tables, not a local
file's. The server's access policy and audit trail see the call as any MCP client's.

The agent is synchronous and the SDK's client is not: the client lives in a blocking portal (an event
loop in a thread of its own); calls from the agent's worker threads go through it.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from analytics_agent import bounded_json
from analytics_agent.errors import ConfigError
from analytics_agent.tools.base import Tool
from analytics_agent.tools.executor import ToolOutcome, error_outcome
from analytics_agent.tools.registry import Registry

TOKEN_ENV = "ANALYTICS_AGENT_TOKEN"
PROMPT_NAME = "analytics"  # the server's guidance prompt (mcp_server/render.py)


class RemoteTool(Tool):
    """A tool as a team server lists it: its schema is the server's, and it runs only there (it has no
    ``arguments`` model here: the server validates every call)."""

    def __init__(self, name: str, description: str, schema: dict[str, Any], *, rows: bool) -> None:
        self.name = name
        self.description = description
        self._schema = schema
        if rows:  # the server declares the table envelope as its output schema
            self.returns = "rows"

    def json_schema(self) -> dict[str, Any]:
        return self._schema


@dataclass
class RemoteWorkspace:
    """What ``ask`` and ``chat`` need of a workspace, from a team server: tools, a runner, guidance."""

    url: str
    registry: Registry
    executor: RemoteExecutor
    guidance: str
    _stack: ExitStack

    @property
    def db_path(self) -> str:  # where the answers come from, for messages that name it
        return self.url

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> RemoteWorkspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RemoteExecutor:
    """Runs the model's calls on the server; like ``Executor`` it never raises."""

    def __init__(self, portal: Any, client: Any) -> None:
        self._portal = portal
        self._client = client

    def execute(self, name: str, arguments: str | dict[str, Any] | None) -> ToolOutcome:
        started = time.perf_counter()
        try:  # bounded: 100,000-deep arguments raised RecursionError out of a call that never raises
            decoded = bounded_json.loads(arguments) if isinstance(arguments, str) else (arguments or {})
        except ValueError as exc:
            return error_outcome(
                name, f"the arguments of {name} are not JSON ({exc}); send one flat JSON object"
            )
        try:
            result = self._portal.call(self._client.call_tool, name, decoded)
        except Exception as exc:  # the server went away mid-question: the model reads why, the loop goes on
            return error_outcome(name, f"the team server did not answer {name}: {_one_line(exc)}")
        unread = [block.type for block in result.content if not isinstance(getattr(block, "text", None), str)]
        if unread:  # our servers answer in text; anything else must not vanish from the model's view
            return error_outcome(name, f"the team server answered {name} with {unread[0]} content, not text")
        text = "\n".join(block.text for block in result.content)
        if len(text) > MAX_TEXT_CHARS:
            text = f"{text[:MAX_TEXT_CHARS]}…[truncated: {len(text):,} chars]"
        structured = result.structured_content if isinstance(result.structured_content, dict) else {}
        rows = structured.get("rows")
        return ToolOutcome(
            name=name,
            text=text,
            is_error=bool(result.is_error),
            rows=len(rows) if isinstance(rows, list) else 0,
            duration_ms=(time.perf_counter() - started) * 1000,
            arguments=decoded if isinstance(decoded, dict) else {},
        )

    def stop_running(self, until: Any = None) -> None:
        """Nothing runs here to interrupt: a dropped question's calls finish on the server."""

    def close(self) -> None:
        pass


def read_token(token_file: str | None, environ: dict[str, str]) -> str:
    """The bearer token: from ``--token-file`` when given, else ``ANALYTICS_AGENT_TOKEN``; never a flag's
    value, so it never shows in a shell's history or the process list."""
    if token_file:
        from pathlib import Path

        try:
            token = Path(token_file).expanduser().read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"cannot read --token-file {token_file}: {exc.strerror or exc}") from None
        if not token:
            raise ConfigError(f"--token-file {token_file} is empty")
        return token
    token = environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise ConfigError(f"--server needs a token: set {TOKEN_ENV} or pass --token-file FILE")
    return token


def check_sign_in(url: str, token: str) -> None:
    """Ask the server once, before the model is called, whether it takes the token: a refusal is a
    one-line error with the server's reason (the SDK's client would fail with an HTTP traceback)."""
    import httpx

    try:
        answer = httpx.post(url, json={}, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    except httpx.HTTPError as exc:
        raise ConfigError(f"cannot reach the team server {url}: {_one_line(exc)}") from None
    if answer.status_code in (401, 403):
        try:
            reason = str(answer.json().get("error_description", ""))
        except ValueError:
            reason = ""
        raise ConfigError(f"the team server {url} refused the token: {reason or answer.status_code}")
    if answer.status_code == 404:
        raise ConfigError(f"{url} answered 404 Not Found: give the team server's MCP address (…/mcp)")


def open_remote(url: str, token: str) -> RemoteWorkspace:
    """Connect to the team server at ``url`` (its ``/mcp`` address) as the token's user."""
    from importlib.util import find_spec

    if find_spec("mcp") is None:
        raise ConfigError("--server needs the MCP SDK: pip install 'analytics-agent[mcp]'")
    check_sign_in(url, token)
    from anyio.from_thread import start_blocking_portal

    stack = ExitStack()
    try:
        portal = stack.enter_context(start_blocking_portal())
        client = stack.enter_context(portal.wrap_async_context_manager(_client(url, token)))
        listed = portal.call(client.list_tools)
        prompt = portal.call(client.get_prompt, PROMPT_NAME)
    except Exception as exc:
        stack.close()
        raise ConfigError(f"cannot use the team server {url}: {_one_line(exc)}") from None
    tools = [
        RemoteTool(t.name, t.description or t.name, dict(t.input_schema), rows=t.output_schema is not None)
        for t in listed.tools
    ]
    guidance = "\n".join(getattr(m.content, "text", "") for m in prompt.messages)
    return RemoteWorkspace(url, Registry(tools), RemoteExecutor(portal, client), guidance, stack)


@asynccontextmanager
async def _client(url: str, token: str) -> AsyncIterator[Any]:
    """The SDK's client over Streamable HTTP, sending the token with every request; both closed after."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=REQUEST_DEADLINE_S) as http,
        # the whole wait for each answer: httpx's timeout is per read, so a server that sends a
        # keep-alive line every few seconds, or headers and then nothing, held `ask --server` for ever
        Client(
            streamable_http_client(url, http_client=http), read_timeout_seconds=REQUEST_DEADLINE_S
        ) as client,
    ):
        yield client


REQUEST_DEADLINE_S = 300.0
"""The longest one request to the team server may take, answer included: its calls stop at its own
tool time limit (15 s); the rest is room for its queue of other clients' calls."""
MAX_TEXT_CHARS = 200_000
"""A tool result's text as the model reads it: our own results are cut far below this (100,000
characters of rows); a server sending more is cut, not forwarded whole to the model on every turn."""


def _one_line(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:  # the SDK's task groups wrap the cause
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError) or "timed out" in str(exc).lower():
        return f"no answer within {REQUEST_DEADLINE_S:g} s"
    text = " ".join(str(exc).split())[:200]
    return text or type(exc).__name__
