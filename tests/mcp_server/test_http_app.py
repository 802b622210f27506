"""The HTTP app as served: uvicorn on an ephemeral loopback port, real httpx and the SDK's client over
Streamable HTTP. Liveness and readiness probes, the audit trail of a principal's calls, and a shutdown that
answers the call it was running."""

from __future__ import annotations

import json
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

pytest.importorskip("mcp")

import anyio
import httpx
import uvicorn
from mcp import Client

from analytics_agent.mcp_server import build_server
from analytics_agent.mcp_server.gate import CallGate
from analytics_agent.mcp_server.lifecycle import GracefulServer, database_problem
from analytics_agent.mcp_server.transports import http_app
from analytics_agent.team.audit import AuditLog

pytestmark = pytest.mark.anyio
PUNE = {"city": "Pune", "day": "2026-10-24"}


@pytest.fixture
def live(sample_db):
    from analytics_agent.workspace.live import LiveWorkspace

    ws = LiveWorkspace(sample_db, idle_s=0.2)
    yield ws
    ws.close()


def _app(live, gate: CallGate, trail: AuditLog | None = None, sign_in=None):
    """The app ``serve_http`` serves."""
    server = build_server(live, gate=gate, trail=trail, poll_s=0.05)
    return http_app(
        server, host="127.0.0.1", sign_in=sign_in, gate=gate, ready=lambda: database_problem(live)
    )


@asynccontextmanager
async def serving(
    live, trail: AuditLog | None = None, gate: CallGate | None = None, *, sign_in=None, port: int = 0
) -> AsyncIterator[tuple[str, GracefulServer]]:
    """The app under ``GracefulServer`` on a loopback port (``0``: any free one) until the block ends."""
    gate = gate or CallGate()
    app = _app(live, gate, trail, sign_in)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, lifespan="on", access_log=False
    )
    server = GracefulServer(config, gate)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(server.serve)
        with anyio.fail_after(30):  # a safety net for a server that never starts, not a measurement
            while not server.started:
                await anyio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}", server
        server.should_exit = True


async def test_healthz_answers_while_readyz_follows_whether_the_database_answers(live, sample_db):
    async with serving(live) as (base, _), httpx.AsyncClient(base_url=base) as http:
        alive, ready = await http.get("/healthz"), await http.get("/readyz")
        live.close()
        moved = sample_db.with_name("moved.duckdb")
        sample_db.rename(moved)
        alive_without, not_ready = await http.get("/healthz"), await http.get("/readyz")
        moved.rename(sample_db)
        ready_again = await http.get("/readyz")
    assert (alive.status_code, alive.json()) == (200, {"status": "ok"})
    assert (ready.status_code, ready.json()) == (200, {"status": "ready"})
    assert alive_without.status_code == 200
    assert not_ready.status_code == 503 and not_ready.json()["status"] == "not ready"
    assert str(sample_db) in not_ready.json()["reason"] and "\n" not in not_ready.json()["reason"]
    assert ready_again.status_code == 200


async def test_signed_in_users_calls_are_audited_as_them_and_the_probes_need_no_token(
    sample_db, live, tmp_path
):
    from signed_in import free_port, token_client

    from analytics_agent.mcp_server.signin import SignIn
    from analytics_agent.team.users import PersonalTokens, add_user, users_file

    users = users_file(sample_db)
    tokens = {"alice": add_user(users, "alice", ("sales",)), "bob": add_user(users, "bob", ())}
    port = free_port()
    sign_in = SignIn(PersonalTokens(users), f"http://127.0.0.1:{port}/mcp")
    path = tmp_path / "audit.jsonl"
    answers = []
    async with serving(live, AuditLog(path, secrets=()), sign_in=sign_in, port=port) as (base, _):
        for token in tokens.values():
            async with token_client(base, token) as client:
                answers.append(await client.call_tool("sales_summary", PUNE))
        async with httpx.AsyncClient(base_url=base) as http:  # no token
            probes = [(await http.get(p)).status_code for p in ("/healthz", "/readyz")]
            refused = await http.post("/mcp", json={})
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [json.loads(a.content[0].text)["orders"] for a in answers] == [3, 3]
    assert [(x["user"], x["groups"], x["tool"], x["outcome"]) for x in lines] == [
        ("alice", ["sales"], "sales_summary", "ok"),
        ("bob", [], "sales_summary", "ok"),
    ]
    assert lines[0]["bytes"] == len(answers[0].content[0].text.encode())
    assert probes == [200, 200] and refused.status_code == 401
    assert not any(token in path.read_text() for token in tokens.values())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_stopping_answers_and_records_the_call_running_and_turns_new_ones_away(live, tmp_path, mode):
    """Without the drain, sse-starlette ended the answer stream at once: the legacy (stateful) client got
    "SSE stream ended without a response" for the call the server went on to finish."""
    path = tmp_path / "audit.jsonl"
    inside, release = threading.Event(), threading.Event()
    execute = live.execute

    def held(name, arguments):
        if name == "sales_summary":
            inside.set()
            release.wait(60)  # the safety net only; the test releases it
        return execute(name, arguments)

    live.execute = held
    gate = CallGate()
    answers = []
    async with (
        serving(live, AuditLog(path, secrets=()), gate) as (base, server),
        Client(f"{base}/mcp", mode=mode) as client,
        anyio.create_task_group() as tasks,
    ):

        async def call() -> None:
            answers.append(await client.call_tool("sales_summary", PUNE))

        await client.list_tools()  # the client checks answers against the list: fetched before
        tasks.start_soon(call)
        await anyio.to_thread.run_sync(inside.wait, 60)
        server.should_exit = True  # what SIGTERM does
        with anyio.fail_after(30):  # a safety net, not a measurement
            while not gate.closing:
                await anyio.sleep(0.01)
        refused = await client.call_tool("list_tables", {})
        async with httpx.AsyncClient(base_url=base) as http:
            readiness = await http.get("/readyz")
        release.set()
    assert len(answers) == 1 and not answers[0].is_error
    assert json.loads(answers[0].content[0].text)["orders"] == 3
    assert refused.is_error and refused.content[0].text.startswith("the server is shutting down")
    assert readiness.status_code == 503 and readiness.json()["reason"] == "the server is shutting down"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(x["tool"], x["outcome"]) for x in lines] == [("list_tables", "refused"), ("sales_summary", "ok")]
