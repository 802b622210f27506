"""JWT access tokens: what is accepted and every attack the issue lists, against real RSA/EC keys made
here and signed with PyJWT (or by hand, for the forgeries PyJWT will not make). Time is an injected clock."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from analytics_agent.errors import SignInError
from analytics_agent.team.principal import Principal
from analytics_agent.team.tokens import MAX_KEYS, MAX_TOKEN_CHARS, JwtRules, JwtVerifier, KeySet

ISSUER = "https://id.example.com"
AUDIENCE = "https://analytics.example.com/mcp"
NOW = 1_800_000_000


def _rsa() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


KEY = _rsa()
OTHER_KEY = _rsa()
EC_KEY = ec.generate_private_key(ec.SECP256R1())


def _jwk(private, kid: str) -> dict:
    algorithm = (
        jwt.algorithms.RSAAlgorithm if isinstance(private, rsa.RSAPrivateKey) else jwt.algorithms.ECAlgorithm
    )
    public = algorithm.to_jwk(private.public_key(), as_dict=True)
    return {**public, "kid": kid, "use": "sig"}


class Provider:
    """The issuer's JWKS endpoint: counts fetches, and its keys can rotate."""

    def __init__(self, *keys: dict) -> None:
        self.keys = list(keys)
        self.fetches = 0

    def __call__(self) -> dict:
        self.fetches += 1
        return {"keys": self.keys}


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _claims(**changes) -> dict:
    claims = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "alice",
        "client_id": "claude",
        "exp": NOW + 300,
        "iat": NOW,
        "scope": "mcp:tools openid",
        "groups": ["sales"],
    }
    claims.update(changes)
    return {k: v for k, v in claims.items() if v is not None}


def _sign(claims: dict, *, key=KEY, kid: str = "k1", alg: str = "RS256") -> str:
    return jwt.encode(claims, key, algorithm=alg, headers={"kid": kid})


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _verifier(provider: Provider | None = None, clock: Clock | None = None, **rules) -> JwtVerifier:
    provider = provider or Provider(_jwk(KEY, "k1"))
    clock = clock or Clock(NOW)
    return JwtVerifier(JwtRules(ISSUER, AUDIENCE, **rules), KeySet(provider, clock=clock), clock=clock)


def _refusal(verifier: JwtVerifier, token: str) -> SignInError:
    with pytest.raises(SignInError) as refused:
        verifier.verify(token)
    assert "eyJ" not in str(refused.value)  # no part of a token is ever echoed
    return refused.value


def test_a_valid_token_becomes_the_principal_it_names():
    principal = _verifier().verify(_sign(_claims()))
    assert principal == Principal(
        name="alice", groups=("sales",), scopes=("mcp:tools", "openid"), client="claude", local=False
    )


def test_the_groups_claim_is_configurable_and_a_client_token_is_named_by_its_client():
    token = _sign(_claims(sub=None, groups=None, roles=["finance"]))
    principal = _verifier(groups_claim="roles").verify(token)
    assert (principal.name, principal.groups) == ("claude", ("finance",))


def test_alg_none_is_refused():
    header = _b64(json.dumps({"alg": "none", "kid": "k1", "typ": "JWT"}).encode())
    payload = _b64(json.dumps(_claims()).encode())
    refused = _refusal(_verifier(), f"{header}.{payload}.")
    assert "algorithm 'none' is not accepted" in str(refused) and refused.status == 401


def test_hs256_signed_with_the_public_key_is_refused():
    """The classic confusion: the attacker knows the public key and uses its PEM as an HMAC secret."""
    pem = KEY.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    signing_input = (
        f"{_b64(json.dumps({'alg': 'HS256', 'kid': 'k1'}).encode())}.{_b64(json.dumps(_claims()).encode())}"
    )
    signature = _b64(hmac.new(pem, signing_input.encode(), hashlib.sha256).digest())
    provider = Provider(_jwk(KEY, "k1"))
    refused = _refusal(_verifier(provider), f"{signing_input}.{signature}")
    assert "algorithm 'HS256' is not accepted" in str(refused)
    assert provider.fetches == 0  # refused before any key is looked at


def test_a_token_for_another_audience_or_from_another_issuer_is_refused():
    verifier = _verifier()
    foreign = _refusal(verifier, _sign(_claims(aud="https://other.example.com/mcp")))
    assert f"another audience, not {AUDIENCE}" in str(foreign)
    stranger = _refusal(verifier, _sign(_claims(iss="https://evil.example.com")))
    assert f"another issuer, not {ISSUER}" in str(stranger)
    no_audience = _refusal(verifier, _sign(_claims(aud=None)))
    assert "aud" in str(no_audience)


def test_expired_and_not_yet_valid_tokens_are_refused_with_a_small_leeway():
    clock = Clock(NOW)
    verifier = _verifier(clock=clock)
    token = _sign(_claims(exp=NOW + 300, nbf=NOW))
    clock.now = NOW + 300 + 29  # within the 30 s leeway
    assert verifier.verify(token).name == "alice"
    clock.now = NOW + 300 + 31
    assert "expired" in str(_refusal(verifier, token))
    clock.now = NOW - 31
    assert "not valid yet" in str(_refusal(verifier, token))
    assert "exp" in str(_refusal(verifier, _sign(_claims(exp=None))))  # a token without expiry


def test_a_forged_signature_under_a_known_kid_is_refused():
    refused = _refusal(_verifier(), _sign(_claims(), key=OTHER_KEY, kid="k1"))
    assert "does not verify" in str(refused) and "Signature verification failed" in str(refused)


def test_a_key_is_used_only_with_an_algorithm_of_its_type():
    """An RSA key named by a token that says ES256 (signed with an EC key) does not verify it."""
    refused = _refusal(_verifier(), _sign(_claims(), key=EC_KEY, kid="k1", alg="ES256"))
    assert "does not verify" in str(refused)


def test_an_unknown_kid_flood_refreshes_the_keys_at_most_once_a_minute():
    provider, clock = Provider(_jwk(KEY, "k1")), Clock(NOW)
    verifier = _verifier(provider, clock)
    assert verifier.verify(_sign(_claims())).name == "alice"
    for n in range(500):
        _refusal(verifier, _sign(_claims(), kid=f"made-up-{n}"))
    assert provider.fetches == 1
    clock.now += 59
    _refusal(verifier, _sign(_claims(), kid="made-up-again"))
    assert provider.fetches == 1
    clock.now += 1
    for n in range(100):
        _refusal(verifier, _sign(_claims(), kid=f"later-{n}"))
    assert provider.fetches == 2


def test_a_rotated_key_is_fetched_when_a_token_names_it():
    provider, clock = Provider(_jwk(KEY, "k1")), Clock(NOW)
    verifier = _verifier(provider, clock)
    assert verifier.verify(_sign(_claims())).name == "alice"
    provider.keys = [_jwk(OTHER_KEY, "k2")]  # the issuer rotates
    clock.now += 61
    assert verifier.verify(_sign(_claims(exp=NOW + 900), key=OTHER_KEY, kid="k2")).name == "alice"
    assert provider.fetches == 2


def test_the_key_cache_is_bounded():
    many = [_jwk(KEY, f"k{n}") for n in range(MAX_KEYS + 50)]
    provider = Provider(*many)
    verifier = _verifier(provider)
    assert verifier.verify(_sign(_claims(), kid=f"k{MAX_KEYS - 1}")).name == "alice"
    _refusal(verifier, _sign(_claims(), kid=f"k{MAX_KEYS + 10}"))
    assert len(verifier.keys._keys) == MAX_KEYS


def test_an_oversized_token_is_refused_unread():
    provider = Provider(_jwk(KEY, "k1"))
    token = _sign(_claims(padding="x" * MAX_TOKEN_CHARS))
    refused = _refusal(_verifier(provider), token)
    assert f"longer than {MAX_TOKEN_CHARS}" in str(refused) and provider.fetches == 0


def test_a_missing_required_scope_is_a_403():
    refused = _refusal(_verifier(required_scopes=("mcp:admin",)), _sign(_claims()))
    assert refused.status == 403 and refused.code == "insufficient_scope" and "mcp:admin" in str(refused)


def test_garbage_and_an_unreachable_provider_are_one_line_refusals():
    assert "not a JWT" in str(_refusal(_verifier(), "not-a-token"))

    def down() -> dict:
        raise ConnectionError("refused")

    refused = _refusal(_verifier(down), _sign(_claims()))
    assert str(refused) == "cannot fetch the issuer's keys: ConnectionError"
