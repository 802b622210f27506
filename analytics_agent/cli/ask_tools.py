"""Where an ask's tools come from: the local workspace, or a team server's (``--server``) as the token's
user; and whether there is anything to answer from."""

from __future__ import annotations

from typing import Any

from analytics_agent.cli.context import open_workspace


def open_tools(timezone: str | None, *, demo: bool = False, server: str | None = None, token_file=None):
    """The local workspace, or a team server's tools (``--server``) as the token's user."""
    if server is None:
        if token_file is not None:
            from analytics_agent.errors import ConfigError

            raise ConfigError("--token-file goes with --server URL (the team server to sign in to)")
        return open_workspace(timezone, demo=demo)
    import os

    from analytics_agent.workspace.remote import open_remote, read_token

    return open_remote(server, read_token(str(token_file) if token_file else None, dict(os.environ)))


def has_tables(ws: Any) -> bool:
    from analytics_agent.db.catalog import table_names
    from analytics_agent.workspace.remote import RemoteWorkspace

    if isinstance(ws, RemoteWorkspace):  # the server's tables; its guidance tells the model about them
        return True

    return bool(table_names(ws.cursor()))


def empty_database(ws: Any) -> str:
    from analytics_agent.cli.context import load_hint

    return f"{ws.db_path} has no tables yet; load a file first: {load_hint(ws.db_path)}"
