"""2. Scale: every tool at 100k, 1M and 10M orders: time, Python allocations and process memory.

Each size runs in its own subprocess so its peak RSS (VmHWM) is its own. ``py_peak_kib`` is the tracemalloc
peak of one call: what Python allocated, i.e. the rows it materialised. It must stay flat as the table grows
(tools return aggregates, and rows results are fetched at most 51 at a time); DuckDB's own memory is outside
Python's heap and bounded by the sandbox's memory_limit (1 GB).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from typing import Any

from tests.bench.common import ROOT, Result, proc_status_kib
from tests.bench.data import database
from tests.bench.workload import domain_arguments, extra_arguments, open_all


def measure(size: str, *, runs: int) -> dict[str, Any]:
    """Run in the child: every tool once for tracemalloc, then ``runs`` timed calls."""
    path = database(size, log=lambda *_: None)
    rss_before = proc_status_kib("VmRSS")
    tools: list[dict[str, Any]] = []
    with open_all(path) as ws:
        calls = {name: [args] for name, args in domain_arguments(ws.cursor(), ws.registry).items()}
        calls.update(extra_arguments())
        for name, argument_list in calls.items():
            if ws.registry.get(name) is None:
                continue
            for args in argument_list:
                tools.append(_measure_tool(ws.executor, name, args, runs=runs))
    return {
        "size": size,
        "rss_before_kib": rss_before,
        "rss_peak_kib": proc_status_kib("VmHWM"),
        "tools": tools,
    }


def _measure_tool(executor, name: str, args: dict[str, Any], *, runs: int) -> dict[str, Any]:
    text = json.dumps(args)
    executor.execute(name, text)  # warm-up
    tracemalloc.start()
    outcome = executor.execute(name, text)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        executor.execute(name, text)
        times.append(time.perf_counter() - started)
    return {
        "tool": name,
        "ms": statistics.median(times) * 1000,
        "py_peak_kib": peak / 1024,
        "rows": outcome.rows,
        "tokens": outcome.tokens,
        "error": outcome.text if outcome.is_error else "",
    }


def run(*, sizes: list[str], runs: int = 3, log=print) -> Result:
    per_size = {}
    for size in sizes:
        database(size, log=log)  # build in this process, with progress output
        child = subprocess.run(
            [sys.executable, "-m", "tests.bench.bench_scale", size, str(runs)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if child.returncode != 0:
            raise RuntimeError(f"scale run for {size} failed:\n{child.stderr[-2000:]}")
        per_size[size] = json.loads(child.stdout.strip().splitlines()[-1])
    return _table(per_size, sizes, runs)


def _table(per_size: dict[str, Any], sizes: list[str], runs: int) -> Result:
    columns = ["tool", *(f"{s}_ms" for s in sizes), *(f"{s}_py_kib" for s in sizes), "rows"]
    result = Result(f"2. scale: time (median of {runs}) and Python peak per call", columns)
    names = [t["tool"] for t in per_size[sizes[0]]["tools"]]
    for index, name in enumerate(names):
        entries = [per_size[s]["tools"][index] for s in sizes]
        result.rows.append(
            [
                name,
                *(round(e["ms"], 1) for e in entries),
                *(round(e["py_peak_kib"], 1) for e in entries),
                entries[-1]["rows"],
            ]
        )
        for e in entries:
            if e["error"]:
                result.notes.append(f"{name}: {e['error']}")
    for s in sizes:
        data = per_size[s]
        result.summary[f"{s}: peak RSS MiB"] = round(data["rss_peak_kib"] / 1024, 1)
        result.summary[f"{s}: max Python peak per call KiB"] = round(
            max(t["py_peak_kib"] for t in data["tools"]), 1
        )
    return result


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], runs=int(sys.argv[2]))))
