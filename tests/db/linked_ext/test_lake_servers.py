"""Past one machine: two ``analytics-agent mcp --http`` processes over one DuckLake (its catalog in a real
PostgreSQL, its files on an S3-compatible server, moto) answer the same tool calls with the same numbers,
write nothing to the lake, and both see what a writer adds to it.

The servers sign in to PostgreSQL as a role that may only read the catalog: a server that wrote to it
would fail there, not pass unnoticed. The bucket's objects are listed before and after they serve.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import duckdb
import pytest

pytest.importorskip(
    "duckdb_extension_ducklake", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)
pytest.importorskip(
    "duckdb_extension_postgres", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)"
)
pytest.importorskip("duckdb_extension_httpfs", reason="needs the lake extra (DuckDB 1.5.5 extension wheels)")

from deploy_recipe import as_test_runs, entry_command, make_database
from mcp import Client

from analytics_agent.db.linked.extensions import load_extension

from .conftest import Postgres, free_port

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
WORKTREE = Path(__file__).resolve().parents[3]
READER, READER_PASSWORD = "lake_reader", "reader-Secret-5678"


def psql(postgres: Postgres, dbname: str, *statements: str) -> str:
    """Run statements as the superuser (the data owner), one psql call; its output."""
    binary = shutil.which("psql") or str(next(Path("/usr/lib/postgresql").glob("*/bin/psql")))
    args = [binary, "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres", "-d", dbname]
    args += ["-v", "ON_ERROR_STOP=1", "-At"]
    for statement in statements:
        args += ["-c", statement]
    done = subprocess.run(
        args, capture_output=True, text=True, timeout=600, env={**os.environ, "PGPASSWORD": postgres.password}
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@dataclass(frozen=True)
class Lake:
    postgres: Postgres
    dbname: str
    endpoint: str
    bucket: str

    @property
    def data_path(self) -> str:
        return f"s3://{self.bucket}/data/"

    def writer(self, tmp_path: Path) -> duckdb.DuckDBPyConnection:
        """The data owner's connection: DuckLake attached read-write as the superuser."""
        conn = duckdb.connect(
            config={"extension_directory": str(tmp_path / "writer-ext"), "autoload_known_extensions": False}
        )
        for name in ("ducklake", "postgres", "httpfs"):
            load_extension(conn, name)
        conn.execute(f"CREATE SECRET (TYPE postgres, PASSWORD '{self.postgres.password}')")
        host = self.endpoint.removeprefix("http://")
        conn.execute(
            f"CREATE SECRET (TYPE s3, KEY_ID 'test', SECRET 'test', REGION 'us-east-1', ENDPOINT '{host}', "
            "USE_SSL false, URL_STYLE 'path')"
        )
        catalog = f"postgres:{self.postgres.dsn(self.dbname)}"
        conn.execute(f"ATTACH 'ducklake:{catalog}' AS lake (DATA_PATH '{self.data_path}')")
        return conn

    def catalog_state(self) -> str:
        """Every row of every catalog table, as text: any write by anyone changes it."""
        tables = psql(
            self.postgres, self.dbname,
            "SELECT string_agg(quote_ident(tablename), ',' ORDER BY tablename) FROM pg_tables "
            "WHERE schemaname = 'public'",
        ).strip().split(",")  # fmt: skip
        return psql(
            self.postgres,
            self.dbname,
            *(
                f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {t} t"
                for t in tables
            ),
        )


@pytest.fixture
def lake(postgres, s3_server, tmp_path) -> Lake:
    """A DuckLake whose catalog is the PostgreSQL database ``lakecat`` and whose files are on S3; a role
    that may only read the catalog, as the servers sign in."""
    postgres.create_database("lakecat")
    bucket = "lake-" + "".join(ch for ch in tmp_path.name.lower() if ch.isalnum())[-20:]
    s3_server.client().create_bucket(Bucket=bucket)  # a bucket of its own: the moto server lives on
    lake = Lake(postgres, "lakecat", s3_server.endpoint, bucket)
    conn = lake.writer(tmp_path)
    conn.execute(
        "CREATE TABLE lake.trips AS SELECT i AS trip_id, i % 7 AS weekday, (i % 50) * 1.5 AS fare "
        "FROM range(20000) t(i)"
    )
    conn.close()
    psql(
        postgres, "lakecat",
        f"DROP ROLE IF EXISTS {READER}",
        f"CREATE ROLE {READER} LOGIN PASSWORD '{READER_PASSWORD}'",
        f"GRANT CONNECT ON DATABASE lakecat TO {READER}",
        f"GRANT USAGE ON SCHEMA public TO {READER}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {READER}",
        # tables the writer makes later (DuckLake may inline small inserts into tables of their own)
        f"ALTER DEFAULT PRIVILEGES FOR ROLE postgres IN SCHEMA public GRANT SELECT ON TABLES TO {READER}",
    )  # fmt: skip
    yield lake
    psql(postgres, "postgres", "DROP DATABASE lakecat WITH (FORCE)", f"DROP ROLE {READER}")


def _sources_toml(lake: Lake) -> str:
    dsn = f"host=127.0.0.1 port={lake.postgres.port} user={READER} dbname={lake.dbname}"
    return (
        f'[lake]\ntype = "ducklake"\ncatalog = "postgres:{dsn}"\npassword_env = "LAKE_PASSWORD"\n'
        f'data_path = "{lake.data_path}"\n'
    )


@dataclass
class Server:
    url: str
    proc: subprocess.Popen
    data_home: Path
    stderr: Path


def _wait_ready(port: int, proc: subprocess.Popen, stderr: Path, timeout: float = 600) -> None:
    """Until the server accepts a connection on its port (uvicorn listens only once start-up is done: the
    lake attached, the tools built), or exits. The bound only ends a broken run."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited {proc.returncode}: {stderr.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.05)
    raise AssertionError("server did not start listening")


def server_env(lake: Lake, config_home: Path, data_home: Path) -> dict[str, str]:
    """What a machine of the fleet sets: the configuration folder, a data folder of its own, the catalog
    reader's password and the object store's credentials (the AWS chain)."""
    return {
        **os.environ,
        "PYTHONPATH": str(WORKTREE),
        "XDG_CONFIG_HOME": str(config_home),
        "XDG_DATA_HOME": str(data_home),
        "LAKE_PASSWORD": READER_PASSWORD,
        "AWS_ACCESS_KEY_ID": "test",
        "AWS_SECRET_ACCESS_KEY": "test",
        "AWS_REGION": "us-east-1",
        "AWS_ENDPOINT_URL_S3": lake.endpoint,
    }


@pytest.fixture
def start_servers(lake, tmp_path) -> Iterator[Callable[..., list[Server]]]:
    """Starts server processes at once, as machines of a fleet would: each its own data folder, one
    configuration, one empty database file that every one opens read-only; the command and the database
    are the container image's (tests/deploy_recipe.py)."""
    config = tmp_path / "etc"
    (config / "analytics-agent").mkdir(parents=True)
    (config / "analytics-agent" / "sources.toml").write_text(_sources_toml(lake))
    database = tmp_path / "lake.duckdb"
    make_database(database)  # the image's own line (deploy/Dockerfile)
    started: list[Server] = []

    def start(*names: str) -> list[Server]:
        batch = []
        for name in names:
            port, data_home, stderr = free_port(), tmp_path / name / "data", tmp_path / name / "stderr.txt"
            data_home.mkdir(parents=True)
            command = as_test_runs(entry_command(), database=database, port=port)  # the image's own
            with stderr.open("w") as err:
                proc = subprocess.Popen(
                    command, stdout=subprocess.DEVNULL, stderr=err, cwd=tmp_path,
                    env=server_env(lake, config, data_home),
                )  # fmt: skip
            batch.append(Server(f"http://127.0.0.1:{port}/mcp", proc, data_home, stderr))
        started.extend(batch)
        for server in batch:
            _wait_ready(int(server.url.split(":")[2].split("/")[0]), server.proc, server.stderr)
        return batch

    try:
        yield start
    finally:
        for server in started:
            server.proc.terminate()
            server.proc.wait(timeout=30)


SUMS = {
    "table": "trips",
    "metrics": [{"fn": "sum", "column": "fare"}, {"fn": "count"}],
    "group_by": ["weekday"],
    "order_by": "weekday",
}


async def _call(url: str, name: str, arguments: dict) -> dict:
    async with Client(url) as client:
        result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


async def _tables(url: str) -> list[str]:
    async with Client(url) as client:
        tools = (await client.list_tools()).tools
    aggregate = next(t for t in tools if t.name == "aggregate")
    return aggregate.input_schema["properties"]["table"]["enum"]


def _owners_sums(lake: Lake, tmp_path: Path) -> list[list]:
    """The sums by weekday as the data owner's own DuckDB computes them: the reference, not our tools."""
    conn = lake.writer(tmp_path)
    rows = conn.execute(
        "SELECT weekday, sum(fare), count(*) FROM lake.trips GROUP BY 1 ORDER BY 1"
    ).fetchall()
    conn.close()
    return [[weekday, float(fare), count] for weekday, fare, count in rows]


def _listing(lake: Lake) -> list[tuple[str, str]]:
    import boto3

    s3 = boto3.client(
        "s3", endpoint_url=lake.endpoint, aws_access_key_id="test", aws_secret_access_key="test",
        region_name="us-east-1",
    )  # fmt: skip
    pages = s3.get_paginator("list_objects_v2").paginate(Bucket=lake.bucket)
    return sorted((o["Key"], o["ETag"]) for page in pages for o in page.get("Contents", []))


async def test_two_servers_answer_alike_and_write_nothing_to_the_lake(lake, start_servers, tmp_path):
    catalog_before, objects_before = lake.catalog_state(), _listing(lake)
    servers = start_servers("one", "two")
    sums = [await _call(s.url, "aggregate", SUMS) for s in servers]
    described = [await _call(s.url, "describe_table", {"table": "trips"}) for s in servers]
    assert sums[0]["rows"] == sums[1]["rows"] == _owners_sums(lake, tmp_path)
    assert described[0] == described[1]
    # nothing written by starting and serving: not a catalog row, not an object
    assert lake.catalog_state() == catalog_before
    assert _listing(lake) == objects_before


async def _until(check: Callable[[], Awaitable[bool]], bound_s: float = 120) -> None:
    """Ask again until ``check`` holds: a running server reads the lake anew once it has been idle (it lets go
    of its connection after two seconds). The bound only ends a broken run."""
    deadline = time.monotonic() + bound_s
    while not await check():
        assert time.monotonic() < deadline, "the running server never saw the lake's new snapshot"
        await anyio.sleep(0.2)


async def test_a_writers_change_reaches_a_running_server_and_a_new_one_alike(lake, start_servers, tmp_path):
    [running] = start_servers("running")
    before = await _call(running.url, "describe_table", {"table": "trips"})
    conn = lake.writer(tmp_path)  # the writer path: the data owner's DuckDB, read-write on the lake
    conn.execute("INSERT INTO lake.trips SELECT 20000 + i, 7, 1000.0 FROM range(10) t(i)")
    conn.execute("CREATE TABLE lake.zones AS SELECT i AS zone_id FROM range(5) t(i)")
    conn.close()
    [new] = start_servers("new")  # a machine added after the change: it knows the lake only as it is now
    expected = _owners_sums(lake, tmp_path)
    sums = [await _call(s.url, "aggregate", SUMS) for s in (running, new)]
    after_new = await _call(new.url, "describe_table", {"table": "trips"})

    async def running_describes_it_as_new() -> bool:
        return await _call(running.url, "describe_table", {"table": "trips"}) == after_new

    await _until(running_describes_it_as_new)
    assert sums[0]["rows"] == sums[1]["rows"] == expected  # the numbers: at once, on both
    assert expected[-1] == [7, 10000.0, 10]
    assert after_new != before  # the description (rows, largest fare, weekdays) did change
    assert await _tables(running.url) == await _tables(new.url) == ["trips", "zones"]


def test_a_server_busy_with_calls_still_reads_a_lake_changed_by_another_process(lake, tmp_path, monkeypatch):
    """Calls that never leave the server idle keep its connection open; over a lake it is let go between
    two calls once older than ``recheck_s`` (0 here, so the first tick does it), and the next call reads
    the lake's new snapshot: its description, not only its sums."""
    from analytics_agent.db.linked.spec import parse_source
    from analytics_agent.workspace.live import LiveWorkspace

    for key, value in server_env(lake, tmp_path / "etc", tmp_path / "data").items():
        monkeypatch.setenv(key, value)
    database = tmp_path / "own.duckdb"
    duckdb.connect(str(database)).close()
    dsn = f"host=127.0.0.1 port={lake.postgres.port} user={READER} dbname={lake.dbname}"
    source = parse_source(
        "lake",
        {"type": "ducklake", "catalog": f"postgres:{dsn}", "password_env": "LAKE_PASSWORD", "data_path": lake.data_path},
    )  # fmt: skip
    live = LiveWorkspace(database, sources=[source], idle_s=3600, recheck_s=0)
    try:
        before = json.loads(live.execute("describe_table", {"table": "trips"}).text)
        conn = lake.writer(tmp_path)
        conn.execute("INSERT INTO lake.trips SELECT 30000 + i, 8, 2000.0 FROM range(5) t(i)")
        conn.close()
        live.tick()
        after = json.loads(live.execute("describe_table", {"table": "trips"}).text)
    finally:
        live.close()
    weekday = {c["name"]: c for c in after["columns"]}["weekday"]
    assert (before["rows"], after["rows"]) == (20000, 20005)
    assert weekday["max"] == 8


@contextlib.asynccontextmanager
async def round_robin(backends: list[str], served: list[str]) -> AsyncIterator[str]:
    """A load balancer without session affinity: each request goes to the next server in turn (its base
    URL appended to ``served``). Responses are passed back whole: no call here streams for long."""
    import httpx
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    turn = iter(backends * 1000)
    hop = {"host", "content-length", "transfer-encoding", "content-encoding"}
    async with httpx.AsyncClient(timeout=600) as client:

        async def forward(request: Request) -> Response:
            target = next(turn)
            served.append(target)
            headers = {k: v for k, v in request.headers.items() if k.lower() not in hop}
            answer = await client.request(
                request.method, target + request.url.path, headers=headers, content=await request.body()
            )
            kept = {k: v for k, v in answer.headers.items() if k.lower() not in hop}
            return Response(answer.content, status_code=answer.status_code, headers=kept)

        app = Starlette(routes=[Route("/mcp", forward, methods=["GET", "POST", "DELETE"])])
        port = free_port()
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="off")
        )
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(server.serve)
            while not server.started:  # uvicorn's own ready flag
                await anyio.sleep(0.01)
            try:
                yield f"http://127.0.0.1:{port}/mcp"
            finally:
                server.should_exit = True


async def test_a_balancer_may_send_each_call_to_either_server(lake, start_servers, tmp_path):
    """MCP clients of the current protocol keep no session on the server: behind a balancer that
    alternates, one client's calls are answered by both servers, each with the owner's numbers."""
    servers = start_servers("one", "two")
    bases = [s.url.removesuffix("/mcp") for s in servers]
    served: list[str] = []
    async with round_robin(bases, served) as url, Client(url) as client:
        results = [await client.call_tool("aggregate", SUMS) for _ in range(4)]
    expected = _owners_sums(lake, tmp_path)
    for result in results:
        assert not result.is_error, result.content
        assert json.loads(result.content[0].text)["rows"] == expected
    assert set(served) == set(bases) and len(served) >= 4


def test_a_data_folder_that_cannot_be_written_is_named_as_the_problem(tmp_path):
    """The extensions come from the installed wheels but are copied into the data folder first: where that
    folder cannot be made (a read-only container), the one line says so, not "install the lake extra"."""
    from cli_process import run_cli

    config = tmp_path / "etc" / "analytics-agent"
    config.mkdir(parents=True)
    (config / "sources.toml").write_text(
        '[lake]\ntype = "ducklake"\ncatalog = "postgres:host=127.0.0.1 dbname=lake user=reader"\n'
    )
    make_database(tmp_path / "empty.duckdb")
    (tmp_path / "file").write_text("")  # a data folder under a plain file can never be made
    env = {"XDG_CONFIG_HOME": str(tmp_path / "etc"), "XDG_DATA_HOME": str(tmp_path / "file" / "data")}
    done = run_cli(["--db", str(tmp_path / "empty.duckdb"), "tables"], cwd=tmp_path, env=env)
    [line] = done.stderr.splitlines()
    folder = tmp_path / "file" / "data" / "analytics-agent" / "duckdb-extensions"
    assert line.startswith(
        f"warning: source lake skipped: the DuckDB extension 'ducklake' cannot be installed into {folder}"
    )
    assert "the data folder must be writable (set XDG_DATA_HOME" in line and "pip install" not in line


def test_an_idle_server_looks_at_the_lake_again_and_says_its_tables_changed(lake, tmp_path, monkeypatch):
    """No call comes, yet a writer's new table reaches the server's clients: a tick reopens over the lake
    once ``recheck_s`` has passed (0 here) and reports the change, which the server sends as list_changed."""
    from analytics_agent.db.linked.spec import parse_source
    from analytics_agent.workspace.live import LiveWorkspace

    for key, value in server_env(lake, tmp_path / "etc", tmp_path / "data").items():
        monkeypatch.setenv(key, value)
    database = tmp_path / "own.duckdb"
    make_database(database)
    dsn = f"host=127.0.0.1 port={lake.postgres.port} user={READER} dbname={lake.dbname}"
    source = parse_source(
        "lake",
        {"type": "ducklake", "catalog": f"postgres:{dsn}", "password_env": "LAKE_PASSWORD", "data_path": lake.data_path},
    )  # fmt: skip
    live = LiveWorkspace(database, sources=[source], idle_s=0, recheck_s=0)
    try:
        quiet = [live.tick(), live.tick()]  # closes, then reopens: the same lake, nothing to tell
        conn = lake.writer(tmp_path)
        conn.execute("CREATE TABLE lake.zones AS SELECT i AS zone_id FROM range(5) t(i)")
        conn.close()
        changes = [live.tick(), live.tick()]
        tables = live.tables
    finally:
        live.close()
    assert not any(quiet)
    assert any(change.tables for change in changes)
    assert "zones" in tables
