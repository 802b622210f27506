"""Sign-in with a real OpenID provider: the ``oidc-provider`` package under node, on 127.0.0.1, issuing real
RS256 JWT access tokens by the client credentials grant (the ``resource`` parameter, RFC 8707, becomes the
token's audience). The server is first our app in this process (to see the principal each handler ran as),
then ``analytics-agent mcp --http --auth oidc`` as users start it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio
import httpx
from signed_in import Seen, free_port, serving, token_client

from tests.loopback import wait_listening
from tests.required import oidc_provider

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
PUNE = {"city": "Pune", "day": "2026-10-24"}
PROVIDER_SCRIPT = ROOT / "tests" / "team" / "oidc_provider.mjs"


def _start_provider() -> tuple[subprocess.Popen, str]:
    node, home = oidc_provider()
    proc = subprocess.Popen(
        [node, str(PROVIDER_SCRIPT)],
        env={**os.environ, "OIDC_PROVIDER_HOME": str(home)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline() if proc.stdout else ""
    if not line:
        proc.kill()
        raise AssertionError("the OpenID provider did not start")
    return proc, json.loads(line)["issuer"]


@pytest.fixture(scope="module")
def providers():
    """Two independent real providers: the trusted one and a stranger."""
    started = [_start_provider(), _start_provider()]
    try:
        yield [issuer for _, issuer in started]
    finally:
        for proc, _ in started:
            proc.terminate()
            proc.wait(timeout=20)


def real_token(issuer: str, resource: str) -> str:
    answer = httpx.post(
        f"{issuer}/token",
        data={"grant_type": "client_credentials", "scope": "mcp:tools", "resource": resource},
        auth=("team-client", "team-client-secret"),
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["access_token"]


@pytest.fixture
def oidc_app(sample_db, make_server, providers):
    from analytics_agent.mcp_server.signin import SignIn
    from analytics_agent.mcp_server.transports import http_app
    from analytics_agent.team.tokens import JwtRules, oidc_verifier

    issuer = providers[0]
    _, server = make_server(sample_db)
    seen = Seen()
    server.middleware.append(seen)
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    verifier = oidc_verifier(JwtRules(issuer, resource))
    app = http_app(server, host="127.0.0.1", sign_in=SignIn(verifier, resource, issuer))
    return app, port, resource, seen, verifier


async def test_a_real_providers_token_signs_in_with_its_subject_groups_and_scopes(oidc_app, providers):
    app, port, resource, seen, verifier = oidc_app
    token = await anyio.to_thread.run_sync(real_token, providers[0], resource)
    async with serving(app, port) as url:
        async with token_client(url, token) as client:
            answer = await client.call_tool("sales_summary", PUNE)
            listed = await client.list_tools()
        async with httpx.AsyncClient(timeout=30) as http:
            metadata = (await http.get(f"{url}/.well-known/oauth-protected-resource/mcp")).json()
    assert json.loads(answer.content[0].text)["orders"] == 3 and listed.tools
    principals = {p for _, p in seen.handlers}
    assert {(p.name, p.groups, p.scopes, p.client) for p in principals} == {
        ("team-client", ("sales", "analysts"), ("mcp:tools",), "team-client")
    }
    assert metadata["resource"] == resource and metadata["authorization_servers"] == [providers[0]]
    assert verifier.keys.fetches == 1  # the key set, found by discovery, fetched once for every request


async def test_tokens_for_another_audience_or_from_another_provider_are_refused(oidc_app, providers):
    app, port, resource, seen, _ = oidc_app
    foreign = await anyio.to_thread.run_sync(real_token, providers[0], "http://127.0.0.1:1/mcp")
    stranger = await anyio.to_thread.run_sync(real_token, providers[1], resource)
    async with serving(app, port) as url, httpx.AsyncClient(timeout=30) as http:
        answers = [
            await http.post(f"{url}/mcp", json={}, headers={"Authorization": f"Bearer {token}"})
            for token in (foreign, stranger)
        ]
    assert [a.status_code for a in answers] == [401, 401]
    assert f"another audience, not {resource}" in answers[0].json()["error_description"]
    stranger_reason = answers[1].json()["error_description"]
    # the stranger's token is refused whether its key is unknown here or (both run the package's
    # development key) it verifies and names the other issuer
    assert "another issuer" in stranger_reason or "unknown kid" in stranger_reason
    assert seen.handlers == []


async def test_the_command_line_server_takes_a_real_providers_token_and_refuses_none(
    sample_db, tmp_path, providers
):
    issuer, port = providers[0], free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    err = tmp_path / "stderr.txt"
    args = ["--db", str(sample_db), "mcp", "--http", "--port", str(port)]
    args += ["--auth", "oidc", "--issuer", issuer, "--audience", resource]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    token = await anyio.to_thread.run_sync(real_token, issuer, resource)
    with err.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "analytics_agent", *args],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=env,
        )
        try:
            await anyio.to_thread.run_sync(wait_listening, port, proc)
            async with token_client(f"http://127.0.0.1:{port}", token) as client:
                answer = await client.call_tool("sales_summary", PUNE)
            async with httpx.AsyncClient(timeout=30) as http:
                bare = await http.post(resource, json={})
                forged = await http.post(
                    resource, json={}, headers={"Authorization": f"Bearer {token[:-4]}AAAA"}
                )
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    assert json.loads(answer.content[0].text)["orders"] == 3
    assert bare.status_code == 401 and "resource_metadata" in bare.headers["www-authenticate"]
    assert forged.status_code == 401 and "does not verify" in forged.json()["error_description"]
    logged = err.read_text()
    assert f"sign-in: tokens from {issuer})" in logged
    assert "refused a request from 127.0.0.1: the token does not verify" in logged
    assert token[:40] not in logged and token[-30:] not in logged


async def test_a_real_token_without_a_required_scope_is_a_403(sample_db, make_server, providers):
    from analytics_agent.mcp_server.signin import SignIn
    from analytics_agent.mcp_server.transports import http_app
    from analytics_agent.team.tokens import JwtRules, oidc_verifier

    issuer, port = providers[0], free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    _, server = make_server(sample_db)
    seen = Seen()
    server.middleware.append(seen)
    verifier = oidc_verifier(JwtRules(issuer, resource, required_scopes=("mcp:admin",)))
    app = http_app(server, host="127.0.0.1", sign_in=SignIn(verifier, resource, issuer))
    token = await anyio.to_thread.run_sync(real_token, issuer, resource)  # it carries mcp:tools only
    async with serving(app, port) as url, httpx.AsyncClient(timeout=30) as http:
        answer = await http.post(f"{url}/mcp", json={}, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 403
    assert answer.json() == {
        "error": "insufficient_scope",
        "error_description": "the token lacks the scope 'mcp:admin'",
    }
    assert 'error="insufficient_scope"' in answer.headers["www-authenticate"]
    assert seen.handlers == []
