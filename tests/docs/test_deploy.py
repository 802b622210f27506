"""docs/deploy.md's recipe is the one shipped and the one tested: the page shows deploy/Dockerfile and
deploy/analytics-agent.service as they are, the unit runs the image's entry command, systemd accepts the
unit, and the image's entry command, on a database made by the image's own line, serves MCP.

Over a real lake (PostgreSQL and S3) the same command runs in tests/db/linked_ext/test_lake_servers.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from deploy_recipe import (
    DOCKERFILE,
    ROOT,
    UNIT,
    as_test_runs,
    entry_command,
    image_env,
    make_database,
    unit_values,
)

PAGE = ROOT / "docs" / "deploy.md"


def _shown_files() -> dict[str, str]:
    """The page's blocks titled with a file name: {title: text}."""
    found = re.finditer(
        r'^```\w*\s+title="([^"]+)"\n(.*?)^```$', PAGE.read_text(encoding="utf-8"), re.S | re.M
    )
    return {m.group(1): m.group(2) for m in found}


def test_the_page_shows_the_shipped_files_as_they_are() -> None:
    shown = _shown_files()
    assert shown["deploy/Dockerfile"] == DOCKERFILE.read_text(encoding="utf-8")
    assert shown["deploy/analytics-agent.service"] == UNIT.read_text(encoding="utf-8")


def test_the_unit_runs_the_images_entry_command_with_its_settings() -> None:
    [exec_start] = unit_values("ExecStart")
    program, *arguments = shlex.split(exec_start)
    assert Path(program).is_absolute() and Path(program).name == "analytics-agent"
    assert arguments == entry_command()[1:]
    environment = dict(
        pair.split("=", 1) for value in unit_values("Environment") for pair in shlex.split(value)
    )
    assert environment == image_env()
    # what the service may write is its cache folder, the data folder's analytics-agent/ in both
    assert unit_values("CacheDirectory") == ["analytics-agent"]
    assert environment["XDG_DATA_HOME"] == "/var/cache"


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on the unit as shipped, with its program pointed at this environment's
    installed script (verify checks that the program exists and can run); any warning fails too."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze not found; the unit's command is checked by the test above")
    installed = Path(sys.executable).parent / "analytics-agent"
    assert installed.is_file(), f"no installed analytics-agent script beside {sys.executable}"
    [exec_start] = unit_values("ExecStart")
    program = shlex.split(exec_start)[0]
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(program, str(installed)), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.anyio
@pytest.mark.slow
async def test_the_images_entry_command_serves_the_database_its_own_line_makes(tmp_path: Path) -> None:
    """No source configured: the empty database answers that it has no table, and the server leaves the
    file as it was (it opens it read-only)."""
    pytest.importorskip("mcp")
    from mcp import Client

    database, port = tmp_path / "empty.duckdb", _free_port()
    make_database(database)
    made = database.read_bytes()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_CONFIG_HOME": str(tmp_path / "etc"),
        "XDG_DATA_HOME": str(tmp_path / "cache"),
    }
    stderr = tmp_path / "stderr.txt"
    with stderr.open("w") as err:
        proc = subprocess.Popen(
            as_test_runs(entry_command(), database=database, port=port),
            stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=tmp_path,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 600  # only ends a broken run
        while True:
            assert proc.poll() is None, stderr.read_text()
            assert time.monotonic() < deadline, "the server did not start listening"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.05)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            result = await client.call_tool("list_tables", {})
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert not result.is_error, result.content
    assert json.loads(result.content[0].text)["rows"] == []
    assert database.read_bytes() == made
