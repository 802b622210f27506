"""Every tool call and resource read through the MCP server leaves one audit line naming the principal it ran
as (set with ``acting_as`` inside the sign-in middleware, as a signed-in request's would be), what it asked,
what it cost and how it ended."""

from __future__ import annotations

import json
import threading

import pytest

pytest.importorskip("mcp")

import anyio
import mcp_types as types
from mcp import Client

from analytics_agent.mcp_server import build_server
from analytics_agent.mcp_server.gate import CallGate
from analytics_agent.mcp_server.render import TABLES_URI
from analytics_agent.team.audit import AuditLog
from analytics_agent.team.principal import Principal, acting_as

pytestmark = pytest.mark.anyio
PUNE = {"city": "Pune", "day": "2026-10-24"}
ALICE = Principal("alice", groups=("sales", "emea"))
INFO = types.Implementation(name="audit-test-client", version="1.0")


class ActAs:
    """A server middleware inside the sign-in one: every handler runs as ``principal``, as if signed in."""

    def __init__(self, principal: Principal) -> None:
        self.principal = principal

    async def __call__(self, ctx, call_next):
        with acting_as(self.principal):
            return await call_next(ctx)


def _server(live, principal: Principal = ALICE, **options):
    server = build_server(live, poll_s=0.05, **options)
    server.middleware.append(ActAs(principal))
    return server


def _read(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def live(sample_db):
    from analytics_agent.workspace.live import LiveWorkspace

    ws = LiveWorkspace(sample_db, allow_sql=True, idle_s=0.2)
    yield ws
    ws.close()


async def test_each_call_is_one_line_with_who_what_how_much_and_how_it_ended(live, tmp_path):
    path = tmp_path / "audit.jsonl"
    server = _server(live, trail=AuditLog(path, secrets=()))
    async with Client(server, client_info=INFO, mode="legacy") as client:
        answered = await client.call_tool("sales_summary", PUNE)
        failed = await client.call_tool("sales_summary", {"city": "Atlantis", "day": "2026-10-24"})
        await client.read_resource(TABLES_URI)
    ok, error, read = _read(path)
    assert (ok["user"], ok["groups"], ok["client"]) == ("alice", ["sales", "emea"], "audit-test-client")
    assert (ok["kind"], ok["tool"], ok["arguments"], ok["outcome"]) == (
        "tools/call",
        "sales_summary",
        PUNE,
        "ok",
    )
    direct = live.execute("sales_summary", PUNE)  # the same call, outside the server
    assert ok["sql"] == direct.sql and "FROM" in ok["sql"].upper() and ok["rows"] == direct.rows
    assert ok["bytes"] == len(answered.content[0].text.encode()) and ok["duration_ms"] > 0
    assert ok["ts"].endswith("Z") and "reason" not in ok
    assert failed.is_error and error["outcome"] == "error"
    assert error["reason"] == failed.content[0].text.splitlines()[0]
    assert (read["kind"], read["tool"], read["outcome"]) == ("resources/read", "list_tables", "ok")


async def test_a_call_the_gate_turns_away_is_recorded_as_refused_with_its_reason(live, tmp_path):
    path = tmp_path / "audit.jsonl"
    gate = CallGate(overall=2, per_client=1, queued_per_client=1)
    release = threading.Event()
    execute = live.execute

    def held(name, arguments):
        release.wait(60)  # the safety net only; the test releases it
        return execute(name, arguments)

    live.execute = held
    server = _server(live, trail=AuditLog(path, secrets=()), gate=gate)
    async with (
        Client(server, client_info=INFO, mode="legacy") as client,
        anyio.create_task_group() as tasks,
    ):
        tasks.start_soon(client.call_tool, "sales_summary", PUNE)
        while gate.running == 0:
            await anyio.sleep(0.01)
        refused = await client.call_tool("sales_summary", PUNE)
        release.set()
    lines = _read(path)
    assert refused.is_error and refused.content[0].text.startswith("busy: user alice already has 1 call")
    assert [line["outcome"] for line in lines] == ["refused", "ok"]
    assert lines[0]["reason"] == refused.content[0].text


async def test_a_secret_and_an_escape_sequence_in_a_call_reach_the_trail_masked_and_escaped(live, tmp_path):
    path = tmp_path / "audit.jsonl"
    server = _server(live, trail=AuditLog(path, secrets=()))
    sql = "SELECT count(*) AS n FROM orders WHERE city <> '\x1b[31m\n' -- postgresql://bob:hunter2-pass@db/x"
    async with Client(server, mode="legacy") as client:
        result = await client.call_tool("run_sql", {"query": sql})
    raw = path.read_bytes()
    assert not result.is_error
    assert b"hunter2-pass" not in raw and b"\x1b" not in raw and raw.count(b"\n") == 1
    line = _read(path)[0]
    assert line["arguments"]["query"] == sql.replace("hunter2-pass", "***")
    assert "hunter2-pass" not in line["sql"] and line["outcome"] == "ok"
