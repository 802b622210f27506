"""Run the server over stdio (what desktop clients launch) or Streamable HTTP on a local port.

On stdio, stdout is the protocol: the SDK points file descriptor 1 at stderr while it serves, so nothing
else can write there by accident, and our logs go to stderr. Over HTTP, the SDK turns on DNS-rebinding
protection (Host/Origin checks) when bound to a loopback address; any other address serves without
authentication, which ``serve_http`` says on stderr.
"""

from __future__ import annotations

import logging
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server

log = logging.getLogger(__name__)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
MCP_PATH = "/mcp"


def serve_stdio(server: Server[Any]) -> None:
    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def serve_http(server: Server[Any], *, host: str, port: int) -> None:
    import uvicorn  # only HTTP needs it

    if host not in LOOPBACK_HOSTS:
        log.warning("serving on %s without authentication: anyone who can reach the port can query", host)
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    # log_config=None: uvicorn logs through our root logger (stderr) instead of its own stdout handler.
    uvicorn.run(app, host=host, port=port, log_config=None, access_log=False, lifespan="on")
