"""The HTTP server's life: ``/healthz`` and ``/readyz`` beside the MCP route, and a shutdown that finishes
the calls running.

``/healthz`` answers 200 while the process serves at all (a liveness probe); ``/readyz`` answers 200 when
the workspace opens and its database answers a query, 503 with the reason in one line otherwise (a
load from another process holding the file, the file gone, the server shutting down). Neither needs
sign-in (a probe carries no token; ``signin.OPEN_PATHS``) nor reveals more than that reason.

Stopping (SIGTERM, Ctrl-C) finishes the calls running (``GracefulServer``): the gate turns new calls
away at once (they are told the server is shutting down; ``/readyz`` says so), the calls running get
up to ``grace_s`` to end and be answered and recorded, and only then do the event streams close and
uvicorn's own shutdown begin. Left alone, sse-starlette (under the SDK) ends every event stream the
moment uvicorn is told to stop, a call's answer stream included: its client got "SSE stream ended
without a response" for a call the server went on to finish.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio
import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from analytics_agent.errors import AnalyticsAgentError
from analytics_agent.mcp_server.gate import CallGate

if TYPE_CHECKING:
    from analytics_agent.workspace.live import LiveWorkspace

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


class GracefulServer(uvicorn.Server):
    """uvicorn's server, whose shutdown first lets ``gate``'s running calls end (see the module docstring)."""

    def __init__(self, config: uvicorn.Config, gate: CallGate, *, grace_s: float = DEFAULT_GRACE_S) -> None:
        super().__init__(config)
        self.gate = gate
        self.grace_s = grace_s

    async def serve(self, sockets: Any = None) -> None:
        from sse_starlette.sse import AppStatus

        AppStatus.disable_automatic_graceful_drain()  # the streams end when we say: after the drain
        try:
            await super().serve(sockets)
        finally:
            AppStatus.should_exit = False  # process-wide: a later server in this process starts afresh
            AppStatus.enable_automatic_graceful_drain_mode()

    async def shutdown(self, sockets: Any = None) -> None:
        from sse_starlette.sse import AppStatus

        self.gate.close()
        with anyio.move_on_after(self.grace_s):
            while self.gate.running and not self.force_exit:  # a second Ctrl-C stops waiting
                await anyio.sleep(0.05)
        AppStatus.should_exit = True
        await super().shutdown(sockets)
