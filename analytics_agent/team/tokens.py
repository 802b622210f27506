"""JWT access tokens from an OpenID provider, checked against its published keys (JWKS).

PyJWT does the cryptography; this module decides what to accept:

- only asymmetric algorithms (RS*, PS*, ES*, EdDSA): ``none`` and the HMAC family are refused before any key
  is looked at, so a token "signed" with the provider's *public* key as an HMAC secret never verifies;
- the key is the one the token's ``kid`` names, used only with the algorithm the token states and only if
  the key's type fits it (PyJWK refuses an RSA key for ES256);
- ``iss`` equal to the configured issuer, ``aud`` containing this server's resource URI (RFC 8707),
  ``exp`` required, ``exp``/``nbf`` checked against an injected clock with a small leeway;
- the required scopes, from ``scope`` (space-separated, RFC 9068) or ``scp`` (a list).

Keys rotate: an unknown ``kid`` fetches the key set again, but at most once a minute, so a flood of tokens
with made-up key ids costs the provider one request a minute. The cache holds at most ``MAX_KEYS`` keys.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from analytics_agent.errors import SignInError
from analytics_agent.team.principal import Principal

ASYMMETRIC = frozenset(
    {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
)
MAX_TOKEN_CHARS = 8192
"""A bigger bearer token is refused unread: real access tokens are 1-2 kB."""
MAX_KEYS = 32
REFRESH_EVERY_S = 60.0
LEEWAY_S = 30
Clock = Callable[[], float]
FetchKeys = Callable[[], dict[str, Any]]


class KeySet:
    """The provider's keys by ``kid``: fetched lazily, again on an unknown ``kid`` at most once a
    ``REFRESH_EVERY_S`` (by the injected clock), never more than ``MAX_KEYS`` kept."""

    def __init__(self, fetch: FetchKeys, *, clock: Clock = time.monotonic) -> None:
        self._fetch = fetch
        self._clock = clock
        self._keys: dict[str, dict[str, Any]] = {}
        self._fetched_at: float | None = None
        self._lock = threading.Lock()
        self.fetches = 0

    def key(self, kid: str) -> dict[str, Any]:
        with self._lock:
            if kid not in self._keys and self._may_refresh():
                self._refresh()
            found = self._keys.get(kid)
        if found is None:
            raise SignInError("the token is signed with a key the issuer does not publish (unknown kid)")
        return found

    def _may_refresh(self) -> bool:
        return self._fetched_at is None or self._clock() - self._fetched_at >= REFRESH_EVERY_S

    def _refresh(self) -> None:
        self._fetched_at = self._clock()  # set first: a failing provider is asked once a minute too
        self.fetches += 1
        try:
            published = self._fetch().get("keys")
        except SignInError:
            raise
        except Exception as exc:  # the provider is down or answers nonsense: keep the keys we had
            raise SignInError(f"cannot fetch the issuer's keys: {type(exc).__name__}") from None
        if not isinstance(published, list):
            raise SignInError("the issuer's key set (JWKS) has no list of keys")
        keys = {k["kid"]: k for k in published if isinstance(k, dict) and isinstance(k.get("kid"), str)}
        self._keys = dict(list(keys.items())[:MAX_KEYS])


@dataclass(frozen=True)
class JwtRules:
    issuer: str
    audience: str
    groups_claim: str = "groups"
    required_scopes: tuple[str, ...] = ()
    leeway_s: int = LEEWAY_S


class JwtVerifier:
    """Turns a JWT access token into a ``Principal``, or raises ``SignInError`` with the reason."""

    def __init__(self, rules: JwtRules, keys: KeySet, *, clock: Callable[[], float] = time.time) -> None:
        self.rules = rules
        self.keys = keys
        self._clock = clock

    def verify(self, token: str) -> Principal:
        import jwt

        header = _header(token)
        algorithm = header.get("alg")
        if algorithm not in ASYMMETRIC:
            raise SignInError(
                f"the token's algorithm {str(algorithm)[:20]!r} is not accepted (asymmetric only)"
            )
        kid = header.get("kid")
        if not isinstance(kid, str):
            raise SignInError("the token names no signing key (kid)")
        try:
            key = jwt.PyJWK(self.keys.key(kid), algorithm=algorithm)
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=[algorithm],
                audience=self.rules.audience,
                issuer=self.rules.issuer,
                # time is checked below against the injected clock; everything else by PyJWT
                options={"verify_exp": False, "verify_nbf": False, "verify_iat": False, "require": ["exp"]},
            )
        except jwt.InvalidAudienceError:
            raise SignInError(f"the token is for another audience, not {self.rules.audience}") from None
        except jwt.InvalidIssuerError:
            raise SignInError(f"the token is from another issuer, not {self.rules.issuer}") from None
        except jwt.PyJWTError as exc:
            raise SignInError(f"the token does not verify ({_reason(exc)})") from None
        self._check_time(claims)
        return self._principal(claims)

    def _check_time(self, claims: dict[str, Any]) -> None:
        now, leeway = self._clock(), self.rules.leeway_s
        exp, nbf = claims.get("exp"), claims.get("nbf")
        if not isinstance(exp, int | float) or isinstance(exp, bool):
            raise SignInError("the token's expiry (exp) is not a number")
        if now > exp + leeway:
            raise SignInError("the token has expired")
        if nbf is not None and (not isinstance(nbf, int | float) or now + leeway < nbf):
            raise SignInError("the token is not valid yet (nbf)")

    def _principal(self, claims: dict[str, Any]) -> Principal:
        scopes = _scopes(claims)
        missing = [s for s in self.rules.required_scopes if s not in scopes]
        if missing:
            raise SignInError(
                f"the token lacks the scope {missing[0]!r}", status=403, code="insufficient_scope"
            )
        client = claims.get("client_id") or claims.get("azp") or ""
        name = claims.get("sub") or client
        if not isinstance(name, str) or not name:
            raise SignInError("the token names no subject (sub) or client (client_id)")
        groups = claims.get(self.rules.groups_claim, [])
        if isinstance(groups, str):
            groups = groups.split()
        if not isinstance(groups, list) or not all(isinstance(g, str) for g in groups):
            raise SignInError(f"the token's {self.rules.groups_claim!r} claim is not a list of names")
        return Principal(name=name, groups=tuple(groups), scopes=scopes, client=str(client))


def _header(token: str) -> dict[str, Any]:
    import jwt

    if len(token) > MAX_TOKEN_CHARS:
        raise SignInError(f"the token is longer than {MAX_TOKEN_CHARS} characters")
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise SignInError("the token is not a JWT") from None
    return header


def _scopes(claims: dict[str, Any]) -> tuple[str, ...]:
    scope = claims.get("scope")
    if isinstance(scope, str):
        return tuple(scope.split())
    scp = claims.get("scp")
    if isinstance(scp, list):
        return tuple(s for s in scp if isinstance(s, str))
    return ()


def _reason(exc: Exception) -> str:
    """PyJWT's message, which names the check and never the token."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def discover_jwks_uri(issuer: str, get_json: Callable[[str], dict[str, Any]]) -> str:
    """The key set's address from the issuer's OpenID configuration (or its OAuth metadata, RFC 8414),
    which must name the same issuer (OpenID Connect Discovery 4.3)."""
    base = issuer.rstrip("/")
    failures = []
    for path in ("/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"):
        try:
            meta = get_json(base + path)
        except Exception as exc:
            failures.append(f"{path}: {_reason(exc)}")
            continue
        if meta.get("issuer") != issuer:
            raise SignInError(f"{base + path} names another issuer ({str(meta.get('issuer'))[:100]})")
        uri = meta.get("jwks_uri")
        if isinstance(uri, str):
            return uri
        failures.append(f"{path}: no jwks_uri")
    raise SignInError(f"the issuer {issuer} publishes no key set ({'; '.join(failures)[:300]})")


def http_get_json(url: str, *, max_bytes: int = 256_000, timeout_s: float = 10.0) -> dict[str, Any]:
    """A small JSON document from the provider: bounded in size and time."""
    import json

    import httpx

    with httpx.stream("GET", url, timeout=timeout_s, follow_redirects=False) as response:
        response.raise_for_status()
        body = b""
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > max_bytes:
                raise SignInError(f"{url} answered more than {max_bytes} bytes")
    data = json.loads(body)
    if not isinstance(data, dict):
        raise SignInError(f"{url} did not answer a JSON object")
    return data


def oidc_verifier(rules: JwtRules, *, jwks_uri: str | None = None) -> JwtVerifier:
    """A verifier for the real provider: its keys from ``jwks_uri``, found by discovery on first use when
    not given."""
    uri: list[str] = [jwks_uri] if jwks_uri else []

    def fetch() -> dict[str, Any]:
        if not uri:
            uri.append(discover_jwks_uri(rules.issuer, http_get_json))
        return http_get_json(uri[0])

    return JwtVerifier(rules, KeySet(fetch))
