"""A cursor a Ctrl-C stopped is reused by a later call; that call's time-out must be told as a time-out (an
audit found the reason after reuse untested)."""

from __future__ import annotations

import threading

import duckdb
from slow_tools import CountsForever

from analytics_agent.tools.executor import Executor
from analytics_agent.tools.registry import Registry


class _Clock:
    """The limit's clock: ``readings`` first, then ``later`` for ever. The test moves it."""

    def __init__(self) -> None:
        self.readings: list[float] = []
        self.later = 0.0

    def __call__(self) -> float:
        return self.readings.pop(0) if self.readings else self.later


def test_a_time_out_on_a_cursor_a_ctrl_c_stopped_before_says_time_out():
    clock = _Clock()  # reads 0 for ever: only stop_running can end the first query
    conn = duckdb.connect()
    executor = Executor(Registry([CountsForever()]), conn, clock=clock)
    outcomes: list = []
    worker = threading.Thread(target=lambda: outcomes.append(executor.execute("slow", {})))
    try:
        worker.start()
        while not executor._live and worker.is_alive():  # readiness: the call holds its cursor
            worker.join(0.001)
        executor.stop_running()  # the Ctrl-C
        worker.join(600)  # a bound so a broken stop ends the test; nothing asserts on time
        assert len(executor._idle) == 1  # the stopped call's cursor waits for the next call
        stopped = executor._idle[0]
        # the next call: its guard reads -1 (deadline 14, before the 15 the watchdog still waits for
        # from the first call, so it looks at once), the watchdog's next look reads 100
        clock.readings, clock.later = [-1.0], 100.0
        timed_out = executor.execute("slow", {})
        assert executor._idle == [stopped]  # that call ran on the reused cursor
    finally:
        executor.close()
        conn.close()
    assert [o.text for o in outcomes] == ["Error: slow was stopped: the question was interrupted"]
    assert timed_out.is_error
    assert timed_out.text.startswith("Error: slow took longer than 15 s and was stopped"), timed_out.text
