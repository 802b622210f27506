"""One client's many slow calls never starve another client (issue 24: 1,000 slow calls from one client
held every other client for about 30 minutes)."""

from __future__ import annotations

import threading

import anyio
import pytest

from analytics_agent.mcp_server.gate import QUICK_WORKERS, Busy, CallGate

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


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_signed_in_user_past_their_rate_is_told_when_to_call_again_and_others_are_not():
    from analytics_agent.mcp_server.gate import RateLimited

    clock = FakeClock()
    gate = CallGate(rate=2.0, burst=3, clock=clock)
    alice, bob = ("user", "alice"), ("user", "bob")
    for _ in range(3):
        assert await gate.run(alice, lambda: "ok") == "ok"
    with pytest.raises(RateLimited) as caught:
        await gate.run(alice, lambda: "too soon")
    assert str(caught.value) == (
        "rate limit: user alice may make 2 calls a second (3 at once); call again in 0.5 s"
    )
    assert await gate.run(bob, lambda: "bob's own bucket") == "bob's own bucket"
    clock.now += 0.5  # one token back at 2 a second
    assert await gate.run(alice, lambda: "again") == "again"
    with pytest.raises(RateLimited):
        await gate.run(alice, lambda: "too soon")
    for _ in range(100):  # no rate for a process without sign-in: its sessions cost nothing to open
        await gate.run(("session", "s1"), lambda: None)


def test_fairness_counts_a_signed_in_user_once_whatever_session_they_use():
    from types import SimpleNamespace

    from analytics_agent.mcp_server.gate import who
    from analytics_agent.team.principal import LOCAL, Principal

    def ctx(session_id: str) -> SimpleNamespace:
        return SimpleNamespace(request=SimpleNamespace(headers={"mcp-session-id": session_id}))

    alice = Principal("alice", client="cursor")
    assert who(alice, ctx("a")) == who(alice, ctx("b")) == ("user", "alice")
    assert who(Principal("bob"), ctx("a")) != who(alice, ctx("a"))
    assert who(LOCAL, ctx("a")) == ("session", "a") != who(LOCAL, ctx("b"))


async def test_a_user_s_calls_across_sessions_share_one_share_of_the_workers():
    gate = CallGate(overall=4, per_client=1, queued_per_client=100, burst=1000)
    release = threading.Event()
    started = 0

    def slow() -> None:
        nonlocal started
        started += 1
        release.wait(60)

    async with anyio.create_task_group() as tasks:
        for _ in range(5):  # five sessions of one user: one key
            tasks.start_soon(gate.run, ("user", "alice"), slow)
        await anyio.wait_all_tasks_blocked()
        running_for_alice = started
        release.set()
    assert running_for_alice == 1


async def test_stopping_finishes_the_calls_running_and_turns_new_ones_away():
    from analytics_agent.mcp_server.gate import ShuttingDown

    gate = CallGate(overall=2)
    inside, release = threading.Event(), threading.Event()
    answers: list[str] = []

    def running() -> str:
        inside.set()
        release.wait(60)
        return "finished"

    async def call() -> None:
        answers.append(await gate.run("client", running))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(call)
        await anyio.to_thread.run_sync(inside.wait, 60)
        gate.close()
        with pytest.raises(ShuttingDown, match=r"^the server is shutting down"):
            await gate.run("other", lambda: "new")
        drained = anyio.Event()

        async def drain() -> None:
            await gate.drained()
            drained.set()

        tasks.start_soon(drain)
        await anyio.wait_all_tasks_blocked()
        assert not drained.is_set() and gate.running == 1  # waits for the running call
        release.set()
        with anyio.fail_after(30):  # a safety net, not a measurement
            await drained.wait()
    assert answers == ["finished"]


def test_the_pool_is_sized_to_the_machine_s_cores():
    import os

    from analytics_agent.mcp_server.gate import OVERALL

    assert max(2, len(os.sched_getaffinity(0))) == OVERALL


async def test_a_call_that_waits_too_long_for_a_worker_is_refused_unrun_and_the_worker_is_not_lost():
    gate = CallGate(overall=1, per_client=1, wait_s=0.05)
    release = threading.Event()
    ran: list[str] = []
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(gate.run, "hog", lambda: release.wait(60))
        await anyio.wait_all_tasks_blocked()
        with pytest.raises(Busy) as caught:
            await gate.run("other", lambda: ran.append("waited"))
        release.set()
    assert str(caught.value) == (
        "busy: this client's call waited 0.05 s for a free worker and was not run; call again later"
    )
    assert ran == [] and gate.running == 0
    with anyio.fail_after(30):  # a safety net: a leaked worker or turn would hang here
        assert await gate.run("other", lambda: "next") == "next"


async def test_one_clients_slow_catalog_reads_never_hold_another_clients_list_tables():
    """Issue 38 round three, a second pass at class 7: catalog reads take no turn and had two workers of
    their own, first come first served, so 64 slow ``describe_table`` calls from one client (an endless
    view stops only at the 15 s limit) held both workers and queued ahead of every other client's
    ``list_tables``: 64 x 15 s / 2, eight minutes. A client now holds all catalog workers but one."""
    gate = CallGate(overall=8, per_client=4, queued_per_client=64)
    hog, other = object(), object()
    release = threading.Event()
    started = 0

    def slow_describe() -> str:
        nonlocal started
        started += 1
        release.wait(60)  # the safety net only; the test releases it
        return "profile"

    async with anyio.create_task_group() as tasks:
        for _ in range(60):
            tasks.start_soon(lambda: gate.run(hog, slow_describe, quick=True))
        await anyio.wait_all_tasks_blocked()
        with anyio.fail_after(30):  # a safety net for a regression, not a measurement
            listed = await gate.run(other, lambda: "tables", quick=True)
        hog_running = started
        release.set()
    assert listed == "tables"
    assert hog_running == QUICK_WORKERS - 1  # the hog never held every catalog worker
