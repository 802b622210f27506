"""8. MCP: the cost of the protocol over the executor, and how soon a stdio server answers.

Per call: the same ``sales_summary`` call through the SDK's in-memory client against our server (auto:
the 2026-07-28 per-request path; legacy: the handshake-era JSON-RPC stream) and straight through the
executor, alternating, medians of wall and of process CPU time (CPU moves far less when other
processes share the machine). The server's connection is warm (opened by an earlier call); a cold call
(the connection closed after idle, reopened) is shown for information. Target: <= 2 ms more.

Start-up: a fresh ``analytics-agent mcp`` subprocess until its answer to ``tools/list`` arrives (the
handshake included), against ``analytics-agent tools list`` run to completion. Target: <= 1.5x.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.bench.bench_startup import _cli, _runner
from tests.bench.common import Result, fmt_ms

CALL_TARGET_MS = 2.0
START_TARGET = 1.5
ARGS = {"city": "Pune", "day": "2026-10-24"}


def run(*, calls: int = 301, starts: int = 7) -> Result:
    import anyio

    from analytics_agent.db.connect import ensure_database

    result = Result(
        "8. MCP overhead and stdio start-up", ["case", "ours_ms", "baseline_ms", "extra", "target", "met"]
    )
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "sample.duckdb"
        ensure_database(db, sample_data=True)
        for mode in ("auto", "legacy"):
            ours, base, ours_cpu, base_cpu, cold = anyio.run(_per_call, db, mode, calls)
            for kind, a, b in (("wall", ours, base), ("cpu", ours_cpu, base_cpu)):
                extra_ms = (a - b) * 1000
                result.rows.append(
                    [f"call via in-memory client ({mode}) vs executor, {kind}", fmt_ms(a), fmt_ms(b),
                     f"+{extra_ms:.2f} ms", f"<= +{CALL_TARGET_MS} ms", "ok" if extra_ms <= CALL_TARGET_MS else "MISSED"]
                )  # fmt: skip
            result.notes.append(
                f"{mode}: a cold call (connection reopened after idle) took {fmt_ms(cold)} ms"
            )
        server_s, list_s = _start_up(db, starts)
        ratio = server_s / list_s
        result.rows.append(
            ["stdio server answers tools/list vs `tools list`", fmt_ms(server_s), fmt_ms(list_s),
             f"{ratio:.2f}x", f"<= {START_TARGET}x", "ok" if ratio <= START_TARGET else "MISSED"]
        )  # fmt: skip
    return result


async def _per_call(db: Path, mode: str, calls: int) -> tuple[float, float, float, float, float]:
    """Medians per call through MCP and through the executor, wall and process CPU (all threads), in
    seconds, and one cold MCP call's wall time."""
    from mcp import Client

    from analytics_agent.mcp_server import build_server
    from analytics_agent.workspace.live import LiveWorkspace
    from analytics_agent.workspace.workspace import Workspace

    live = LiveWorkspace(db, idle_s=3600)
    direct = Workspace.open(db)  # same file, same sandbox config: one DuckDB instance, as in the CLI
    try:
        async with Client(build_server(live, poll_s=3600), mode=mode) as client:
            await client.call_tool("sales_summary", ARGS)
            direct.executor.execute("sales_summary", ARGS)
            wall: tuple[list[float], list[float]] = ([], [])
            cpu: tuple[list[float], list[float]] = ([], [])
            for i in range(calls):
                for side in (0, 1) if i % 2 == 0 else (1, 0):
                    c0, w0 = time.process_time(), time.perf_counter()
                    if side == 0:
                        await client.call_tool("sales_summary", ARGS)
                    else:
                        direct.executor.execute("sales_summary", ARGS)
                    wall[side].append(time.perf_counter() - w0)
                    cpu[side].append(time.process_time() - c0)
            direct.close()  # the cold call reopens: only our own connection may hold the file
            live.idle_s = 0
            live.tick()
            started = time.perf_counter()
            await client.call_tool("sales_summary", ARGS)
            cold = time.perf_counter() - started
    finally:
        live.close()
        direct.close()
    med = statistics.median
    return med(wall[0]), med(wall[1]), med(cpu[0]), med(cpu[1]), cold


def _start_up(db: Path, runs: int) -> tuple[float, float]:
    """Median seconds until a fresh stdio server has answered tools/list, and for `tools list`."""
    import anyio
    from mcp import Client, StdioServerParameters

    cli = _cli()
    params = StdioServerParameters(command=cli[0], args=[*cli[1:], "--db", str(db), "mcp"])
    listing = _runner([*cli, "--db", str(db), "tools", "list"])

    async def first_answer() -> float:
        started = time.perf_counter()
        async with Client(params, mode="legacy") as client:  # one handshake, as desktop clients do
            await client.list_tools()
            return time.perf_counter() - started

    anyio.run(first_answer)  # warm the file cache
    listing()
    server, plain = [], []
    for _ in range(runs):
        server.append(anyio.run(first_answer))
        started = time.perf_counter()
        listing()
        plain.append(time.perf_counter() - started)
    return statistics.median(server), statistics.median(plain)


if __name__ == "__main__":
    from tests.bench.common import print_table

    print_table(run(calls=int(sys.argv[1]) if len(sys.argv) > 1 else 301))
