"""Fairness is per client (issue 38): the SDK builds a new ServerSession for every request, so a gate keyed
on it saw every call as a client of its own and never applied its per-client caps."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("mcp")

from mcp import Client

from analytics_agent.mcp_server.gate import CallGate, client_of

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_calls_of_one_client_share_one_turn(sample_db, make_server, monkeypatch, mode):
    """2025 (legacy): each connection is a client. 2026-07-28 (auto) has no handshake and in memory no
    session: every request of the transport is its one client, as over stdio."""
    seen: list[object] = []
    run = CallGate.run

    async def recording(self, client, work, **how):
        seen.append(client)
        return await run(self, client, work, **how)

    monkeypatch.setattr(CallGate, "run", recording)
    _, server = make_server(sample_db)
    async with Client(server, mode=mode) as first, Client(server, mode=mode) as second:
        for client in (first, first, second, first):
            result = await client.call_tool("list_tables", {})
            assert not result.is_error
    assert seen[0] == seen[1] == seen[3]
    assert (seen[2] != seen[0]) is (mode == "legacy")


def test_a_streamable_http_request_is_its_session_s_whatever_object_carries_it():
    def request(session_id: str | None) -> SimpleNamespace:
        headers = {"mcp-session-id": session_id} if session_id else {}
        return SimpleNamespace(
            request=SimpleNamespace(headers=headers), session=SimpleNamespace(client_params=None)
        )

    assert client_of(request("abc")) == client_of(request("abc")) != client_of(request("xyz"))
    params = object()
    on_one_connection = [
        SimpleNamespace(request=None, session=SimpleNamespace(client_params=params)) for _ in range(2)
    ]
    assert client_of(on_one_connection[0]) == client_of(on_one_connection[1])
