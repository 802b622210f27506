"""The server as users run it: ``analytics-agent mcp`` in its own process, over stdio and over HTTP on a
loopback port, driven by the SDK's client, while another process loads a table into the same file."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.loopback import wait_listening

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
PUNE = {"city": "Pune", "day": "2026-10-24"}
SECRET = "sk-test-never-print-this-4f9c"
REFERENCE = {
    "city": "Pune",
    "day": "2026-10-24",
    "orders": 3,
    "by_status": {"cancelled": 1, "delivered": 1, "in_transit": 1},
    "revenue": 4798,
}


def _env() -> dict[str, str]:
    # a key in the environment, as a user with a provider configured has: it must never be printed
    return {**os.environ, "LLM_API_KEY": SECRET, "OPENAI_API_KEY": SECRET}


def _table_enum(tools: list[types.Tool]) -> list[str]:
    describe = next(t for t in tools if t.name == "describe_table")
    return describe.input_schema["properties"]["table"]["enum"]


async def test_stdio_server_answers_and_announces_a_load_from_another_terminal(
    sample_db, cli, regions_csv, tmp_path, user_tools
):
    errlog = tmp_path / "server-stderr.txt"
    flags = ["--db", str(sample_db), "--tools-dir", str(user_tools), "--allow-sql"]
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "analytics_agent", *flags, "mcp"], env=_env()
    )
    changed = anyio.Event()

    async def on_message(message) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    with errlog.open("w") as stderr:
        # the handshake era, as desktop clients speak it: list_changed arrives on the connection itself
        transport = stdio_client(params, errlog=stderr)
        async with Client(transport, mode="legacy", message_handler=on_message) as client:
            answer = await client.call_tool("sales_summary", PUNE)
            listed = (await client.list_tools()).tools
            assert {"run_sql", "orders_in_city"} <= {t.name for t in listed}  # the global options reach it
            assert "regions" not in _table_enum(listed)
            loaded = await anyio.to_thread.run_sync(
                lambda: cli("--db", str(sample_db), "load", str(regions_csv), "--table", "regions")
            )
            with anyio.fail_after(20):
                await changed.wait()
            tables = _table_enum((await client.list_tools(cache_mode="refresh")).tools)
    assert json.loads(answer.content[0].text) == REFERENCE
    assert loaded.returncode == 0, loaded.stderr
    assert "regions" in tables
    logged = errlog.read_text()
    assert "analytics-agent MCP server on stdio" in logged and SECRET not in logged


async def test_a_missing_database_is_told_to_the_clients_model_by_every_answer_and_no_file_is_made(tmp_path):
    """A mistyped --db in a client's config: the server starts (over stdio, with the official client) and
    the tool list, every tool call, the resources and the instructions say which file to fix."""
    target = tmp_path / "flight.duckdb"
    (tmp_path / "flights.duckdb").write_bytes(b"")  # the near miss the user meant
    errlog = tmp_path / "server-stderr.txt"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "analytics_agent", "--db", str(target), "mcp"], env=_env()
    )
    with errlog.open("w") as stderr:
        async with Client(stdio_client(params, errlog=stderr), mode="legacy") as client:
            instructions = client.instructions or ""
            tools = (await client.list_tools()).tools
            calls = [
                await client.call_tool(name, {"city": "Pune"}) for name in ("list_tables", "sales_summary")
            ]
            resources = (await client.list_resources()).resources
            with pytest.raises(Exception) as unread:
                await client.read_resource("analytics-agent://tables")
    problem = f"the database file {target} does not exist; did you mean 'flights.duckdb'?; fix the --db path"
    assert problem in instructions
    assert [t.name for t in tools] == ["list_tables"] and problem in (tools[0].description or "")
    for result in calls:
        [text] = [c.text for c in result.content]
        assert result.is_error and text.startswith(f"Error: {problem}") and len(text.splitlines()) == 1
    assert problem in (resources[0].description or "") and problem in str(unread.value)
    assert not target.exists()
    assert f"error: {problem}" in errlog.read_text()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def http_server(sample_db: Path, tmp_path: Path, request: pytest.FixtureRequest):
    host = getattr(request, "param", None)
    port = _free_port()
    out, err = tmp_path / "stdout.txt", tmp_path / "stderr.txt"
    serve_http = ["mcp", "--http", "--port", str(port), *(["--host", host] if host else [])]
    with out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "analytics_agent", "--db", str(sample_db), *serve_http],
            stdout=stdout,
            stderr=stderr,
            env=_env(),
        )
        try:
            wait_listening(port, proc, host=host or "127.0.0.1")
            yield f"http://{host or '127.0.0.1'}:{port}/mcp", out, err
        finally:
            proc.terminate()
            proc.wait(timeout=20)


async def test_http_server_answers_and_streams_the_change_after_a_load(
    http_server, sample_db, cli, regions_csv
):
    url, out, err = http_server
    async with Client(url) as client:  # 2026-07-28: changes arrive on a subscriptions/listen stream
        answer = await client.call_tool("sales_summary", PUNE)
        assert "run_sql" not in {t.name for t in (await client.list_tools()).tools}  # no --allow-sql
        ranking = await client.call_tool("city_ranking", {"period": "2026-10-01..2026-10-31"})
        async with client.listen(tools_list_changed=True) as events:
            loaded = await anyio.to_thread.run_sync(
                lambda: cli("--db", str(sample_db), "load", str(regions_csv), "--table", "regions")
            )
            with anyio.fail_after(20):
                event = await events.__anext__()
        tables = _table_enum((await client.list_tools(cache_mode="refresh")).tools)
    assert json.loads(answer.content[0].text) == REFERENCE
    assert ranking.structured_content["columns"][:2] == ["rank", "city"]
    assert len(ranking.structured_content["rows"]) == 10  # ten cities
    assert loaded.returncode == 0, loaded.stderr
    assert type(event).__name__ == "ToolsListChanged"
    assert "regions" in tables
    assert out.read_text() == ""  # logs go to stderr only
    assert SECRET not in err.read_text()


async def test_http_server_refuses_a_foreign_host_header(http_server):
    import httpx

    url, _, _ = http_server
    response = await anyio.to_thread.run_sync(
        lambda: httpx.post(url, headers={"Host": "evil.example"}, json={}, timeout=10)
    )
    assert response.status_code in (400, 403, 421)


# issue 24: `--host 127.1` used to turn DNS-rebinding protection off (only three spellings were known)
@pytest.mark.parametrize("http_server", ["127.1"], indirect=True)
async def test_any_loopback_spelling_keeps_refusing_a_foreign_host_header(http_server):
    import httpx

    url, _, err = http_server
    foreign = await anyio.to_thread.run_sync(
        lambda: httpx.post(url, headers={"Host": "evil.example"}, json={}, timeout=10)
    )
    assert foreign.status_code in (400, 403, 421)
    assert "without authentication" not in err.read_text()
    async with Client(url) as client:  # the spelling the user gave still works
        assert "sales_summary" in {t.name for t in (await client.list_tools()).tools}


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True), ("127.1", True), ("127.0.0.2", True), ("0x7f.1", True), ("2130706433", True),
        ("::1", True), ("[::1]", True), ("::ffff:127.0.0.1", True), ("localhost", True), ("LOCALHOST.", True),
        ("0.0.0.0", False), ("::", False), ("10.0.0.1", False), ("::ffff:10.0.0.1", False),
        ("example.com", False), ("127.0.0.1.example.com", False),
    ],
)  # fmt: skip
def test_loopback_is_decided_from_the_address_not_a_list_of_spellings(host, loopback):
    from analytics_agent.mcp_server.transports import is_loopback

    assert is_loopback(host) is loopback
