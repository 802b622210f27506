"""A team server under load: N MCP clients at once, signed in as several users, against
``analytics-agent mcp --http --auth users`` in its own process.

Reports each call's latency (p50, p99), calls a second, errors (a tool error or a failed request) and
refusals (busy, rate limit) apart, then stops the server with SIGTERM and checks the audit trail: one line
per call, each under the user who made it. Not a timed test: run it by hand.

    python -m tests.bench.bench_team --clients 8 --users 3 --calls 25
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CALLS = [
    ("sales_summary", {"city": "Pune", "day": "2026-10-24"}),
    ("list_tables", {}),
    ("city_ranking", {"period": "2026-10-01..2026-10-31"}),
]


def _cli(db: Path, *args: str, **popen: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(  # type: ignore[call-overload]
        [sys.executable, "-m", "analytics_agent", "--db", str(db), *args], env=env, text=True, **popen
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_ready(base: str, proc: subprocess.Popen[str]) -> None:
    import httpx

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server exited at start")
        try:
            if httpx.get(f"{base}/readyz", timeout=5).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not get ready")


async def _client(base: str, token: str, calls: int, offset: int, out: list[tuple[float, str]]) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    async with Client(streamable_http_client(f"{base}/mcp", http_client=http)) as client:
        for i in range(calls):
            name, arguments = CALLS[(offset + i) % len(CALLS)]
            started = time.perf_counter()
            try:
                result = await client.call_tool(name, arguments)
                text = result.content[0].text if result.content else ""
                kind = "ok" if not result.is_error else ("refused" if _refusal(text) else "error")
            except Exception as exc:  # a failed request is counted, not fatal to the run
                kind = f"failed: {type(exc).__name__}"
            out.append((time.perf_counter() - started, kind))


def _refusal(text: str) -> bool:
    return text.startswith(("busy:", "rate limit:", "the server is shutting down"))


def _load(base: str, tokens: list[str], clients: int, calls: int) -> tuple[list[tuple[float, str]], float]:
    import anyio

    results: list[tuple[float, str]] = []

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            for n in range(clients):
                tasks.start_soon(_client, base, tokens[n % len(tokens)], calls, n, results)

    started = time.perf_counter()
    anyio.run(main)
    return results, time.perf_counter() - started


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(clients: int, users: int, calls: int) -> int:
    from analytics_agent.db.connect import ensure_database

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "team.duckdb"
        ensure_database(db, sample_data=True)
        names = [f"user{n}" for n in range(users)]
        tokens = []
        for name in names:
            added = _cli(db, "users", "add", name, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            out, err = added.communicate(timeout=120)
            if added.returncode != 0:
                raise SystemExit(f"users add failed: {err}")
            tokens.append(out.strip())
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        server = _cli(db, "mcp", "--http", "--port", str(port), "--auth", "users", stderr=subprocess.DEVNULL)
        try:
            _wait_ready(base, server)
            results, wall = _load(base, tokens, clients, calls)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=120)
        trail = [json.loads(line) for line in db.with_name("team.audit.jsonl").read_text().splitlines()]
    return _report(results, wall, trail, names, clients, calls)


def _report(
    results: list[tuple[float, str]],
    wall: float,
    trail: list[dict],
    names: list[str],
    clients: int,
    calls: int,
) -> int:
    latencies = [seconds * 1000 for seconds, _ in results]
    kinds = Counter(kind for _, kind in results)
    expected = Counter(names[n % len(names)] for n in range(clients) for _ in range(calls))
    audited = Counter(line["user"] for line in trail)
    print(
        f"{clients} clients as {len(names)} users, {calls} calls each: {len(results)} calls in {wall:.1f} s"
    )
    print(f"  calls a second   {len(results) / wall:.1f}")
    print(f"  latency p50      {statistics.median(latencies):.1f} ms")
    print(f"  latency p99      {_percentile(latencies, 0.99):.1f} ms")
    print(f"  outcomes         {dict(kinds)}")
    print(f"  audit lines      {len(trail)} (calls made: {len(results)}); per user {dict(audited)}")
    consistent = audited == expected and len(trail) == len(results)
    print(f"  one audit line per call, under its user: {'yes' if consistent else 'NO'}")
    return 0 if consistent else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.bench.bench_team", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--clients", type=int, default=8, help="MCP clients at once (default 8)")
    parser.add_argument("--users", type=int, default=3, help="users the clients sign in as (default 3)")
    parser.add_argument("--calls", type=int, default=25, help="calls per client (default 25)")
    args = parser.parse_args(argv)
    return run(args.clients, args.users, args.calls)


if __name__ == "__main__":
    sys.exit(main())
