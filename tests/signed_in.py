"""Helpers for the sign-in tests: a real uvicorn in the test's event loop, the SDK's client with a bearer
token, and a record of the principal each MCP handler ran as."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio

from analytics_agent.team.principal import Principal, current


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Seen:
    """Who each handler ran as: an SDK server middleware placed inside ``ActAsSignedIn``."""

    def __init__(self) -> None:
        self.handlers: list[tuple[str, Principal]] = []
        self.executions: list[tuple[str, Principal]] = []

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        self.handlers.append((ctx.method, current()))
        return await call_next(ctx)


@asynccontextmanager
async def serving(app: Any, port: int) -> AsyncIterator[str]:
    """``app`` under a real uvicorn on 127.0.0.1:``port`` until the block ends."""
    import uvicorn

    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, access_log=False, lifespan="on"
    )
    server = uvicorn.Server(config)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(server.serve)
        with anyio.fail_after(60):
            while not server.started:
                await anyio.sleep(0.02)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            server.should_exit = True


def token_client(url: str, token: str, mode: str = "auto") -> Any:
    """The SDK's client over Streamable HTTP at ``url``/mcp, sending ``token`` as a bearer token."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
    return Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode)


def team_app(db: Any) -> tuple[Any, int, str, Seen, Any]:
    """A team server over ``db`` with personal tokens: (app, port, alice's token, seen, close). Alice is in
    the group ``sales``; ``seen`` records who each handler ran as."""
    from analytics_agent.mcp_server import build_server
    from analytics_agent.mcp_server.signin import SignIn
    from analytics_agent.mcp_server.transports import http_app
    from analytics_agent.team.users import PersonalTokens, add_user, users_file
    from analytics_agent.workspace.live import LiveWorkspace

    path = users_file(db)
    alice = add_user(path, "alice", ("sales",))
    live = LiveWorkspace(db)
    server = build_server(live)
    seen = Seen()
    server.middleware.append(seen)
    port = free_port()
    sign_in = SignIn(PersonalTokens(path), f"http://127.0.0.1:{port}/mcp")
    return http_app(server, host="127.0.0.1", sign_in=sign_in), port, alice, seen, live.close
