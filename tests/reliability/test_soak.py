"""A soak: hundreds of scripted questions (1,000 on demand, see QUESTIONS) in one process, through the real OpenAI-compatible provider, the loop
and the tools. Memory stays within a stated bound, and no connection, file handle or thread leaks."""

from __future__ import annotations

import gc
import json
import os

import httpx

from analytics_agent.agent.loop import Agent
from analytics_agent.providers.openai.provider import OpenAIProvider
from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step, last_tool_result
from analytics_agent.workspace.workspace import Workspace
from tests.owned_handles import Handles, opened_since

# 250 in the suite: a leaked handle or thread shows after one question, and 200 after warm-up still show a
# per-question memory leak of 80 KiB. The full soak (README: 1,000) is a measurement, run on demand:
# ANALYTICS_AGENT_SOAK_QUESTIONS=1000 pytest tests/reliability/test_soak.py
QUESTIONS = int(os.environ.get("ANALYTICS_AGENT_SOAK_QUESTIONS", "250"))
WARM_UP = min(100, QUESTIONS // 5)
RSS_GROWTH_BOUND_KIB = 16 * 1024  # after warm-up; measured: below 0 to a few MiB
CITIES = ("Pune", "Mumbai", "Delhi", "Chennai", "Kolkata")


def _rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))


def _script(i: int) -> ScriptedModel:
    city, day = CITIES[i % len(CITIES)], f"2026-10-{1 + i % 28:02d}"
    answer = lambda body: f"{city}: {last_tool_result(body, 'sales_summary')['orders']} orders."  # noqa: E731
    return ScriptedModel(
        [Step(tool_calls=[ScriptedCall("sales_summary", {"city": city, "day": day})]), Step(text=answer)]
    )


class _Rotating:
    """One transport for the whole soak, answering each question from that question's fresh script (a
    script records its requests; keeping one for 1,000 questions would be the test's own leak)."""

    def __init__(self) -> None:
        self.script = _script(0)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        status, headers, content = self.script.respond(
            request.method, request.url.path, dict(request.headers), request.read()
        )
        return httpx.Response(status, headers=headers, content=content)


def test_hundreds_of_questions_leak_no_memory_handles_or_threads(sample_db):
    before = Handles.now()
    rotating = _Rotating()
    client = httpx.Client(transport=httpx.MockTransport(rotating))
    ws = Workspace.open(sample_db)
    truth = dict(
        ((city, str(day)), n)
        for city, day, n in ws.cursor()
        .execute("SELECT city, day, count(*) FROM orders WHERE day >= DATE '2026-10-01' GROUP BY ALL")
        .fetchall()
    )
    provider = OpenAIProvider(base_url="http://soak.test/v1", model="scripted", client=client, max_retries=0)
    agent = Agent(provider, ws.registry, ws.executor)
    rss_warm = 0
    for i in range(QUESTIONS):
        if i == WARM_UP:
            gc.collect()
            rss_warm, warm = _rss_kib(), Handles.now()
        rotating.script = _script(i)
        result = agent.ask(f"question {i}")
        rotating.script.assert_all_used()
        city, day = CITIES[i % len(CITIES)], f"2026-10-{1 + i % 28:02d}"
        assert result.stop == "answer" and result.answer == f"{city}: {truth.get((city, day), 0)} orders."
    gc.collect()
    growth = _rss_kib() - rss_warm
    print(f"soak: RSS growth {growth} KiB over {QUESTIONS - WARM_UP} questions")
    assert growth < RSS_GROWTH_BOUND_KIB, f"RSS grew {growth} KiB over {QUESTIONS - WARM_UP} questions"
    assert opened_since(warm) == [], "a question left a handle or thread open"
    ws.close()
    client.close()
    assert opened_since(before) == [], "a file handle, connection or thread outlived the workspace"


def test_opening_and_closing_workspaces_leaks_no_handles(sample_db):
    Workspace.open(sample_db).close()  # first open may load extensions or caches once
    before = Handles.now()
    for _ in range(20):
        with Workspace.open(sample_db) as ws:
            assert json.loads(ws.executor.execute("list_tables", {}).text)["row_count"] == 4
    assert opened_since(before) == []
