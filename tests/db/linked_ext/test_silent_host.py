"""A PostgreSQL source whose host accepts the connection and never answers: opening the workspace used to
wait for ever (libpq has no connect timeout by default); now the source is skipped after its connect
timeout with one line and every other table works."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)

from analytics_agent.db.linked import timeouts
from analytics_agent.db.linked.spec import parse_source
from analytics_agent.workspace.workspace import Workspace


@pytest.fixture
def silent_host() -> Iterator[int]:
    """A loopback port that accepts every connection and never sends a byte."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1]
    server.close()
    for conn in held:
        conn.close()


@pytest.mark.parametrize(
    "dsn",
    [
        "host=127.0.0.1 port={port} dbname=shop user=reader",
        "postgresql://reader@127.0.0.1:{port}/shop",
        "postgresql://reader@127.0.0.1:{port}/shop?sslmode=disable",
    ],
    ids=["key-value", "uri", "uri-with-query"],
)
def test_a_host_that_never_answers_skips_the_source_in_one_line(sample_db, silent_host, monkeypatch, dsn):
    monkeypatch.setattr(timeouts, "CONNECT_TIMEOUT_S", 2)
    source = parse_source("shop", {"type": "postgres", "dsn": dsn.format(port=silent_host), "prefix": "pg_"})
    with Workspace.open(sample_db, sources=[source]) as ws:
        assert not any(name.startswith("pg_") for name in ws.linked_tables)
        problems = " ".join(str(p) for p in ws.source_problems)
        assert "shop" in problems and "timeout" in problems.lower(), problems
        outcome = ws.executor.execute("aggregate", {"table": "orders", "metrics": [{"fn": "count"}]})
        assert not outcome.is_error
