"""Sign-in at the HTTP edge: the Streamable HTTP app as an OAuth 2.1 resource server.

Every request but the Protected Resource Metadata (RFC 9728, ``/.well-known/oauth-protected-resource``)
needs ``Authorization: Bearer TOKEN``. Starlette's ``AuthenticationMiddleware`` asks our backend, which
refuses a token in the query string and an oversized one unread, and hands the rest to a verifier (personal
tokens or JWTs, ``team/``) in a worker thread (the users file and the issuer's keys are I/O). A refusal is
a 401 (403 for a missing scope) whose ``WWW-Authenticate`` header carries the reason and the metadata's
address; nothing behind it runs. A verified request carries a ``SignedInUser`` in its ASGI scope, which
the SDK also uses to bind a session to the credential that opened it.

The handlers may run in another task than the HTTP request (the session's own), so a context variable
set here would not reach them: ``ActAsSignedIn``, an SDK server middleware, reads the user from the request
each message came with (``ctx.request``) and runs the handler inside ``acting_as(principal)``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any, NoReturn, Protocol

import anyio
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.context import CallNext, HandlerResult, ServerMiddleware, ServerRequestContext
from starlette.authentication import AuthCredentials, AuthenticationBackend, AuthenticationError
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from analytics_agent.errors import AnalyticsAgentError, SignInError
from analytics_agent.mcp_server.gate import client_name
from analytics_agent.team.principal import LOCAL, Principal, acting_as
from analytics_agent.team.tokens import MAX_TOKEN_CHARS

log = logging.getLogger(__name__)
WELL_KNOWN = "/.well-known/oauth-protected-resource"
QUERY_TOKEN_NAMES = frozenset({"access_token", "token", "bearer"})


class Verifier(Protocol):
    def verify(self, token: str) -> Principal: ...


@dataclasses.dataclass(frozen=True)
class SignIn:
    """How the HTTP server signs requests in: who verifies tokens, this server's resource URI (the
    audience tokens must name) and the issuer it trusts (none for personal tokens)."""

    verifier: Verifier
    resource: str
    issuer: str | None = None


class SignedInUser(AuthenticatedUser):
    """The verified principal, in the shape the SDK reads (session ownership compares its components)."""

    def __init__(self, principal: Principal, issuer: str) -> None:
        super().__init__(
            AccessToken(
                token="",  # the token itself is not kept past verification
                client_id=principal.client or principal.name,
                scopes=list(principal.scopes),
                subject=principal.name,
                claims={"iss": issuer},
            )
        )
        self.principal = principal


class _Refused(AuthenticationError):
    def __init__(self, error: SignInError) -> None:
        super().__init__(str(error))
        self.error = error


class BearerBackend(AuthenticationBackend):
    def __init__(self, verifier: Verifier, issuer: str) -> None:
        self.verifier = verifier
        self.issuer = issuer

    async def authenticate(self, conn: HTTPConnection) -> tuple[AuthCredentials, SignedInUser] | None:
        if QUERY_TOKEN_NAMES & {k.lower() for k in conn.query_params}:
            _refuse(conn, SignInError("a token in the URL is refused: send it as Authorization: Bearer"))
        header = conn.headers.get("authorization")
        if header is None:
            return None
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            _refuse(
                conn, SignInError("send the token as Authorization: Bearer TOKEN", code="invalid_request")
            )
        token = token.strip()
        if len(token) > MAX_TOKEN_CHARS:
            _refuse(conn, SignInError(f"the token is longer than {MAX_TOKEN_CHARS} characters"))
        try:
            principal = await anyio.to_thread.run_sync(self.verifier.verify, token)
        except SignInError as exc:
            _refuse(conn, exc)
        except AnalyticsAgentError as exc:  # the users file is damaged: the owner must see why
            log.error("cannot check tokens: %s", exc)
            _refuse(conn, SignInError("the server cannot check tokens now; its log says why"))
        return AuthCredentials(list(principal.scopes)), SignedInUser(principal, self.issuer)


def _refuse(conn: HTTPConnection, error: SignInError) -> NoReturn:
    client = conn.client.host if conn.client else "?"
    log.warning("refused a request from %s: %s", client, error)  # the reason, never the token
    raise _Refused(error)


def refusal(error: SignInError, metadata_url: str) -> Response:
    """The 401/403 answer: the reason in the body and in ``WWW-Authenticate`` (RFC 6750 §3)."""
    reason = str(error).replace('"', "'").replace("\\", "/").encode("ascii", "replace").decode()
    # RFC 6750 §3.1: a request that carried no token at all gets the challenge without an error code
    code = f'error="{error.code}", ' if error.code else ""
    challenge = f'Bearer {code}error_description="{reason}", resource_metadata="{metadata_url}"'
    return JSONResponse(
        {"error": error.code or "unauthorized", "error_description": str(error)},
        status_code=error.status,
        headers={"WWW-Authenticate": challenge},
    )


OPEN_PATHS = frozenset({"/healthz", "/readyz"})
"""Probes a load balancer sends without a token; they tell whether the server runs, nothing more."""


def _open_path(path: str) -> bool:
    return path.startswith(WELL_KNOWN) or path in OPEN_PATHS


class RequireSignIn:
    """Lets a request through only with a verified user; the resource metadata is open to everyone."""

    def __init__(self, app: ASGIApp, metadata_url: str) -> None:
        self.app = app
        self.metadata_url = metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        signed_in = isinstance(scope.get("user"), SignedInUser)
        if scope["type"] == "http" and not signed_in and not _open_path(scope["path"]):
            missing = SignInError("sign-in required: send Authorization: Bearer TOKEN", code="")
            await refusal(missing, self.metadata_url)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def resource_metadata_url(resource: str) -> str:
    """RFC 9728 §3.1: the well-known path goes between the host and the resource's path."""
    from urllib.parse import urlsplit

    parts = urlsplit(resource)
    path = parts.path if parts.path != "/" else ""
    return f"{parts.scheme}://{parts.netloc}{WELL_KNOWN}{path}"


def metadata_routes(resource: str, issuer: str | None) -> list[Route]:
    """Protected Resource Metadata (RFC 9728), written here rather than by the SDK's route: its URL type
    adds a trailing slash to a path-less issuer (``http://id:8080/``), which then no longer equals the
    issuer a client compares it with (RFC 8414 §3.3: exactly), and its model demands an authorization
    server, which personal tokens do not have."""
    document: dict[str, Any] = {"resource": resource}
    if issuer is not None:
        document["authorization_servers"] = [issuer]
    document |= {"bearer_methods_supported": ["header"], "resource_name": "analytics-agent"}

    async def metadata(_: Any) -> Response:
        return JSONResponse(document, headers={"Cache-Control": "public, max-age=3600"})

    path = WELL_KNOWN + (resource_metadata_url(resource).split(WELL_KNOWN, 1)[1])
    return [Route(path, endpoint=metadata, methods=["GET"])]


def add_sign_in(app: Any, sign_in: SignIn) -> None:
    """Put sign-in in front of the app's routes (Starlette's ``add_middleware``: the last added runs first)."""
    verifier, issuer = sign_in.verifier, sign_in.issuer
    metadata_url = resource_metadata_url(sign_in.resource)
    app.add_middleware(RequireSignIn, metadata_url=metadata_url)
    app.add_middleware(AuthContextMiddleware)
    app.add_middleware(
        AuthenticationMiddleware,
        backend=BearerBackend(verifier, issuer or sign_in.resource),
        on_error=lambda _conn, exc: refusal(
            exc.error if isinstance(exc, _Refused) else SignInError(str(exc)), metadata_url
        ),
    )


def principal_of(ctx: Any) -> Principal:
    """The signed-in principal of the request ``ctx`` came with; ``LOCAL`` where nobody signs in."""
    request = getattr(ctx, "request", None)
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, Mapping) else None
    if not isinstance(user, SignedInUser):
        return LOCAL
    principal = user.principal
    if not principal.client:
        principal = dataclasses.replace(principal, client=client_name(ctx))
    return principal


class ActAsSignedIn(ServerMiddleware[Any]):
    """Every handler (tools, resources, prompts) runs as the request's verified principal."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        with acting_as(principal_of(ctx)):
            return await call_next(ctx)
