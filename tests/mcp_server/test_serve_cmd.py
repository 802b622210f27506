"""``analytics-agent mcp --http`` as a team server runs it: its own process, an audit trail beside the
database by default, JSON logs on stderr, probes, and SIGTERM answered with a clean exit."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import httpx
from mcp import Client
from signed_in import free_port

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
SECRET = "sk-test-never-write-this-7d1e"


def _wait_ready(base: str, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120  # a safety net for a server that never starts, not a measurement
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError("server exited")
        try:
            if httpx.get(f"{base}/readyz", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("server did not get ready")


async def test_the_http_server_audits_beside_the_database_logs_json_and_stops_cleanly(sample_db, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    err = tmp_path / "stderr.txt"
    env = {**os.environ, "OPENAI_API_KEY": SECRET, "PYTHONPATH": str(ROOT)}
    args = ["--db", str(sample_db), "-v", "mcp", "--http", "--port", str(port), "--log-format", "json"]
    with err.open("w") as stderr:
        proc = subprocess.Popen([sys.executable, "-m", "analytics_agent", *args], stderr=stderr, env=env)
        try:
            _wait_ready(base, proc)
            assert httpx.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
            async with Client(f"{base}/mcp") as client:
                answer = await client.call_tool(
                    "sales_summary", {"city": "Pune", "day": f"2026-10-24 {SECRET}"}
                )
        finally:
            proc.send_signal(signal.SIGTERM)
            code = proc.wait(timeout=60)
    trail = sample_db.with_name("sample.audit.jsonl")
    line = json.loads(trail.read_text())
    # uvicorn re-raises the signal once it has shut down, so a supervisor sees how the process ended
    assert (
        code == -signal.SIGTERM and answer.is_error
    )  # the day with a key pasted in is refused, and recorded
    assert (line["user"], line["tool"], line["outcome"]) == ("local", "sales_summary", "error")
    assert SECRET not in trail.read_text() and stat.S_IMODE(trail.stat().st_mode) == 0o600
    logged = [json.loads(x) for x in err.read_text().splitlines() if x.startswith("{")]
    assert logged and {"ts", "level", "logger", "message"} <= set(logged[0])
    assert logged[-1]["message"].startswith("Finished server process")
    assert SECRET not in err.read_text()


async def test_over_stdio_the_trail_is_written_only_when_asked_and_the_front_hands_calls_to_it(
    sample_db, tmp_path
):
    from mcp import StdioServerParameters
    from mcp.client.stdio import stdio_client

    trail = tmp_path / "stdio.audit.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    answers = []
    for extra in ([], ["--audit", str(trail)]):
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "analytics_agent", "--db", str(sample_db), "mcp", *extra],
            env=env,
        )
        with (tmp_path / "stderr.txt").open("w") as stderr:
            async with Client(stdio_client(params, errlog=stderr), mode="legacy") as client:
                await client.list_tools()  # answered by the front, before the SDK takes over
                answers.append(await client.call_tool("sales_summary", {"city": "Pune", "day": "2026-10-24"}))
    lines = [json.loads(line) for line in trail.read_text().splitlines()]
    assert [a.is_error for a in answers] == [False, False]
    assert [(x["user"], x["tool"], x["outcome"]) for x in lines] == [("local", "sales_summary", "ok")]
    assert not sample_db.with_name("sample.audit.jsonl").exists()  # none by default over stdio
