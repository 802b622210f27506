"""One client's many slow calls never starve another client (issue 24: 1,000 slow calls from one client
held every other client for about 30 minutes)."""

from __future__ import annotations

import threading

import anyio
import pytest

from analytics_agent.mcp_server.gate import Busy, CallGate

pytestmark = pytest.mark.anyio


async def test_another_client_gets_a_worker_while_one_client_has_many_slow_calls_waiting():
    gate = CallGate(overall=3, per_client=2, queued_per_client=1000)
    hog, other = object(), object()
    release = threading.Event()
    started = 0

    def slow() -> str:
        nonlocal started
        started += 1
        release.wait(60)  # the safety net only; the test releases it
        return "slow"

    async with anyio.create_task_group() as tasks:
        for _ in range(200):
            tasks.start_soon(gate.run, hog, slow)
        await anyio.wait_all_tasks_blocked()
        with anyio.fail_after(30):  # a safety net for a regression, not a measurement
            answer = await gate.run(other, lambda: "fast")
        running_for_hog = started
        release.set()
    assert answer == "fast"
    assert running_for_hog <= 2  # the hog never held more than its share of workers


async def test_a_client_past_its_queue_is_told_it_is_busy_in_one_line():
    gate = CallGate(overall=2, per_client=1, queued_per_client=3)
    client = object()
    release = threading.Event()
    async with anyio.create_task_group() as tasks:
        for _ in range(3):
            tasks.start_soon(gate.run, client, lambda: release.wait(60))
        await anyio.wait_all_tasks_blocked()
        with pytest.raises(Busy) as caught:
            await gate.run(client, lambda: True)
        assert await gate.run(object(), lambda: "other client") == "other client"
        release.set()
    assert str(caught.value).startswith("busy: this client already has 3 calls") and "\n" not in str(
        caught.value
    )


async def test_a_catalog_read_is_answered_while_its_own_client_and_every_worker_are_busy():
    gate = CallGate(overall=2, per_client=1, queued_per_client=100)
    client = object()
    release = threading.Event()
    async with anyio.create_task_group() as tasks:
        for _ in range(20):
            tasks.start_soon(gate.run, client, lambda: release.wait(60))
        await anyio.wait_all_tasks_blocked()
        with anyio.fail_after(30):  # a safety net for a regression, not a measurement
            listed = await gate.run(client, lambda: "tables", quick=True)
        still_waiting = not release.is_set()
        release.set()
    assert listed == "tables" and still_waiting
