"""One watchdog thread stops overdue blocks and leaves finished ones alone."""

from __future__ import annotations

import threading
import time

from analytics_agent.tools.watchdog import Watchdog


def test_an_overdue_block_gets_its_expiry_called_once():
    fired = threading.Event()
    calls = []
    watchdog = Watchdog()
    with watchdog.guard(0.05, lambda: (calls.append(1), fired.set())):
        assert fired.wait(2)
    assert calls == [1]


def test_a_block_that_finishes_in_time_is_never_interrupted():
    calls = []
    watchdog = Watchdog()
    for _ in range(50):
        with watchdog.guard(0.2, lambda: calls.append(1)):
            pass
    time.sleep(0.4)
    assert calls == []


def test_deadlines_are_independent_and_one_thread_serves_them_all():
    watchdog = Watchdog()
    order: list[str] = []
    done = threading.Event()
    threads_before = threading.active_count()

    def slow(name: str, seconds: float) -> None:
        with watchdog.guard(seconds, lambda: order.append(name)):
            done.wait(2)

    workers = [threading.Thread(target=slow, args=(n, s)) for n, s in (("late", 0.3), ("early", 0.05))]
    for w in workers:
        w.start()
    time.sleep(0.6)
    assert order == ["early", "late"]
    assert threading.active_count() == threads_before + len(workers) + 1  # one watchdog thread
    done.set()
    for w in workers:
        w.join()


def test_stop_ends_the_thread_and_a_later_guard_starts_it_again():
    watchdog = Watchdog()
    threads_before = threading.active_count()
    with watchdog.guard(5, lambda: None):
        assert threading.active_count() == threads_before + 1
    watchdog.stop()
    assert threading.active_count() == threads_before
    fired = threading.Event()
    with watchdog.guard(0.01, fired.set):
        assert fired.wait(2)
    watchdog.stop()
