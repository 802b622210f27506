"""Sign-in at the HTTP edge, in this process: the real app (SDK session manager, Starlette middleware) under
a real uvicorn on a loopback port, driven by the SDK's client with a bearer token, and the refusals, each
checked to run nothing. Personal tokens in a real users file; the OpenID form is test_signin_oidc.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("mcp")

import httpx
from signed_in import Seen, free_port, serving, token_client

from analytics_agent.team.principal import LOCAL, current

pytestmark = pytest.mark.anyio
PUNE = {"city": "Pune", "day": "2026-10-24"}
WELL_KNOWN = "/.well-known/oauth-protected-resource/mcp"


@pytest.fixture
def team(sample_db, make_server, tmp_path):
    """The server over the sample data, two users (alice in sales, bob), and a record of who ran what."""
    from analytics_agent.mcp_server.signin import SignIn
    from analytics_agent.mcp_server.transports import http_app
    from analytics_agent.team.users import PersonalTokens, add_user, users_file

    path = users_file(sample_db)
    tokens = {"alice": add_user(path, "alice", ("sales",)), "bob": add_user(path, "bob")}
    live, server = make_server(sample_db)
    seen = Seen()
    server.middleware.append(seen)
    execute = live.execute

    def recording(name, arguments):  # runs in a worker thread: the principal must have crossed into it
        seen.executions.append((name, current()))
        return execute(name, arguments)

    live.execute = recording
    port = free_port()
    resource = f"http://127.0.0.1:{port}/mcp"
    app = http_app(server, host="127.0.0.1", sign_in=SignIn(PersonalTokens(path), resource))
    return app, port, tokens, seen


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_every_handler_and_tool_call_runs_as_the_signed_in_user(team, mode):
    app, port, tokens, seen = team
    async with serving(app, port) as url:
        async with token_client(url, tokens["alice"], mode) as alice:
            answer = await alice.call_tool("sales_summary", PUNE)
            await alice.list_tools()
            await alice.read_resource("analytics-agent://tables")
            await alice.list_prompts()
        async with token_client(url, tokens["bob"], mode) as bob:
            await bob.call_tool("list_tables", {})
    assert json.loads(answer.content[0].text)["orders"] == 3
    by_name = {p.name for _, p in seen.handlers}
    assert by_name == {"alice", "bob"} and LOCAL not in {p for _, p in seen.handlers}
    alice_methods = {m for m, p in seen.handlers if p.name == "alice"}
    assert {"tools/call", "tools/list", "resources/read", "prompts/list"} <= alice_methods
    assert all(p.groups == ("sales",) for _, p in seen.handlers if p.name == "alice")
    assert [(n, p.name) for n, p in seen.executions] == [
        ("sales_summary", "alice"),
        ("list_tables", "alice"),  # the resource reads the catalog through the same tool
        ("list_tables", "bob"),
    ]
    assert all(p.client for _, p in seen.executions)  # the client's own name, for the audit trail


async def _post(app, path: str = "/mcp", **kwargs) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_tables"}}
        return await client.post(path, json=body, **kwargs)


def _challenge(response: httpx.Response) -> str:
    header = response.headers["www-authenticate"]
    assert header.startswith("Bearer ") and 'resource_metadata="http://127.0.0.1:' in header
    assert header.rstrip('"').endswith(WELL_KNOWN)
    return header


async def test_requests_without_a_good_token_are_refused_with_a_reason_and_run_nothing(team):
    app, _, tokens, seen = team
    alice = tokens["alice"]
    cases = {
        "no token": ({}, 401, None, "sign-in required"),
        "unknown token": (
            {"Authorization": "Bearer aat_not-a-real-token"},
            401,
            "invalid_token",
            "unknown or revoked",
        ),
        "basic auth": (
            {"Authorization": "Basic YWxpY2U6cHc="},
            401,
            "invalid_request",
            "Authorization: Bearer",
        ),
        "empty bearer": ({"Authorization": "Bearer "}, 401, "invalid_request", "Authorization: Bearer"),
        "oversized": ({"Authorization": "Bearer " + "a" * 9000}, 401, "invalid_token", "longer than 8192"),
    }
    for case, (headers, status, code, reason) in cases.items():
        response = await _post(app, headers=headers)
        assert response.status_code == status, case
        header = _challenge(response)
        assert (
            (f'error="{code}"' in header) if code else ("error=" not in header.split("error_description")[0])
        ), case
        assert reason in response.json()["error_description"] and reason in header, case
        assert alice not in header and alice not in response.text
    in_url = await _post(app, path=f"/mcp?access_token={alice}")
    assert in_url.status_code == 401 and "a token in the URL is refused" in in_url.json()["error_description"]
    both = await _post(app, path=f"/mcp?access_token={alice}", headers={"Authorization": f"Bearer {alice}"})
    assert both.status_code == 401  # refused even beside a good header: the URL leaked it to logs
    assert seen.handlers == [] and seen.executions == []


async def test_the_protected_resource_metadata_is_open_and_names_this_resource(team):
    app, port, _, _ = team
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        metadata = await client.get(WELL_KNOWN)
    assert metadata.status_code == 200
    assert metadata.json() == {
        "resource": f"http://127.0.0.1:{port}/mcp",
        "bearer_methods_supported": ["header"],
        "resource_name": "analytics-agent",
    }


async def test_oversized_headers_are_refused_by_the_server_before_anything_runs(team):
    """uvicorn's HTTP parser bounds a request's head; beyond it the request is answered 4xx or the connection
    is closed, and either way no handler runs."""
    app, port, tokens, seen = team

    async def outcome(client: httpx.AsyncClient, url: str, headers: dict[str, str]) -> int | str:
        try:
            return (await client.post(f"{url}/mcp", json={}, headers=headers)).status_code
        except (httpx.ReadError, httpx.RemoteProtocolError):
            return "closed"

    async with serving(app, port) as url, httpx.AsyncClient(timeout=30) as client:
        huge = await outcome(client, url, {"Authorization": "Bearer " + "a" * 200_000})
        padded = await outcome(
            client, url, {"Authorization": f"Bearer {tokens['alice']}", "X-Pad": "p" * 200_000}
        )
        still = await outcome(client, url, {"Authorization": "Bearer " + "a" * 10_000})
    for refused in (huge, padded):
        assert refused == "closed" or 400 <= refused < 500
    assert still == 401  # under the parser's bound, our own limit answers with the reason
    assert seen.handlers == [] and seen.executions == []


async def test_a_session_opened_by_one_user_cannot_be_used_by_another(team):
    app, port, tokens, seen = team
    async with serving(app, port) as url, token_client(url, tokens["alice"], "legacy") as alice:
        await alice.list_tools()
        opened = [m for m, _ in seen.handlers]
        async with httpx.AsyncClient(timeout=30) as client:
            # bob replays alice's session id (seen in a log, say): the SDK answers as for no such session
            session = await client.post(
                f"{url}/mcp",
                json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
                headers={
                    "Authorization": f"Bearer {tokens['alice']}",
                    "Accept": "application/json, text/event-stream",
                },
            )
            sid = session.headers.get("mcp-session-id")
            hijack = await client.post(
                f"{url}/mcp",
                json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                headers={
                    "Authorization": f"Bearer {tokens['bob']}",
                    "mcp-session-id": sid or "",
                    "Accept": "application/json, text/event-stream",
                },
            )
    assert opened and sid
    assert hijack.status_code == 404
    assert "bob" not in {p.name for _, p in seen.handlers}
