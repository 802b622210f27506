"""Real peers for the sources that need DuckDB extensions: a PostgreSQL server started from the machine's
own binaries on a loopback port, and an S3-compatible server (moto) on another. Both stop with the session.

These tests run in CI's second environment (DuckDB 1.5.5 with the ``duckdb-extension-*`` wheels of the
``lake`` extra); elsewhere they are skipped, each module saying which piece is missing. Under CI a missing
PostgreSQL fails them instead (tests/required.py): .ci/run installs it.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.required import POSTGRESQL, missing

PASSWORD = "pg-Secret-1234"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(candidates[-1]).parent if candidates else None


def _as_postgres_user(args: list[str]) -> list[str]:
    """initdb refuses root: run as the postgres system user when we are root."""
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


@dataclass(frozen=True)
class Postgres:
    port: int
    password: str = PASSWORD

    def dsn(self, dbname: str) -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname}"

    def create_database(self, name: str) -> None:
        """A fresh database (psql: CREATE DATABASE cannot run inside the transaction DuckDB opens)."""
        psql = shutil.which("psql") or str((_pg_bin() or Path("/usr/bin")) / "psql")
        for statement in (f"DROP DATABASE IF EXISTS {name} WITH (FORCE)", f"CREATE DATABASE {name}"):
            subprocess.run(
                [psql, "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-v", "ON_ERROR_STOP=1",
                 "-c", statement],
                check=True, capture_output=True, timeout=600, env={**os.environ, "PGPASSWORD": self.password},
            )  # fmt: skip


@pytest.fixture(scope="session")
def postgres() -> Postgres:
    bindir = _pg_bin()
    if bindir is None:
        missing("PostgreSQL server binaries", POSTGRESQL)
    root = Path(tempfile.mkdtemp(prefix="aa-pg-"))
    root.chmod(0o777)  # the postgres user writes here when we run as root
    pwfile = root / "pw"
    pwfile.write_text(PASSWORD + "\n")
    pwfile.chmod(0o644)
    data, port = root / "data", free_port()
    subprocess.run(
        _as_postgres_user([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth-local=trust",
                           "--auth-host=scram-sha-256", f"--pwfile={pwfile}"]),
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1"
    subprocess.run(
        _as_postgres_user([str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]),
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    try:
        yield Postgres(port)
    finally:
        subprocess.run(
            _as_postgres_user([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True, timeout=600,
        )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


@dataclass(frozen=True)
class S3:
    endpoint: str

    def client(self):
        import boto3

        return boto3.client(
            "s3", endpoint_url=self.endpoint, aws_access_key_id="test", aws_secret_access_key="test",
            region_name="us-east-1",
        )  # fmt: skip


@pytest.fixture(scope="session")
def s3_server() -> S3:
    server = shutil.which("moto_server")
    if server is None:
        pytest.skip("moto's S3 server not installed (pip install 'moto[server]')")
    port = free_port()
    proc = subprocess.Popen(
        [server, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            break
        time.sleep(0.1)
    try:
        yield S3(f"http://127.0.0.1:{port}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture
def s3_env(s3_server, monkeypatch) -> S3:
    """The AWS chain as a user would set it for a local S3-compatible server (fake credentials)."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", s3_server.endpoint)
    return s3_server
