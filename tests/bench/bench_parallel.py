"""6. Parallel tool calls: one turn with 4 independent slow calls, run concurrently (the loop's thread pool,
one DuckDB cursor each) vs sequentially (the same loop with its pool limited to one worker).

Two workloads, through the real loop and the real OpenAI-compatible provider over the scripted model:
* four heavy domain tools on the 1M table: CPU-bound, and each DuckDB query already uses both cores
  (the sandbox runs 2 threads per query), so on a 2-core machine concurrency cannot win much;
* four calls of a tool that waits 0.5 s on I/O (a stand-in for a remote warehouse or a slow disk): what
  concurrency buys when the time is latency, not CPU.
"""

from __future__ import annotations

import time

from tests.bench.agentkit import ToolClock, scripted_provider
from tests.bench.common import Result
from tests.bench.data import database
from tests.bench.workload import domain_arguments

TARGET = 0.4
HEAVY = ("top_products", "category_mix", "compare_periods", "repeat_customers")
WAIT_S = 0.5


def _steps(calls: dict[str, dict]):
    from analytics_agent.providers.scripted import ScriptedCall, Step

    return [Step(tool_calls=[ScriptedCall(n, a) for n, a in calls.items()]), Step(text="done")]


def _ask(registry, executor, calls: dict[str, dict], *, workers: int) -> float:
    from analytics_agent.agent import bounds
    from analytics_agent.agent.loop import Agent

    provider, script = scripted_provider(_steps(calls))
    clock = ToolClock()
    saved = bounds.MAX_PARALLEL_CALLS
    bounds.MAX_PARALLEL_CALLS = workers  # run_calls reads it per turn; 1 = sequential
    try:
        started = time.perf_counter()
        outcome = Agent(provider, registry, executor, on_event=clock).ask("four at once")
        wall = time.perf_counter() - started
    finally:
        bounds.MAX_PARALLEL_CALLS = saved
    script.assert_all_used()
    if outcome.stop != "answer" or clock.calls != len(calls) or clock.errors:
        raise RuntimeError(f"parallel benchmark run failed: {outcome.stop} {outcome.answer}")
    return wall


def _compare(label: str, registry, executor, calls, runs: int) -> list:
    _ask(registry, executor, calls, workers=8)  # warm-up
    concurrent, sequential = [], []
    for _ in range(runs):
        concurrent.append(_ask(registry, executor, calls, workers=8))
        sequential.append(_ask(registry, executor, calls, workers=1))
    c, s = sorted(concurrent)[runs // 2], sorted(sequential)[runs // 2]
    ratio = c / s
    return [
        label,
        runs,
        round(s * 1000),
        round(c * 1000),
        round(ratio, 3),
        "ok" if ratio <= TARGET else "MISSED",
    ]


def run(*, size: str = "1m", runs: int = 3, log=print) -> Result:
    from analytics_agent.tools.executor import Executor
    from analytics_agent.tools.registry import Registry
    from analytics_agent.workspace.workspace import Workspace

    result = Result(
        f"6. parallel tool calls: 4 in one turn, concurrent vs sequential (target <= {TARGET}x)",
        ["workload", "runs", "sequential_ms", "concurrent_ms", "ratio", "target"],
    )
    with Workspace.open(database(size, log=log)) as ws:
        every = domain_arguments(ws.cursor(), ws.registry)
        heavy = {name: every[name] for name in HEAVY if name in every}
        label = f"{len(heavy)} heavy SQL tools ({', '.join(heavy)}), {size} orders"
        result.rows.append(_compare(label, ws.registry, ws.executor, heavy, runs))
        calls = {f"wait_{i}": {} for i in range(4)}
        waiting = Registry([_Waiting(name) for name in calls])
        executor = Executor(waiting, ws.connection)
        result.rows.append(_compare(f"4 calls waiting {WAIT_S:g} s on I/O", waiting, executor, calls, runs))
    result.notes.append(
        "CPU-bound SQL: each query already runs on both cores (threads=2), so four at once share the same two "
        "cores; the ratio shows the thread pool adds no cost, not that 2 cores can do 4 scans in 40% of the time"
    )
    return result


class _Waiting:
    """A tool whose time is spent waiting, not computing (releases the GIL like a network call would)."""

    description = "Waits, then answers."

    def __init__(self, name: str) -> None:
        from analytics_agent.tools.args.models import ToolArguments

        self.name = name
        self.arguments = ToolArguments

    def run(self, cursor, args):
        from analytics_agent.tools.base import ToolValue

        time.sleep(WAIT_S)
        return ToolValue({"waited_s": WAIT_S})
