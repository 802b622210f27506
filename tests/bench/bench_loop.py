"""7. Loop overhead per step, no network: questions of three steps (two tool turns, then the answer).

Overhead per step = (wall time - time inside the tools) / model requests. Measured twice: with the real
``OpenAIProvider`` talking to the scripted stand-in model through httpx's MockTransport (request rendering,
JSON, response parsing, the scripted server's own work), and with an in-process provider that has no wire
format, which leaves the loop's own bookkeeping alone.
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

from tests.bench.agentkit import InProcessProvider, ToolClock, scripted_provider
from tests.bench.common import Result

TARGET_MS = 5.0
CITIES = ("Pune", "Mumbai", "Delhi", "Chennai")


def _question(i: int) -> list[tuple[tuple[str, str], ...] | str]:
    city = CITIES[i % len(CITIES)]
    day = f"2026-10-{1 + i % 28:02d}"
    first = (("sales_summary", json.dumps({"city": city, "day": day})),)
    second = (("get_order", json.dumps({"order_id": "A-1042"})),)
    return [first, second, f"Answer {i}: done."]


def _scripted_steps(turns):
    from analytics_agent.providers.scripted import ScriptedCall, Step

    steps = []
    for turn in turns:
        if isinstance(turn, str):
            steps.append(Step(text=turn))
        else:
            steps.append(Step(tool_calls=[ScriptedCall(n, json.loads(a)) for n, a in turn]))
    return steps


def _measure(label: str, provider, ws, questions: int, check) -> list:
    from analytics_agent.agent.loop import Agent

    clock = ToolClock()
    agent = Agent(provider, ws.registry, ws.executor, on_event=clock)
    steps = 0
    started = time.perf_counter()
    for i in range(questions):
        outcome = agent.ask(f"question {i}")
        steps += outcome.steps
        if outcome.stop != "answer":
            raise RuntimeError(f"{label}: question {i} stopped with {outcome.stop}: {outcome.answer}")
    wall = (time.perf_counter() - started) * 1000
    check()
    per_step = (wall - clock.tool_ms) / steps
    return [label, questions, steps, clock.calls, round(wall / questions, 2), round(clock.tool_ms / steps, 2),
            round(per_step, 3), "ok" if per_step <= TARGET_MS else "MISSED"]  # fmt: skip


def run(*, questions: int = 100, log=print) -> Result:
    from analytics_agent.db.connect import ensure_database
    from analytics_agent.workspace.workspace import Workspace

    result = Result(
        f"7. loop overhead per step (target <= {TARGET_MS:g} ms)",
        ["provider", "questions", "steps", "tool_calls", "ms_per_question", "tool_ms_per_step",
         "overhead_ms_per_step", "target"],
    )  # fmt: skip
    turns = [t for i in range(questions) for t in _question(i)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sample.duckdb"
        ensure_database(path, sample_data=True)
        with Workspace.open(path) as ws:
            for stream in (False, True):
                provider, script = scripted_provider(_scripted_steps(turns), stream=stream)
                label = f"OpenAIProvider + scripted model ({'SSE' if stream else 'JSON'})"
                result.rows.append(_measure(label, provider, ws, questions, script.assert_all_used))
            in_process = InProcessProvider(turns)
            result.rows.append(_measure("in-process provider (loop alone)", in_process, ws, questions, _none))
    return result


def _none() -> None:
    return None
