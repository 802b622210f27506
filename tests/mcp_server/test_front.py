"""The stdio front: the handshake and the tool list answered without the SDK, with the SDK's own bytes,
and the session handed to the SDK on the first message the front leaves, without the client noticing.

Whether the SDK is loaded is read from the server's own ``-X importtime`` lines on stderr (Python writes
each when that import finishes, before the server answers anything that needed it).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

pytest.importorskip("mcp")

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.server.stdio import stdio_server

from analytics_agent.mcp_server import wire
from analytics_agent.mcp_server.front import Session

pytestmark = pytest.mark.anyio
sys.path.insert(0, str(Path(__file__).parent))
from test_transports import PUNE, REFERENCE  # noqa: E402  (the reference answer, kept once)

SDK_IMPORT = re.compile(r"\|\s+mcp(_types)?(\.\S+)?\s*$", re.MULTILINE)


def _initialize(version: str, request_id: int | str = 1, **client: Any) -> bytes:
    params = {
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1", **client},
    }
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}).encode()


INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
LIST = b'{"jsonrpc": "2.0", "id": "list-1", "method": "tools/list", "params": {"cursor": "x"}}'
PING = b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"progressToken":7}}}'


class _Lines:
    """stdin for the SDK's stdio transport, one line at a time."""

    def __init__(self) -> None:
        self.send, self._receive = anyio.create_memory_object_stream[str](16)

    def __aiter__(self) -> Any:
        return self._receive.__aiter__()


class _Written:
    """stdout for the SDK's stdio transport: each line it writes, as written."""

    def __init__(self) -> None:
        self._send, self.receive = anyio.create_memory_object_stream[str](16)

    async def write(self, text: str) -> None:
        await self._send.send(text)

    async def flush(self) -> None:
        pass


async def _sdk_answers(server: Any, script: list[bytes]) -> list[bytes]:
    """The bytes the SDK's own stdio server writes for ``script`` (a reply awaited for each request)."""
    stdin, stdout = _Lines(), _Written()
    answers = []
    with anyio.fail_after(60):
        async with anyio.create_task_group() as tasks, stdio_server(stdin, stdout) as (read, write):  # type: ignore[arg-type]
            tasks.start_soon(server.run, read, write, server.create_initialization_options())
            for line in script:
                await stdin.send.send(line.decode() + "\n")
                if b'"id"' in line:
                    answers.append((await stdout.receive.receive()).encode())
            tasks.cancel_scope.cancel()
    return answers


@pytest.mark.parametrize(
    "requested", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01"]
)
async def test_the_front_writes_the_sdks_bytes_for_the_handshake_ping_and_tool_list(
    requested, sample_db, make_server, user_tools
):
    live, server = make_server(sample_db, tool_dirs=[user_tools], allow_sql=True)
    script = [_initialize(requested, title="Probe"), INITIALIZED, LIST, PING]
    session = Session(lambda: live.registry, wire.server_version())
    ours = [answer for answer in map(session.answer, script) if answer]
    assert ours == await _sdk_answers(server, script)
    assert json.loads(ours[0])["result"]["protocolVersion"] == (
        requested if requested in wire.HANDSHAKE_VERSIONS else "2025-11-25"
    )
    assert {"run_sql", "orders_in_city"} <= {t["name"] for t in json.loads(ours[1])["result"]["tools"]}


def test_the_front_knows_the_sdks_handshake_versions():
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert wire.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_tables"}}',
        b'{"jsonrpc":"2.0","id":2,"method":"resources/list"}',
        b'{"jsonrpc":"2.0","id":2,"method":"prompts/list"}',
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',
        b'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":5}}',
        b'{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
        b'{"jsonrpc":"2.0","id":2.0,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":2,"method":"ping","extra":1}',
        b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]',
        b"not json",
        b'{"jsonrpc":"2.0","id":2,\r"method":"ping"}',
        b"",
    ],
)
def test_anything_but_the_plain_lifecycle_goes_to_the_sdk(line, sample_db, make_server):
    live, _ = make_server(sample_db)
    session = Session(lambda: live.registry, "1")
    assert session.answer(_initialize("2025-11-25"))
    assert session.answer(line) is None


def test_a_crlf_line_is_answered_as_the_sdk_reads_it(sample_db, make_server):
    live, _ = make_server(sample_db)
    session = Session(lambda: live.registry, "1")
    assert session.answer(_initialize("2025-11-25") + b"\r")
    assert (
        session.answer(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\r')
        == b'{"jsonrpc":"2.0","id":2,"result":{}}\n'
    )


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{}}}',
        _initialize("2025-11-25").replace(
            b'"capabilities": {}', b'"capabilities": {"roots": {"listChanged": {}}}'
        ),
        _initialize("2025-11-25").replace(b'"name": "probe", ', b""),
    ],
)
def test_before_initialize_only_a_plain_initialize_is_answered_by_the_front(line, sample_db, make_server):
    live, _ = make_server(sample_db)
    assert Session(lambda: live.registry, "1").answer(line) is None


def _server_command(db: Path) -> list[str]:
    return ["-X", "importtime", "-m", "analytics_agent", "--db", str(db), "mcp"]


@pytest.mark.filterwarnings("ignore:ping is removed as of 2026-07-28")  # legacy mode, where it is not
async def test_a_client_lists_tools_without_the_sdk_and_calls_one_after_the_handover(
    sample_db, cli, regions_csv, tmp_path
):
    errlog = tmp_path / "server-stderr.txt"
    params = StdioServerParameters(
        command=sys.executable, args=_server_command(sample_db), env=dict(os.environ)
    )
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    with errlog.open("w") as stderr:
        async with Client(
            stdio_client(params, errlog=stderr), mode="legacy", message_handler=on_message
        ) as client:
            before = (await client.list_tools()).tools
            await client.send_ping()
            # the front lets go of the idle database, so a load from another terminal gets in and is announced
            loaded = await anyio.to_thread.run_sync(
                lambda: cli("--db", str(sample_db), "load", str(regions_csv), "--table", "regions")
            )
            with anyio.fail_after(60):
                await changed.wait()
            listed = (await client.list_tools(cache_mode="refresh")).tools
            without_sdk = errlog.read_text()
            answer = await client.call_tool("sales_summary", PUNE)
            after = (await client.list_tools(cache_mode="refresh")).tools
            prompts = (await client.list_prompts()).prompts
            resources = (await client.list_resources()).resources
    assert loaded.returncode == 0, loaded.stderr
    assert "analytics-agent MCP server on stdio" in without_sdk
    assert not SDK_IMPORT.search(without_sdk), SDK_IMPORT.search(without_sdk)
    assert SDK_IMPORT.search(errlog.read_text())  # the call loaded it
    assert json.loads(answer.content[0].text) == REFERENCE and not answer.is_error
    assert "regions" not in _table_enum(before) and "regions" in _table_enum(listed)
    assert [t.model_dump() for t in after] == [t.model_dump() for t in listed]
    assert [p.name for p in prompts] == ["analytics"]
    assert "analytics-agent://tables/regions" in {str(r.uri) for r in resources}


def _table_enum(tools: list[types.Tool]) -> list[str]:
    describe = next(t for t in tools if t.name == "describe_table")
    return describe.input_schema["properties"]["table"]["enum"]


class _Raw:
    """The server in its own process, spoken to line by line as a client's stdio transport does."""

    def __init__(self, db: Path, errlog: IO[str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *_server_command(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
        )

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self, line: bytes) -> bytes:
        self.send(line)
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def close(self) -> bytes:
        """Close stdin (the client leaving); whatever the server still wrote."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        rest = self.process.stdout.read()
        assert self.process.wait(timeout=120) == 0
        return rest


@pytest.mark.parametrize(
    ("requested", "agreed"), [("2024-11-05", "2024-11-05"), ("2099-01-01", "2025-11-25")]
)
def test_the_version_is_negotiated_and_a_malformed_line_is_the_sdks_to_ignore(
    requested, agreed, sample_db, tmp_path
):
    errlog = tmp_path / "stderr.txt"
    with errlog.open("w") as stderr:
        server = _Raw(sample_db, stderr)
        try:
            opened = json.loads(server.answer(_initialize(requested, request_id="start")))
            server.send(INITIALIZED)
            listed = server.answer(LIST)
            assert not SDK_IMPORT.search(errlog.read_text())
            server.send(b"{not json")  # the SDK's reader drops it without a word, and so does this server
            pong = json.loads(server.answer(b'{"jsonrpc":"2.0","id":4,"method":"ping"}'))
            assert SDK_IMPORT.search(errlog.read_text())
            listed_by_sdk = server.answer(LIST.replace(b'"list-1"', b'"list-2"'))
        finally:
            rest = server.close()
    assert opened == {"jsonrpc": "2.0", "id": "start", "result": opened["result"]}
    assert opened["result"]["protocolVersion"] == agreed
    assert opened["result"]["serverInfo"] == {"name": "analytics-agent", "version": wire.server_version()}
    assert pong == {"jsonrpc": "2.0", "id": 4, "result": {}}
    assert listed_by_sdk == listed.replace(
        b'"list-1"', b'"list-2"'
    )  # the same bytes either side of the handover
    assert rest == b""  # the SDK's answer to the replayed initialize never reaches the client


def test_a_request_before_initialize_gets_the_sdks_errors(sample_db, tmp_path):
    with (tmp_path / "stderr.txt").open("w") as stderr:
        server = _Raw(sample_db, stderr)
        try:
            early = json.loads(server.answer(b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}'))
            unknown = json.loads(server.answer(b'{"jsonrpc":"2.0","id":2,"method":"tools/nothing"}'))
            opened = json.loads(server.answer(_initialize("2025-06-18", request_id=3)))
        finally:
            server.close()
    assert early["error"] == {"code": -32602, "message": "Invalid request parameters", "data": ""}
    assert unknown["error"] == {"code": -32601, "message": "Method not found", "data": "tools/nothing"}
    assert opened["result"]["protocolVersion"] == "2025-06-18"
