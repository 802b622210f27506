"""``mcp``: serve the tools, tables and guidance to MCP clients over stdio or Streamable HTTP.

The SDK is an optional extra (it brings starlette, uvicorn and more); without it the command says how
to install it. Everything the server prints goes to stderr: on stdio, stdout is the protocol.
"""

# No ``from __future__ import annotations`` here: typer reads these signatures at every start, and a string
# annotation costs it an eval each (about a tenth of --help's CPU; docs/performance.md).
# ruff: noqa: UP045 - typer reads the Optional[...] annotations at run time
import gc
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from analytics_agent.cli.context import (
    State,
    business_zone,
    db_path,
    gets_sample_data,
    linked_sources,
    say_created,
    user_tool_dirs,
    warn_problems,
)
from analytics_agent.errors import ConfigError

if TYPE_CHECKING:  # the workspace is imported when the server starts, not to parse the command line
    from analytics_agent.workspace.live import LiveWorkspace

INSTALL_HINT = "the mcp command needs the MCP SDK: pip install 'analytics-agent[mcp]'"


_HttpOpt = Annotated[bool, typer.Option("--http", help="Serve Streamable HTTP instead of stdio.")]
_PortOpt = Annotated[int, typer.Option("--port", min=1, max=65535, help="HTTP port.")]
_HostOpt = Annotated[
    str, typer.Option("--host", help="HTTP address to bind; anything but loopback is reachable by others.")
]
_AuthOpt = Annotated[
    str,
    typer.Option(
        "--auth",
        help="HTTP sign-in: none, users (personal tokens, see `users add`) or oidc (JWTs from --issuer).",
    ),
]
_IssuerOpt = Annotated[
    Optional[str], typer.Option("--issuer", help="oidc: the provider's issuer URL.", show_default=False)
]
_AudienceOpt = Annotated[
    Optional[str],
    typer.Option(
        "--audience",
        help="This server's public URL (its resource URI): tokens must name it. Default: the local URL.",
        show_default=False,
    ),
]
_GroupsClaimOpt = Annotated[
    str, typer.Option("--groups-claim", help="oidc: the token claim that lists the user's groups.")
]
_ScopeOpt = Annotated[
    Optional[list[str]],
    typer.Option(
        "--scope", help="oidc: a scope every token must carry; repeat for more.", show_default=False
    ),
]
_AuditOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--audit",
        metavar="FILE",
        help="Append one JSON line per tool call to FILE (docs/audit.md). Default with --http: "
        "beside the database (NAME.audit.jsonl); over stdio: none.",
        show_default=False,
    ),
]
_RateOpt = Annotated[
    Optional[float],
    typer.Option(
        "--rate",
        help="With sign-in: tool calls a second each user may make on average (default 5).",
        show_default=False,
    ),
]
_BurstOpt = Annotated[
    Optional[int],
    typer.Option(
        "--burst",
        help="With sign-in: tool calls each user may make at once after a quiet spell (default 60).",
        show_default=False,
    ),
]
_LogFormatOpt = Annotated[
    str, typer.Option("--log-format", metavar="text|json", help="Log lines on stderr: text or json.")
]
_AccessOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--access",
        help="Access policy: who may read which tables (default: access.yaml beside the database).",
    ),
]


def mcp(
    http: _HttpOpt = False,
    port: _PortOpt = 8000,
    host: _HostOpt = "127.0.0.1",
    auth: _AuthOpt = "none",
    issuer: _IssuerOpt = None,
    audience: _AudienceOpt = None,
    groups_claim: _GroupsClaimOpt = "groups",
    scope: _ScopeOpt = None,
    audit: _AuditOpt = None,
    log_format: _LogFormatOpt = "text",
    access: _AccessOpt = None,
    rate: _RateOpt = None,
    burst: _BurstOpt = None,
) -> None:
    """Serve the tools to MCP clients (Claude Desktop, Claude Code, Cursor, VS Code): stdio by default."""
    _require_sdk()
    from analytics_agent.mcp_server.gate import call_limits

    limits = call_limits(rate, burst, signed_in=http and auth in ("users", "oidc"))
    sign_in = _sign_in(
        http,
        auth,
        issuer=issuer,
        audience=audience,
        host=host,
        port=port,
        groups_claim=groups_claim,
        scopes=scope,
    )
    from analytics_agent.cli.log_format import FORMATS, configure

    if log_format not in FORMATS:
        raise ConfigError(f"--log-format must be text or json, not {log_format!r}")
    if http:
        _policy_needs_sign_in(auth, access)
        _check_port_free(host, port)
    configure(log_format)  # -v configured INFO already; otherwise warnings only, on stderr
    if not db_path().exists() and not gets_sample_data(db_path()):
        _serve_missing_database(http, host, port, sign_in)
        return
    live = _live_workspace(access)
    try:
        _serve(
            live,
            http,
            host=host,
            port=port,
            sign_in=sign_in,
            audit=audit,
            said=_signing_in(auth, issuer),
            limits=limits,
        )
    finally:
        live.close()


def _serve(
    live, http: bool, *, host: str, port: int, sign_in, audit: Optional[Path], said: str, limits: dict
) -> None:
    """Say what is served, then serve it until stopped, with its audit trail."""
    from analytics_agent.config import load_config_file

    if live.created:
        say_created(live.db_path, sample_data=gets_sample_data(db_path()))
    warn_problems(live.problems)
    timezone = load_config_file().get("timezone")
    door = _import_mcp_server() if http else None
    where = f"http://{host}:{port}{door.MCP_PATH}" if door else "stdio"
    typer.echo(
        f"analytics-agent MCP server on {where} ({len(live.registry)} tools, {live.db_path}{said})", err=True
    )
    # what start-up built lives as long as the server: out of the collector's walks (every full
    # collection, the interpreter's last one at exit too, walked it all again). Kept for
    # docs/performance.md row 5, the first tools/list within 1.5x of `tools list`: 1.31x with it,
    # 1.51x without (December 2026, paired, CPU of the server)
    gc.freeze()
    trail = _audit_trail(audit or (default_audit_path(live.db_path) if http else None))
    try:
        if door:
            _serve_http(door, live, timezone, trail, host=host, port=port, sign_in=sign_in, limits=limits)
        else:
            # our own front answers the handshake and tools/list; the SDK (~1.7 s of imports) loads on
            # the first message it leaves (docs/performance.md)
            from analytics_agent.mcp_server.front import serve

            serve(live, timezone=timezone, trail=trail)
    finally:
        if trail is not None:
            trail.close()


def _policy_needs_sign_in(auth: str, access: Optional[Path]) -> None:
    """Over HTTP without sign-in every client is the database's owner, so a policy would limit no one:
    serving anyway would look limited and show everything."""
    from analytics_agent.team.access import policy_path_for

    if auth != "none":
        return
    policy = access if access is not None else policy_path_for(db_path())
    if access is not None or policy.exists():
        raise ConfigError(
            f"{policy} limits who reads what, but without sign-in every HTTP client is the owner and sees "
            "everything: add --auth users (or --auth oidc)"
        )


def default_audit_path(db: Path) -> Path:
    """``sales.duckdb`` → ``sales.audit.jsonl`` beside it: the trail of who asked that database what."""
    return db.with_name(f"{db.stem}.audit.jsonl")


def _audit_trail(path: Optional[Path]):
    if path is None:
        return None
    from analytics_agent.team.audit import AuditLog

    def warn(message: str) -> None:
        typer.echo(f"warning: {message}", err=True)

    trail = AuditLog(path.expanduser(), warn=warn)
    typer.echo(f"audit trail: {trail.path}", err=True)
    return trail


def _serve_http(door, live, timezone, trail, *, host: str, port: int, sign_in, limits: dict) -> None:
    """One gate for the server's calls and its shutdown; ``/readyz`` asks the database."""
    from analytics_agent.mcp_server.gate import CallGate
    from analytics_agent.mcp_server.lifecycle import database_problem

    gate = CallGate(**limits)
    server = door.build_server(live, timezone=timezone, gate=gate, trail=trail)
    door.serve_http(
        server, host=host, port=port, sign_in=sign_in, gate=gate, ready=lambda: database_problem(live)
    )


def _live_workspace(access: Optional[Path]) -> "LiveWorkspace":
    from analytics_agent.workspace.live import LiveWorkspace

    sources, unreadable = linked_sources(db_path())
    for problem in unreadable:
        typer.echo(f"warning: {problem}", err=True)
    return LiveWorkspace(
        db_path(),
        tool_dirs=user_tool_dirs(State.tools_dirs),
        allow_sql=State.allow_sql,
        sources=sources,
        sample_data=gets_sample_data(db_path()),
        timezone=business_zone(None),
        access_file=access,
    )


def _serve_missing_database(http: bool, host: str, port: int, sign_in=None) -> None:
    """A mistyped path in a client's config must not become a new empty database every question fails on,
    nor a server that stops at start (the client shows a badge, its model nothing): the server starts, and
    everything it answers says which file is missing."""
    door = _import_mcp_server()
    from analytics_agent.mcp_server.missing import build_missing_server

    problem = missing_database_for_mcp(db_path())
    typer.echo(f"error: {problem}", err=True)
    if http:
        door.serve_http(build_missing_server(problem), host=host, port=port, sign_in=sign_in)
    else:
        door.serve_stdio(build_missing_server(problem))


def missing_database_for_mcp(path: Path) -> str:
    """One line for the client's model: the file that does not exist, and the path to fix."""
    from analytics_agent.suggest import did_you_mean

    nearby = [p.name for p in path.parent.glob("*.duckdb")] if path.parent.is_dir() else []
    return (
        f"the database file {path} does not exist{did_you_mean(path.name, nearby)}; fix the --db path in "
        f"this MCP server's configuration and restart it, or create the file with: analytics-agent --db "
        f"{path} load FILE.csv"
    )


def _signing_in(auth: str, issuer) -> str:
    if auth == "users":
        return f", sign-in: personal tokens from {_users_file_name()}"
    return f", sign-in: tokens from {issuer}" if auth == "oidc" else ""


def _users_file_name() -> str:
    from analytics_agent.team.users import users_file

    return str(users_file(db_path()))


def _sign_in(http: bool, auth: str, *, issuer, audience, host: str, port: int, groups_claim: str, scopes):
    """The HTTP server's sign-in from the options, or None; a contradiction is a one-line error."""
    if auth not in ("none", "users", "oidc"):
        raise ConfigError(f"--auth {auth!r} is not one of: none, users, oidc")
    if auth == "none":
        if issuer or audience or scopes:
            raise ConfigError("--issuer, --audience and --scope need --auth oidc (or --auth users)")
        return None
    if not http:
        raise ConfigError(f"--auth {auth} signs in HTTP clients: add --http (stdio has no sign-in)")
    from analytics_agent.mcp_server.signin import SignIn

    resource = audience or f"http://{host}:{port}/mcp"
    if auth == "users":
        if issuer or scopes:
            raise ConfigError("--issuer and --scope belong to --auth oidc; personal tokens have neither")
        from analytics_agent.team.users import PersonalTokens, read_users, users_file

        path = users_file(db_path())
        if not read_users(path):
            raise ConfigError(f"no users in {path}: add one first with: analytics-agent users add NAME")
        return SignIn(PersonalTokens(path), resource)
    if not issuer or not audience:
        raise ConfigError("--auth oidc needs --issuer URL (the provider) and --audience URL (this server)")
    from analytics_agent.errors import SignInError
    from analytics_agent.team.tokens import JwtRules, discover_jwks_uri, http_get_json, oidc_verifier

    rules = JwtRules(issuer, audience, groups_claim=groups_claim, required_scopes=tuple(scopes or ()))
    try:  # a mistyped --issuer fails here, not as a 401 on every request
        jwks_uri = discover_jwks_uri(issuer, http_get_json)
    except SignInError as exc:
        raise ConfigError(f"{exc}; check --issuer") from None
    return SignIn(oidc_verifier(rules, jwks_uri=jwks_uri), resource, issuer)


def _require_sdk() -> None:
    """A one-line error naming the extra when the SDK is not installed, found without importing it."""
    from importlib.util import find_spec

    if find_spec("mcp") is None or find_spec("mcp_types") is None:
        raise ConfigError(INSTALL_HINT)


def _import_mcp_server():
    """The MCP front door with the SDK loaded, or a one-line error naming the extra when it is not there."""
    try:
        from analytics_agent import mcp_server
        from analytics_agent.mcp_server import server, transports  # noqa: F401 (load the SDK now)
    except ImportError as exc:
        if (exc.name or "").split(".")[0] in ("mcp", "mcp_types", "uvicorn", "starlette"):
            raise ConfigError(INSTALL_HINT) from None
        raise
    return mcp_server


def _check_port_free(host: str, port: int) -> None:
    """Fail with one line before start-up rather than with uvicorn's log lines after it."""
    import socket  # the HTTP transport only; every other command (and --help) goes without

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise ConfigError(
                f"cannot serve on {host}:{port}: {exc.strerror or exc}; choose another --port"
            ) from None
