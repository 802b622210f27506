"""Run the server over stdio (what desktop clients launch) or Streamable HTTP on a local port.

On stdio, stdout is the protocol: the SDK points file descriptor 1 at stderr while it serves, so nothing
else can write there by accident, and our logs go to stderr. Over HTTP, DNS-rebinding protection
(Host/Origin checks) is on whenever the address is loopback, however it is spelled (``127.1``,
``[::1]``…); any other address serves without authentication unless sign-in is on (``signin``), which
``serve_http`` says on stderr.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server

from analytics_agent.mcp_server.gate import CallGate
from analytics_agent.mcp_server.lifecycle import DEFAULT_GRACE_S, GracefulServer, health_routes

if TYPE_CHECKING:
    from analytics_agent.mcp_server.signin import SignIn

log = logging.getLogger(__name__)
MCP_PATH = "/mcp"


def is_loopback(host: str) -> bool:
    """Whether ``host`` spells a loopback address: ``localhost``, ``127.1``, ``0x7f.1``, ``[::1]``,
    ``::ffff:127.0.0.1``… Decided from the spelling alone (no DNS), as the socket layer reads it."""
    import ipaddress
    import socket

    bare = host.strip().strip("[]").rstrip(".").lower()
    if bare == "localhost" or bare.endswith(".localhost"):
        return True
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(bare)
    except ValueError:
        try:  # the old inet_aton forms the resolver also accepts: 127.1, 0x7f.1, 2130706433
            address = ipaddress.IPv4Address(socket.inet_aton(bare))
        except OSError:
            return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def rebinding_allow_lists(host: str) -> tuple[list[str], list[str]]:
    """The Host and Origin values a loopback server accepts: the usual names and the one it was given."""
    given = host.strip()
    if ":" in given and not given.startswith("["):
        given = f"[{given}]"
    names = ["127.0.0.1", "localhost", "[::1]"]
    if given not in names:
        names.append(given)
    return [f"{n}:*" for n in names], [f"http://{n}:*" for n in names]


def serve_stdio(server: Server[Any]) -> None:
    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(main)


def http_app(
    server: Server[Any],
    *,
    host: str,
    sign_in: SignIn | None = None,
    gate: CallGate | None = None,
    ready: Callable[[], str | None] = lambda: None,
) -> Any:
    """The Streamable HTTP app at ``MCP_PATH``, with ``/healthz`` and ``/readyz`` (``ready`` says why the
    server cannot answer queries now; ``gate`` whether it is stopping); with ``sign_in``, every request
    but the probes and the resource metadata needs a valid token."""
    from mcp.server.transport_security import TransportSecuritySettings

    security = None
    if is_loopback(host):
        hosts, origins = rebinding_allow_lists(host)
        security = TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=origins)
    elif sign_in is None:
        log.warning(
            "serving on %s without authentication: anyone who can reach the port can query "
            "(--auth users or --auth oidc signs users in)",
            host,
        )
    probes = health_routes(ready, gate or CallGate())
    if sign_in is None:
        return server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            host=host,
            transport_security=security,
            custom_starlette_routes=probes,
        )
    from analytics_agent.mcp_server.signin import add_sign_in, metadata_routes

    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        host=host,
        transport_security=security,
        custom_starlette_routes=[*metadata_routes(sign_in.resource, sign_in.issuer), *probes],
    )
    add_sign_in(app, sign_in)
    return app


def serve_http(
    server: Server[Any],
    *,
    host: str,
    port: int,
    sign_in: SignIn | None = None,
    gate: CallGate | None = None,
    ready: Callable[[], str | None] = lambda: None,
) -> None:
    """Serve until stopped; ``gate`` is the server's (stopping lets its running calls end: ``lifecycle``)."""
    import uvicorn  # only HTTP needs it

    gate = gate or CallGate()
    app = http_app(server, host=host, sign_in=sign_in, gate=gate, ready=ready)
    # log_config=None: uvicorn logs through our root logger (stderr) instead of its own stdout handler.
    # timeout_graceful_shutdown: once the running calls are done (GracefulServer), what is still open
    # gets this long; a client's open event stream would otherwise hold the shutdown as long as it stays.
    config = uvicorn.Config(
        app,
        host=host.strip().strip("[]"),
        port=port,
        log_config=None,
        access_log=False,
        lifespan="on",
        timeout_graceful_shutdown=5,
    )
    GracefulServer(config, gate, grace_s=DEFAULT_GRACE_S).run()
