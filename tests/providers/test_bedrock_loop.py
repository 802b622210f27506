"""The agent loop driven by a scripted Bedrock endpoint, on the real sample database.

The reference question: "How did Pune do on 24 Oct, and what happened to order A-1042?". The endpoint
throttles first, replies with signed reasoning, uses Kimi-style ids (``functions.get_order:1``), sends a
bad date the tools reject, repairs it, then answers. Expected numbers are read from DuckDB by the test's
own SQL, not copied from the tools' output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import duckdb
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from bedrock_fake import FAKE_ENV, SECRETS, Failure, FakeBedrock, reasoning, reply, text, tool_use

from analytics_agent.agent.loop import Agent
from analytics_agent.providers.bedrock.provider import BedrockProvider

MODEL = "moonshot.kimi-k2-thinking"
QUESTION = "How did Pune do on 24 Oct, and what happened to order A-1042?"
PLAN = reasoning("I need Pune's day summary and order A-1042.", "c2lnbmVkLXBsYW4=")


@pytest.fixture(autouse=True)
def fake_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in FAKE_ENV.items():
        monkeypatch.setenv(key, value)
    from botocore.retries import standard

    monkeypatch.setattr(standard.ExponentialBackoff, "delay_amount", lambda self, context: 0)


def truth(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """The facts the answer must carry, straight from the database by the test's own SQL."""
    with con:
        orders, revenue = con.execute(
            "SELECT count(*), sum(amount) FILTER (WHERE status NOT IN ('cancelled', 'returned')) "
            "FROM orders WHERE city = 'Pune' AND day = DATE '2026-10-24'"
        ).fetchone()
        status, day = con.execute("SELECT status, day FROM orders WHERE order_id = 'A-1042'").fetchone()
    return {"orders": orders, "revenue": revenue, "status": status, "day": str(day)}


def script(facts: dict[str, Any]) -> list[Any]:
    answer = (
        f"Pune on 2026-10-24: {facts['orders']} orders, revenue {facts['revenue']}. "
        f"Order A-1042 was {facts['status']} on {facts['day']}."
    )
    return [
        Failure(429, "ThrottlingException", "Too many requests, please wait before trying again."),
        reply(
            PLAN,
            text("Let me look both up."),
            tool_use("functions.sales_summary:0", "sales_summary", city="Pune", day="24 Oct"),
            tool_use("functions.get_order:1", "get_order", order_id="A-1042"),
            stop="tool_use",
        ),
        reply(
            reasoning("The date must be YYYY-MM-DD.", "c2lnbmVkLWZpeA=="),
            tool_use("functions.sales_summary:2", "sales_summary", city="Pune", day="2026-10-24"),
            stop="tool_use",
        ),
        reply(text(answer)),
    ]


@pytest.mark.parametrize("stream", [False, True], ids=["converse", "converse-stream"])
def test_the_reference_question_is_answered_with_real_numbers(workspace, stream):
    facts = truth(workspace.cursor())
    assert (facts["orders"], facts["revenue"], facts["status"], facts["day"]) == (
        3,
        4798,
        "delivered",
        "2026-10-18",
    )
    fake = FakeBedrock(script(facts))
    provider = BedrockProvider(model=MODEL, region="us-east-1", stream=stream)
    fake.attach(provider.client)
    streamed: list[str] = []
    agent = Agent(
        provider,
        workspace.registry,
        workspace.executor,
        system="Answer with numbers.",
        on_text=streamed.append,
    )

    result = agent.ask(QUESTION)

    assert result.stop == "answer"
    assert "3 orders, revenue 4798" in result.answer and "delivered on 2026-10-18" in result.answer
    assert fake.attempts == 4 and len(fake.requests) == 4  # one throttled attempt, retried by botocore
    assert fake.script == []
    assert ("".join(streamed) == "Let me look both up." + result.answer) if stream else streamed == []

    # The bad date came back as an error the model could act on; the order lookup worked.
    step_two = fake.requests[2]["messages"]
    results = {b["toolResult"]["toolUseId"]: b["toolResult"] for b in step_two[2]["content"]}
    assert results["functions.sales_summary:0"]["status"] == "error"
    assert "day" in results["functions.sales_summary:0"]["content"][0]["text"]
    order = results["functions.get_order:1"]["content"][0]["json"]
    assert (order["status"], order["day"]) == ("delivered", "2026-10-18")
    # The signed reasoning went back unmodified, first in its assistant message.
    assert step_two[1]["content"][0] == PLAN
    # The repaired call found the numbers the database holds.
    final = fake.requests[3]["messages"]
    summary = final[-1]["content"][0]["toolResult"]
    assert summary["toolUseId"] == "functions.sales_summary:2" and summary["status"] == "success"
    assert (summary["content"][0]["json"]["orders"], summary["content"][0]["json"]["revenue"]) == (3, 4798)
    assert not any(s in json.dumps(fake.requests) for s in SECRETS)


def test_a_model_that_keeps_calling_tools_is_stopped_by_the_step_limit(workspace):
    looping = [
        reply(tool_use(f"tooluse_{n}", "get_order", order_id=f"A-{1000 + n}"), stop="tool_use")
        for n in range(3)
    ]
    fake = FakeBedrock(looping)
    provider = BedrockProvider(model=MODEL, region="us-east-1")
    fake.attach(provider.client)
    result = Agent(provider, workspace.registry, workspace.executor, max_steps=3).ask("Tell me about orders")
    assert result.stop == "step_limit"
    assert len(fake.requests) == 3 and fake.script == []
    assert "3 steps" in result.answer


def test_the_agent_loop_on_the_stubber_sends_only_valid_requests(workspace, monkeypatch):
    import copy

    import boto3
    from bedrock_rules import check_request
    from botocore.stub import Stubber

    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    sent: list[dict[str, Any]] = []

    def record(params: dict[str, Any], **_: Any) -> None:
        check_request(params)
        sent.append(copy.deepcopy(params))

    client.meta.events.register("before-parameter-build.bedrock-runtime.Converse", record)
    facts = truth(workspace.cursor())
    steps = [s for s in script(facts) if not isinstance(s, Failure)]  # the Stubber skips the HTTP layer
    with Stubber(client) as stubber:
        for step in steps:
            stubber.add_response("converse", step)
        provider = BedrockProvider(model=MODEL, client=client)
        result = Agent(provider, workspace.registry, workspace.executor).ask(QUESTION)
        stubber.assert_no_pending_responses()
    assert result.stop == "answer" and "revenue 4798" in result.answer
    assert [r.is_error for r in result.tool_calls] == [True, False, False]
    assert len(sent) == 3 and sent[1]["messages"][1]["content"][0] == PLAN
