"""What used to hang for ever ends in one line (round three): ``--db`` naming a FIFO or another special
file, and a PostgreSQL source whose host accepts the connection and never answers (the connection string
gets a connect timeout; the end-to-end run against a silent loopback host is in
``tests/db/linked_ext/test_silent_host.py``, which needs the postgres extension)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from analytics_agent.db.linked.timeouts import with_connect_timeout

SAFETY_S = 60  # a hang fails the test here instead of holding the suite; nothing asserts on time


def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "shop.duckdb"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to a fifo":
        os.mkfifo(tmp_path / "pipe")
        path.symlink_to(tmp_path / "pipe")
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("kind", ["fifo", "link to a fifo", "link to /dev/zero"])
@pytest.mark.parametrize("command", [["tables"], ["load", "{csv}"], ["mcp"], ["schema", "orders"]])
def test_a_database_that_is_no_regular_file_is_one_line(
    tmp_path: Path, kind: str, command: list[str]
) -> None:
    """A FIFO as ``--db`` blocked ``tables``, ``load`` and ``mcp`` for ever (opening it waits for a
    writer)."""
    db = _special(tmp_path, kind)
    csv = tmp_path / "rows.csv"
    csv.write_text("a,b\n1,2\n")
    args = [a.replace("{csv}", str(csv)) for a in command]
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    result = subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(db), *args],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=SAFETY_S, env=env,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr[-1500:]
    last = result.stderr.strip().splitlines()
    assert len(last) == 1 and last[0].startswith(f"error: {db} is a "), last
    assert "not a database file" in last[0]


@pytest.mark.parametrize(
    ("dsn", "expected"),
    [
        ("host=db.example dbname=shop", "host=db.example dbname=shop connect_timeout=10"),
        ("", "connect_timeout=10"),
        ("postgresql://u@db.example/shop", "postgresql://u@db.example/shop?connect_timeout=10"),
        (
            "postgres://db.example/shop?sslmode=require",
            "postgres://db.example/shop?sslmode=require&connect_timeout=10",
        ),
        ("host=db.example connect_timeout=3", "host=db.example connect_timeout=3"),
        ("postgresql://db.example/shop?Connect_Timeout=3", "postgresql://db.example/shop?Connect_Timeout=3"),
    ],
)
def test_a_postgres_connection_string_gets_a_connect_timeout_unless_it_sets_one(
    dsn: str, expected: str
) -> None:
    assert with_connect_timeout(dsn) == expected
