"""1. Tool overhead: each domain tool through the executor vs the same SQL straight on DuckDB.

Both sides use the same sandboxed connection, the same SQL text and the same bound parameters; the direct
side fetches every row (``fetchall``), the tool side validates, runs with its time limit, shapes and
serialises. Runs alternate between the two so background load hits both alike; medians are compared, of
wall time and of process CPU time (which other processes on a shared machine disturb far less).
"""

from __future__ import annotations

import json
import time

from tests.bench.common import Result, fmt_ms, interleaved
from tests.bench.data import database
from tests.bench.workload import domain_arguments

TARGET = 1.10
BUDGET_S = 8.0  # per tool; slow tools get fewer runs, never fewer than min_runs


def run(*, size: str = "10m", max_runs: int = 51, min_runs: int = 3, log=print) -> Result:
    from analytics_agent.workspace.workspace import Workspace

    path = database(size, log=log)
    result = Result(
        f"1. tool overhead on {size} orders (target <= {TARGET:.2f}x)",
        ["tool", "runs", "direct_ms", "tool_ms", "extra_ms", "ratio", "cpu_ratio", "rows", "target"],
    )
    with Workspace.open(path) as ws:
        calls = domain_arguments(ws.cursor(), ws.registry)
        cursor = ws.cursor()
        ratios, cpu_ratios = [], []
        for tool in ws.registry:
            spec = getattr(tool, "spec", None)
            if spec is None:
                continue
            if tool.name not in calls:
                result.notes.append(f"{tool.name}: a parameter workload.py has no value for; skipped")
                continue
            arguments = json.dumps(calls[tool.name])
            params = _bind(spec, tool.arguments.model_validate(calls[tool.name]).model_dump())

            def direct(sql=spec.sql, params=params):
                return cursor.execute(sql, params).fetchall()

            def through_tool(name=tool.name, arguments=arguments):
                return ws.executor.execute(name, arguments)

            outcome = through_tool()  # also the warm-up of both sides
            started = time.perf_counter()
            rows = len(direct())
            single = time.perf_counter() - started
            if outcome.is_error:
                result.notes.append(f"{tool.name}: {outcome.text}")
                continue
            runs = max(min_runs, min(max_runs, int(BUDGET_S / (2 * max(single, 1e-4)))))
            pair = interleaved(direct, through_tool, runs=runs)
            ratio, cpu_ratio = pair.second_wall / pair.first_wall, pair.second_cpu / max(pair.first_cpu, 1e-9)
            ratios.append(ratio)
            cpu_ratios.append(cpu_ratio)
            result.rows.append(
                [
                    tool.name,
                    runs,
                    fmt_ms(pair.first_wall),
                    fmt_ms(pair.second_wall),
                    fmt_ms(pair.second_wall - pair.first_wall),
                    round(ratio, 3),
                    round(cpu_ratio, 3),
                    rows,
                    "ok" if min(ratio, cpu_ratio) <= TARGET else "MISSED",
                ]
            )
        cursor.close()
    if ratios:
        result.summary["median ratio (wall)"] = round(sorted(ratios)[len(ratios) // 2], 3)
        result.summary["worst ratio (wall)"] = round(max(ratios), 3)
        result.summary["worst ratio (cpu)"] = round(max(cpu_ratios), 3)
    result.notes.append(
        "target column: ok when the wall or the CPU ratio is within target (wall alone swings with other "
        "processes on a shared machine; extra_ms is the tool's added wall time, negative = noise)"
    )
    return result


def _bind(spec, values: dict) -> dict:
    """The SQL's own ``$names`` for validated arguments (a period becomes its first and last day)."""
    try:
        from analytics_agent.tools.sqlfile.tool import bind_parameters
    except ImportError:  # older tools: arguments are the SQL parameters as they are
        return values
    return bind_parameters(spec, values)
