"""MotherDuck and object storage, offline: token checks, error messages and the secret's settings."""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace

import pytest

from analytics_agent.db.linked.motherduck import motherduck_token, token_kind
from analytics_agent.db.linked.object_store import storage_secret_options
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.errors import SourceError


def _jwt(claims: dict) -> str:
    def part(obj):
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'HS256'})}.{part(claims)}.signature"


@pytest.mark.parametrize(
    ("claims", "kind"),
    [
        ({"tokenType": "read_scaling", "session": "x"}, "read_scaling"),
        ({"token_type": "read_write"}, "read_write"),
        ({"readOnly": True}, "read_scaling"),
        ({"email": "a@b"}, "unknown"),
    ],
)
def test_a_tokens_own_claims_tell_whether_it_is_read_only(claims, kind):
    assert token_kind(_jwt(claims)) == kind


def test_a_token_that_is_not_a_jwt_is_unknown_not_an_error():
    assert token_kind("not-a-token") == "unknown"
    assert token_kind("a.!!!.c") == "unknown"


def test_motherduck_wants_a_token_and_refuses_a_read_write_one(monkeypatch):
    source = parse_source("cloud", {"type": "motherduck", "database": "analytics", "token_env": "MD_TOKEN"})
    with pytest.raises(SourceError, match="set the environment variable MD_TOKEN"):
        motherduck_token(source)
    writer = _jwt({"tokenType": "read_write"})
    monkeypatch.setenv("MD_TOKEN", writer)
    with pytest.raises(SourceError, match="read-scaling token") as caught:
        motherduck_token(source)
    assert writer not in str(caught.value)
    reader = _jwt({"tokenType": "read_scaling"})
    monkeypatch.setenv("MD_TOKEN", reader)
    assert motherduck_token(source) == reader


def test_s3_secret_takes_the_chains_credentials_and_a_local_endpoint():
    source = parse_source("trips", {"type": "files", "path": "s3://bucket/trips/", "region": "eu-west-1"})
    creds = SimpleNamespace(access_key="AKIAFAKE", secret_key="shh", token="tok")
    options = storage_secret_options(source, creds, {"AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9000"})
    assert options == {
        "TYPE": "s3", "SCOPE": "s3://bucket", "REGION": "eu-west-1", "ENDPOINT": "127.0.0.1:9000",
        "USE_SSL": False, "URL_STYLE": "path", "KEY_ID": "AKIAFAKE", "SECRET": "shh", "SESSION_TOKEN": "tok",
    }  # fmt: skip


def test_no_secret_for_plain_https_and_no_keys_for_a_public_bucket():
    https = parse_source("t", {"type": "files", "path": "https://example.org/data.parquet"})
    assert storage_secret_options(https, None, {}) is None
    public = parse_source("t", {"type": "files", "path": "s3://open-data/x.parquet"})
    options = storage_secret_options(public, None, {"AWS_REGION": "us-east-1"})
    assert options == {"TYPE": "s3", "SCOPE": "s3://open-data", "REGION": "us-east-1"}
