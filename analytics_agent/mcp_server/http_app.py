"""The Streamable HTTP app: the SDK's MCP route, plus ``/healthz`` and ``/readyz``, and a shutdown that
finishes the calls running.

``/healthz`` answers 200 while the process serves at all (a liveness probe); ``/readyz`` answers 200 when
the workspace opens and its database answers a query, 503 with the reason in one line otherwise (a
load from another process holding the file, the file gone, the server shutting down). Neither needs
sign-in nor reveals more than that reason.

On shutdown uvicorn stops accepting connections and waits for the requests in flight (up to its
``timeout_graceful_shutdown``); then, before the SDK's session manager cancels its sessions, the gate
turns new calls away and the app waits up to ``grace_s`` for the calls still running to end, so a call
that started is answered and recorded in the audit trail.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from analytics_agent.errors import AnalyticsAgentError
from analytics_agent.mcp_server.gate import CallGate

if TYPE_CHECKING:
    from analytics_agent.workspace.live import LiveWorkspace

MCP_PATH = "/mcp"
DEFAULT_GRACE_S = 30.0
"""Longer than a call's own time limit (15 s by default), so a call that started gets to end."""


def database_problem(live: LiveWorkspace) -> str | None:
    """Why ``live`` cannot answer a query now, in one line; None when it can."""
    try:
        with live.use() as ws:
            cursor = ws.cursor()
            try:
                cursor.execute("SELECT 1").fetchall()
            finally:
                cursor.close()
    except AnalyticsAgentError as exc:
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    except Exception as exc:  # a probe must answer, whatever DuckDB raised
        return f"the database did not answer: {type(exc).__name__}"
    return None


def health_routes(ready: Callable[[], str | None], gate: CallGate) -> list[Route]:
    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        problem = "the server is shutting down" if gate.closing else await anyio.to_thread.run_sync(ready)
        if problem:
            return JSONResponse({"status": "not ready", "reason": problem}, status_code=503)
        return JSONResponse({"status": "ready"})

    return [Route("/healthz", healthz, methods=["GET"]), Route("/readyz", readyz, methods=["GET"])]


def http_app(
    server: Server[Any],
    *,
    host: str,
    security: TransportSecuritySettings | None,
    gate: CallGate,
    ready: Callable[[], str | None],
    grace_s: float = DEFAULT_GRACE_S,
) -> Starlette:
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        host=host,
        transport_security=security,
        custom_starlette_routes=health_routes(ready, gate),
    )
    sessions = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[Any]:
        async with sessions(app) as state:
            try:
                yield state
            finally:  # before the session manager cancels its sessions: let running calls end
                gate.close()
                with anyio.move_on_after(grace_s, shield=True):
                    await gate.drained()

    app.router.lifespan_context = lifespan
    return app
