"""``aa.connect(url)``: a team server's tools from Python, as a signed-in user; the model runs here.

    ts = aa.connect("https://analytics.example.com/mcp")          # token from ANALYTICS_AGENT_TOKEN
    ts.call("sales_summary", {"city": "Pune", "day": "2026-10-24"})
    ts.ask("How did Pune do yesterday?", model="qwen3:8b", base_url="http://localhost:11434/v1")

The calls run on the server, under its access policy and audit trail, as any MCP client's do
(``workspace/remote``); the answers come back as the same ``Result`` and ``Answer`` as ``aa.open``'s.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from analytics_agent.api.pythonic import speaks_python
from analytics_agent.api.results import Answer, Result
from analytics_agent.api.workspace import _ask_once, _progress_line, model_settings
from analytics_agent.errors import ConfigError, ToolError
from analytics_agent.workspace.remote import TOKEN_ENV, RemoteWorkspace, open_remote, read_token


@speaks_python
def connect(url: str, *, token: str | None = None, token_file: str | Path | None = None) -> TeamServer:
    """Sign in to the team server at ``url`` (its ``/mcp`` address).

    Args:
        url: the server's MCP address, e.g. ``https://analytics.example.com/mcp``.
        token: your token; default: the file ``token_file``, else the ``ANALYTICS_AGENT_TOKEN`` variable.
        token_file: a file holding your token.

    Raises:
        ConfigError: no token, the server cannot be reached, or it refused the token (with its reason).
    """
    if token is None:
        if token_file is None and not os.environ.get(TOKEN_ENV, "").strip():
            raise ConfigError(f"connect() needs a token: token=, token_file= or the {TOKEN_ENV} variable")
        token = read_token(str(token_file) if token_file is not None else None, dict(os.environ))
    return TeamServer(open_remote(url, token))


class TeamServer:
    """A team server's tools, used as the token's user; see ``analytics_agent.connect``."""

    def __init__(self, remote: RemoteWorkspace) -> None:
        self._remote = remote
        self.url = remote.url

    @speaks_python
    def tools(self) -> list[str]:
        """The names of the tools the server gives this user."""
        return list(self._remote.registry.names)

    @speaks_python
    def tables(self) -> Result:
        """The server's tables (its ``list_tables`` tool)."""
        return self.call("list_tables", {})

    @speaks_python
    def call(self, name: str, arguments: Mapping[str, Any] | str | None = None) -> Result:
        """Run one tool on the server, with no model. Raises ToolError with the server's message."""
        args: Any = dict(arguments) if isinstance(arguments, Mapping) else arguments
        outcome = self._remote.executor.execute(name, args)
        if outcome.is_error:
            raise ToolError(outcome.text.removeprefix("Error: "))
        return Result.from_text(name, outcome.arguments, outcome.text)

    @speaks_python
    def ask(
        self,
        question: str,
        *,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        provider: str | None = None,
        max_steps: int | None = None,
        max_tokens_budget: int | None = None,
        tool_mode: str | None = None,
        transcript: str | Path | None = None,
        progress: Callable[[str], None] | bool | None = None,
    ) -> Answer:
        """Ask one question: the model here (settings as ``Workspace.ask``), the tools and their guidance
        from the server."""
        settings = model_settings({
            "model": model,
            "base_url": base_url,
            "api_key": api_key,
            "provider": provider,
            "max_steps": max_steps,
            "max_tokens_budget": max_tokens_budget,
            "tool_mode": tool_mode,
        })  # fmt: skip
        return _ask_once(self._remote, question, settings, transcript, _progress_line(progress))

    def close(self) -> None:
        self._remote.close()

    def __enter__(self) -> TeamServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<analytics_agent.TeamServer {self.url}>"
