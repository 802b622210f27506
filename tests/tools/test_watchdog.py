"""One watchdog thread stops overdue blocks and leaves finished ones alone."""

from __future__ import annotations

import contextlib
import threading

from analytics_agent.tools.watchdog import Watchdog
from tests.owned_handles import Handles, opened_since


def test_an_overdue_block_gets_its_expiry_called_until_it_ends_and_never_after():
    """An interrupt that lands before the block's query has started is lost (DuckDB clears it when a query
    begins), so an overdue block is interrupted again until it ends."""
    calls: list[int] = []
    twice = threading.Event()

    def expire() -> None:
        calls.append(1)
        if len(calls) >= 2:
            twice.set()

    watchdog = Watchdog()
    with watchdog.guard(0.05, expire):
        assert twice.wait(60)
    ended_at = len(calls)
    _one_pass(watchdog)
    assert len(calls) == ended_at
    watchdog.stop()


class _Clock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _one_pass(watchdog: Watchdog) -> None:
    """Wait until the watchdog has looked at every deadline at the clock's current time: a block due now
    wakes it, and it checks the deadlines in the order they were set, so all older ones were seen first."""
    seen = threading.Event()
    with watchdog.guard(0, seen.set):
        assert seen.wait(60), "the watchdog thread never ran"


def test_a_block_that_finishes_in_time_is_never_interrupted():
    clock = _Clock()
    calls = []
    watchdog = Watchdog(clock)
    for _ in range(50):
        with watchdog.guard(0.2, lambda: calls.append(1)):
            pass
    clock.now = 100.0  # far past every one of those deadlines
    _one_pass(watchdog)
    assert calls == []
    watchdog.stop()


def test_deadlines_are_independent_and_one_thread_serves_them_all():
    clock = _Clock()
    watchdog = Watchdog(clock)
    order: list[str] = []
    before = Handles.now()
    with contextlib.ExitStack() as blocks:
        blocks.enter_context(watchdog.guard(0.3, lambda: order.append("late")))
        blocks.enter_context(watchdog.guard(0.05, lambda: order.append("early")))
        assert opened_since(before) == ["thread query-watchdog"]  # one watchdog thread for both
        clock.now = 0.1
        _one_pass(watchdog)
        assert set(order) == {"early"}  # called again while overdue, never the one not yet due
        clock.now = 0.4
        _one_pass(watchdog)
        assert list(dict.fromkeys(order)) == ["early", "late"]
    watchdog.stop()


def test_stop_ends_the_thread_and_a_later_guard_starts_it_again():
    watchdog = Watchdog()
    before = Handles.now()
    with watchdog.guard(5, lambda: None):
        assert opened_since(before) == ["thread query-watchdog"]
    watchdog.stop()
    assert opened_since(before) == []
    fired = threading.Event()
    with watchdog.guard(0.01, fired.set):
        assert fired.wait(60)
    watchdog.stop()


class _CountingCondition(threading.Condition):
    def __init__(self) -> None:
        super().__init__()
        self.notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def test_a_guard_due_after_the_threads_next_look_does_not_wake_it():
    """Waking the thread on every call cost a thread switch per query; only an earlier deadline needs it."""
    clock = _Clock()
    watchdog = Watchdog(clock)
    watchdog._wake = wake = _CountingCondition()
    fired: list[int] = []
    with watchdog.guard(15, lambda: fired.append(1)):
        _one_pass(watchdog)  # the thread has seen the 15 s deadline: it looks next at 15 at the latest
        before = wake.notified
        for _ in range(100):
            with watchdog.guard(15, lambda: fired.append(2)):
                pass
        assert wake.notified == before
        clock.now = 1.0
        _one_pass(watchdog)  # an earlier deadline is still seen
    assert fired == []
    watchdog.stop()
