"""A linked PostgreSQL server that answers the start and then stops answering mid-session, the connection
alive (issue 38, item 6): its backend stopped with SIGSTOP, so the server's statement timeout cannot fire
and libpq's blocked read sees no interrupt. A tool call on its table waited for ever, and so did the
process. Now the call ends at its time limit with one line naming the source, the other tables and the
source's next call (on a new connection) answer, and the process exits.

The workspace runs in a child process (a regression hangs the child, not the suite); the test stops the
backend the child's first call left in its pool, between that call and the next."""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)

from analytics_agent.db.linked import stalls
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.workspace.workspace import Workspace
from tests.db.linked_ext.test_endless_view import psql

SAFETY_S = 90  # a regression fails here instead of holding the suite; nothing asserts on time
SUM = {"fn": "sum", "column": "amount"}


@pytest.fixture
def stalled(postgres, monkeypatch, tmp_path):
    postgres.create_database("stalled")
    psql(
        postgres,
        "stalled",
        "CREATE TABLE orders AS SELECT i AS id, i * 2 AS amount FROM generate_series(1, 50) i",
    )
    monkeypatch.setenv("SHOP_PASSWORD", postgres.password)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    stopped: list[int] = []
    yield postgres.dsn("stalled"), stopped
    for pid in stopped:
        os.kill(pid, signal.SIGCONT)
    psql(
        postgres,
        "postgres",
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'stalled'",
    )


CALLS = """
    calls = [("aggregate", pg), ("aggregate", {"table": "orders", "metrics": [{"fn": "count"}]}),
             ("aggregate", pg)]
    print(json.dumps([ws.executor.execute(name, args).text for name, args in calls]), flush=True)
"""
CLOSE = """
    import threading, time
    answers = []
    call = threading.Thread(target=lambda: answers.append(ws.executor.execute("aggregate", pg).text))
    call.start()
    while not ws.executor._live:  # until the call holds its cursor: then a close must stop it
        time.sleep(0.01)
    ws.close()
    call.join()
    print(json.dumps(answers), flush=True)
"""


def start_child(
    sample_db: Path, dsn: str, then: str = CALLS, limit_s: float = 2, warm: bool = True
) -> subprocess.Popen:
    """A child that opens the workspace (tool time limit ``limit_s``), makes one call on the source
    (unless not ``warm``), says ``ready``, and after a line on its stdin does ``then``: by default it
    calls the source, a local table and the source again."""
    code = f"""
import json, sys
from pathlib import Path
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.workspace.workspace import Workspace
source = parse_source("shop", {{"type": "postgres", "dsn": {dsn!r}, "password_env": "SHOP_PASSWORD",
                                "prefix": "pg_"}})
pg = {{"table": "pg_orders", "metrics": [{SUM!r}]}}
with Workspace.open(Path({str(sample_db)!r}), sources=[source]) as ws:
    ws.executor.timeout_s = {limit_s!r}
    first = ws.executor.execute("aggregate", pg) if {warm!r} else None
    print("ready", first and first.text, flush=True)
    sys.stdin.readline()
{textwrap.indent(textwrap.dedent(then), "    ")}
"""
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])},
    )


def read_line(child: subprocess.Popen) -> str:
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], SAFETY_S)
    assert ready, "the child said nothing"
    return child.stdout.readline()


def run_stalled(
    child: subprocess.Popen, postgres, stopped: list[int], whole_server: bool = False
) -> list[str]:
    """Stop the server's backends (and with ``whole_server`` the server itself) once the child is ready,
    let it go on, and read its answers."""
    try:
        line = read_line(child)
        assert line.startswith("ready") and ("2550" in line or "None" in line), line + child.stderr.read()
        backends = psql(
            postgres,
            "postgres",
            "SELECT pid FROM pg_stat_activity WHERE datname = 'stalled' AND pid <> pg_backend_pid()",
        ).split()
        assert backends, "the child keeps no connection to the server"
        if whole_server:  # the backends' parent: no new connection is answered either
            backends.append(Path(f"/proc/{backends[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])
        for pid in map(int, backends):
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        out, err = child.communicate("go\n", timeout=SAFETY_S)
    finally:
        child.kill()
    assert child.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


def test_a_call_on_a_server_that_stopped_answering_ends_in_one_line(sample_db, stalled, postgres) -> None:
    dsn, stopped = stalled
    stalled_call, local_call, next_call = run_stalled(start_child(sample_db, dsn), postgres, stopped)
    assert stalled_call.startswith(
        "Error: aggregate was stopped: the PostgreSQL source shop did not answer for 2 s"
    ), stalled_call
    assert "--no-sources" in stalled_call and "\n" not in stalled_call
    with duckdb.connect(str(sample_db), read_only=True) as conn:
        [(orders,)] = conn.execute("SELECT count(*) FROM orders").fetchall()
    assert json.loads(local_call)["rows"] == [[orders]]
    assert json.loads(next_call)["rows"] == [[2550]]  # 2 * (1 + ... + 50), on a new connection


def test_a_first_call_whose_catalog_read_stalls_ends_in_one_line(sample_db, stalled, postgres) -> None:
    """The server freezes right after the open: the first call's tool reads the catalog before its query."""
    dsn, stopped = stalled
    first, _, _ = run_stalled(start_child(sample_db, dsn, warm=False), postgres, stopped, whole_server=True)
    assert first.startswith("Error: aggregate was stopped: the PostgreSQL source shop did not answer"), first


def test_closing_the_session_stops_a_call_waiting_on_a_stalled_server(sample_db, stalled, postgres) -> None:
    """Ctrl-C in ``ask``, ``chat`` or the MCP server closes the session: its calls are stopped, and the
    connection closed after them. The stalled call ignored the interrupts and the close waited for it."""
    dsn, stopped = stalled
    child = start_child(sample_db, dsn, then=CLOSE, limit_s=SAFETY_S * 10)
    assert run_stalled(child, postgres, stopped) == [
        "Error: aggregate was stopped: the question was interrupted"
    ]


def test_libpq_sets_keepalives_and_a_user_timeout_on_the_real_socket(sample_db, stalled) -> None:
    """A host that vanishes (packets dropped) is the kernel's to find: the options reach the socket."""
    dsn, _ = stalled
    source = parse_source(
        "shop", {"type": "postgres", "dsn": dsn, "password_env": "SHOP_PASSWORD", "prefix": "pg_"}
    )
    before = set(stalls._tcp_sockets())
    with Workspace.open(sample_db, sources=[source]) as ws:
        assert ws.linked_tables == {"pg_orders": "shop"}
        opened = [fd for inode, (_, fd) in stalls._tcp_sockets().items() if inode not in before]
        assert opened, "no connection to the server is open"
        for fd in opened:
            with socket.socket(fileno=os.dup(fd)) as sock:
                assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == 15
                assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT) == 3
                assert sock.getsockopt(socket.IPPROTO_TCP, TCP_USER_TIMEOUT) == 30000


TCP_USER_TIMEOUT = 18  # linux/tcp.h; Python's socket module names it from 3.12 on
