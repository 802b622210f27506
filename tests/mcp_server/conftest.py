"""Fixtures for the MCP server: a live workspace on a real sample database, and the server over it.

Test modules here start with ``pytest.importorskip("mcp")``, so a plain ``[test]`` install skips them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SQL_DIR_TOOLS = {
    "orders_in_city.sql": """-- name: orders_in_city
-- description: How many orders one city has had, all time.
-- tables: orders
-- param city: enum(from orders.city) | City.
-- returns: object
SELECT $city AS city, count(*) AS orders FROM orders WHERE city = $city
""",
    "broken_cast.sql": """-- name: broken_cast
-- description: A tool whose query fails when it runs (a city is not a number).
-- tables: orders
-- param city: enum(from orders.city) | City.
-- returns: object
SELECT CAST($city AS INTEGER) AS n
""",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def user_tools(tmp_path: Path) -> Path:
    folder = tmp_path / "my_tools"
    folder.mkdir()
    for name, text in SQL_DIR_TOOLS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def make_server():
    """A factory: (live workspace, server) over a database; every live workspace is closed afterwards."""
    from analytics_agent.mcp_server import build_server
    from analytics_agent.workspace.live import LiveWorkspace

    made = []

    def make(db: Path, *, tool_dirs=(), allow_sql: bool = False, idle_s: float = 0.2, poll_s: float = 0.05):
        live = LiveWorkspace(db, tool_dirs=tool_dirs, allow_sql=allow_sql, idle_s=idle_s)
        made.append(live)
        return live, build_server(live, poll_s=poll_s)

    yield make
    for live in made:
        live.close()


@pytest.fixture
def regions_csv(tmp_path: Path) -> Path:
    """A small CSV a user loads from another terminal while the server runs."""
    path = tmp_path / "regions.csv"
    path.write_text("region,target\nNorth,100\nSouth,250\n", encoding="utf-8")
    return path


def run_cli(*args: str, timeout: float = 600.0) -> subprocess.CompletedProcess:
    """The real command line in its own process, as a user in another terminal runs it."""
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def cli():
    return run_cli
