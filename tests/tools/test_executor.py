"""execute(name, arguments) never raises, and every failure tells the model what to fix."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slow_tools import CountsForever

from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.executor import DEFAULT_TIMEOUT_S, Executor
from analytics_agent.tools.registry import Registry

PUNE = {"city": "Pune", "day": "2026-10-24"}


def test_the_reference_day_is_answered_exactly(workspace):
    outcome = workspace.executor.execute("sales_summary", PUNE)
    assert not outcome.is_error
    assert json.loads(outcome.text) == {
        "city": "Pune",
        "day": "2026-10-24",
        "orders": 3,
        "by_status": {"cancelled": 1, "delivered": 1, "in_transit": 1},
        "revenue": 4798,
    }
    assert outcome.rows == 1 and "FROM orders" in outcome.sql and outcome.duration_ms > 0


def test_arguments_as_json_text_or_object_give_the_same_answer(workspace):
    as_text = workspace.executor.execute("sales_summary", json.dumps(PUNE))
    as_object = workspace.executor.execute("sales_summary", PUNE)
    assert as_text.text == as_object.text


def test_an_unknown_tool_lists_the_real_ones(workspace):
    outcome = workspace.executor.execute("get_customer", {})
    assert outcome.is_error
    assert "unknown tool 'get_customer'" in outcome.text
    for name in workspace.registry.names:
        assert name in outcome.text


def test_an_unknown_order_is_an_error_result(workspace):
    outcome = workspace.executor.execute("get_order", {"order_id": "A-9999"})
    assert outcome.is_error and outcome.text == "Error: no order with id A-9999"


def test_bad_arguments_name_each_field(workspace):
    outcome = workspace.executor.execute(
        "sales_summary", {"city": "Pune", "day": "24 Oct 2026", "include_items": True}
    )
    assert outcome.is_error
    assert outcome.text.splitlines() == [
        "Error: day: Input should be a valid date in YYYY-MM-DD format",
        "include_items: Extra inputs are not permitted",
    ]


@pytest.mark.parametrize(
    "value",
    [
        "Pune' OR '1'='1",
        "Pune'; DROP TABLE orders; --",
        'Pune" OR 1=1 --',
        "'; COPY orders TO '/tmp/x.csv'; --",
    ],
)
def test_injection_in_string_arguments_matches_nothing_and_changes_nothing(workspace, value):
    cursor = workspace.cursor()
    before = cursor.execute("SELECT count(*), sum(amount) FROM orders").fetchone()
    by_enum = workspace.executor.execute("sales_summary", {"city": value, "day": "2026-10-24"})
    by_pattern = workspace.executor.execute("get_order", {"order_id": value})
    assert by_enum.is_error and by_enum.text.startswith("Error: city: Input should be one of")
    assert by_pattern.is_error and by_pattern.text.startswith("Error: order_id: String should match pattern")
    assert cursor.execute("SELECT count(*), sum(amount) FROM orders").fetchone() == before


class _Args(ToolArguments):
    pass


class _Boom(Tool):
    name = "boom"
    description = "Raises a bug."
    arguments = _Args

    def run(self, cursor, args):
        raise RuntimeError("internal detail that must stay in the log")


class _One(Tool):
    name = "one"
    description = "Answers at once."
    arguments = _Args

    def run(self, cursor, args):
        return ToolValue({"n": cursor.execute("SELECT 1").fetchone()[0]})


_Slow = CountsForever


@pytest.fixture
def memory_executor():
    conn = duckdb.connect()
    executor = Executor(Registry([_Boom(), _Slow()]), conn, timeout_s=0.3)
    yield executor
    executor.close()
    conn.close()


def test_a_bug_in_a_tool_becomes_one_sentence_and_the_trace_goes_to_the_log(memory_executor, caplog):
    caplog.set_level(logging.INFO)  # what -v shows
    outcome = memory_executor.execute("boom", {})
    assert (
        outcome.is_error
        and outcome.text == "Error: boom failed unexpectedly; try different arguments or another tool"
    )
    assert "internal detail" not in outcome.text
    assert any("internal detail" in (r.exc_text or "") or r.exc_info for r in caplog.records)


def test_a_query_over_the_time_limit_is_interrupted_and_explained(memory_executor):
    outcome = memory_executor.execute("slow", {})  # counts to 10^11 unless the watchdog stops it
    assert outcome.is_error and "took longer than 0.3 s" in outcome.text


def test_the_default_limit_is_15_s_and_stops_a_query_at_15_s_of_its_clock():
    """The default limit without waiting for it: the limit's clock reads 0 when the query starts and 15 s
    on the watchdog's first look, so only a limit of at most 15 s stops the query."""
    readings = iter([0.0])
    conn = duckdb.connect()
    executor = Executor(Registry([_Slow()]), conn, clock=lambda: next(readings, 15.0))
    try:
        assert executor.timeout_s == DEFAULT_TIMEOUT_S == 15.0
        outcome = executor.execute("slow", {})
    finally:
        executor.close()
        conn.close()
    assert outcome.is_error and "slow took longer than 15 s and was stopped" in outcome.text


def test_an_opened_workspace_runs_its_tools_under_the_default_limit(workspace):
    assert workspace.executor.timeout_s == 15.0


raw_payloads = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=50).map(lambda b: b.decode("latin-1")),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c, max_size=4),
        max_leaves=20,
    ).map(json.dumps),
    st.dictionaries(
        st.sampled_from(["city", "day", "order_id", "x"]),
        st.none() | st.integers() | st.text(max_size=300) | st.lists(st.integers(), max_size=3),
    ),
)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(["sales_summary", "get_order", "describe_table", "nope", ""]), raw=raw_payloads)
def test_the_executor_never_raises_whatever_the_model_sends(seeded_template, name, raw):
    from analytics_agent.workspace.workspace import Workspace

    ws = _shared_workspace(seeded_template)
    outcome = ws.executor.execute(name, raw)
    assert isinstance(outcome.text, str) and outcome.text
    if outcome.is_error:
        assert outcome.text.startswith("Error: ")
    del Workspace


_WS = {}


def _shared_workspace(path):
    from analytics_agent.workspace.workspace import Workspace

    if path not in _WS:
        _WS[path] = Workspace.open(path)
    return _WS[path]


def test_the_outcome_carries_the_sql_and_the_values_bound_to_it(workspace):
    outcome = workspace.executor.execute(
        "revenue_trend", {"period": "2026-01-01..2026-03-31", "grain": "week"}
    )
    assert "$period_start" in outcome.sql
    assert outcome.params == {"period_start": "2026-01-01", "period_end": "2026-03-31", "grain": "week"}
    assert all(f"${name}" in outcome.sql for name in outcome.params)  # every value has its place


def test_aggregate_reports_the_values_bound_to_its_filters(workspace):
    args = {
        "table": "orders",
        "metrics": [{"fn": "count"}],
        "filters": [{"column": "city", "op": "=", "value": "Pune"}],
    }
    outcome = workspace.executor.execute("aggregate", args)
    assert not outcome.is_error, outcome.text
    assert list(outcome.params.values()) == ["Pune"]
    assert all(f"${name}" in outcome.sql for name in outcome.params)


_BOOM_SCRIPT = """
import sys
import duckdb
sys.path[:0] = [sys.argv[1], sys.argv[2]]  # test_executor, and the shared test helpers it imports
from test_executor import _Boom
from analytics_agent.tools.executor import Executor
from analytics_agent.tools.registry import Registry
print(Executor(Registry([_Boom()]), duckdb.connect()).execute("boom", {}).text)
"""


def test_a_bug_in_a_tool_prints_no_traceback_in_a_real_process():
    """Before: with no logging set up, Python's last-resort handler printed the traceback on stderr."""
    here = str(Path(__file__).parent)
    result = subprocess.run(
        [sys.executable, "-c", _BOOM_SCRIPT, here, str(Path(here).parent)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.stdout == "Error: boom failed unexpectedly; try different arguments or another tool\n"
    assert result.stderr == ""


def test_stop_running_interrupts_a_running_call_at_once_and_says_why():
    """After a Ctrl-C in a chat the dropped question's queries must not run on to their time limit beside
    the next question's. The limit's clock never moves here, so only stop_running can end the query."""
    conn = duckdb.connect()
    executor = Executor(Registry([_Slow()]), conn, clock=lambda: 0.0)
    outcomes: list = []
    worker = threading.Thread(target=lambda: outcomes.append(executor.execute("slow", {})))
    try:
        worker.start()
        while not executor._live and worker.is_alive():  # readiness: the call holds its cursor
            worker.join(0.001)
        executor.stop_running()
        assert not executor._live  # it returned only once the call had ended
        worker.join(600)  # a bound so a broken stop ends the test; nothing asserts on time
    finally:
        executor.close()
        conn.close()
    assert len(outcomes) == 1 and outcomes[0].is_error
    assert outcomes[0].text == "Error: slow was stopped: the question was interrupted"


class _CountsOnceLetThrough(CountsForever):
    """Its worker has begun the call (checking the arguments) but holds no cursor until ``gate`` opens."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate

    def prepare(self, data):
        self.gate.wait(600)  # a bound so a broken test ends; nothing asserts on it
        return super().prepare(data)


def test_a_call_begun_but_not_yet_querying_when_stopped_never_starts_its_query():
    """Ctrl-C can land after a call's worker began but before its query holds a cursor: stop_running
    cannot interrupt that query yet, so while it waits for the caller's calls to end no query starts."""
    gate = threading.Event()
    conn = duckdb.connect()
    executor = Executor(Registry([_CountsOnceLetThrough(gate), _One()]), conn, clock=lambda: 0.0)
    outcomes: list = []
    worker = threading.Thread(target=lambda: outcomes.append(executor.execute("slow", {})))
    stopper = threading.Thread(target=lambda: executor.stop_running(until=lambda: bool(outcomes)))
    try:
        worker.start()
        stopper.start()
        while not executor._stopping and stopper.is_alive():  # readiness: the stop has begun
            stopper.join(0.001)
        gate.set()
        stopper.join(600)
        worker.join(600)
        after = executor.execute("one", {})  # the next question's calls run again
    finally:
        gate.set()
        executor.close()
        conn.close()
    assert [o.text for o in outcomes] == ["Error: the question was interrupted; the call was not run"]
    assert after.text == '{"n":1}'
