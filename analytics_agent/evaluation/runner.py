"""Run cases through the real loop: the same workspace, provider and agent assembly as ``ask``.

Each (case, model, repeat) is one job. Jobs may run concurrently (``jobs`` threads): the executor gives
every tool call its own DuckDB cursor and providers keep no per-question state, so one provider per model
is shared. A job that fails (the endpoint errors mid-run, a limit stops the question) fails alone, with
the reason; the run goes on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

import duckdb

from analytics_agent.agent.bounds import INTERRUPT_POLL_S
from analytics_agent.agent.events import AgentResult
from analytics_agent.config import Settings
from analytics_agent.errors import AnalyticsAgentError, EvalFileError, ToolError
from analytics_agent.evaluation.cases import Case, Value
from analytics_agent.evaluation.scoring import expected_values, judge
from analytics_agent.present.trace import NO_TOOL_CAVEAT, answer_caveat
from analytics_agent.providers.base import Provider
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.results.fetch import fetch_rows
from analytics_agent.tools.results.shaping import Rows
from analytics_agent.tools.run_sql import RunSqlArguments, check_select
from analytics_agent.workspace.session import build
from analytics_agent.workspace.workspace import Workspace

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Contender:
    """A model under evaluation: its settings and the provider that reaches it."""

    settings: Settings
    provider: Provider

    @property
    def label(self) -> str:
        return self.settings.model or "?"


@dataclass(frozen=True)
class Prepared:
    """A case with its expected values computed (its SQL run once, before any model is asked)."""

    case: Case
    expected: list[Value]


@dataclass(frozen=True)
class Outcome:
    """One question answered by one model once."""

    id: str
    model: str
    passed: bool
    grounded: bool
    answer: str
    expected: list[Value]
    reason: str
    steps: int = 0
    tool_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    repeat: int = 1

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of one result (``repeat`` is left out: results are listed in repeat order)."""
        return {
            "id": self.id,
            "model": self.model,
            "passed": self.passed,
            "grounded": self.grounded,
            "answer": self.answer,
            "expected": list(self.expected),
            "reason": self.reason,
            "steps": self.steps,
            "tool_calls": self.tool_calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "latency_s": round(self.latency_s, 3),
        }


OnDone = Callable[[Outcome], None]


def prepare(
    workspace: Workspace, cases: Sequence[Case], *, where: Callable[[Case], str] = lambda case: ""
) -> list[Prepared]:
    """Run every case's SQL on the sandboxed database, held to ``run_sql``'s rules: one SELECT that
    passes its parse-tree check (no file readers, no remote queries, no source outside its tables), under
    the tool time limit, fetched bounded (a question file may come from anyone).

    Raises:
        EvalFileError: a case's SQL is refused, fails, runs too long or returns more than an answer
            can state (naming where it is, ``where(case)`` as ``file:line``, the case and the reason).
    """
    prepared = []
    for case in cases:
        rows: list[tuple[Any, ...]] = []
        if case.sql:
            try:
                rows = reference_rows(workspace, case.sql)
            except ToolError as exc:
                place = where(case)
                raise EvalFileError(
                    f"{place + ': ' if place else ''}case {case.id!r}: its sql failed: {exc}"
                ) from None
        prepared.append(Prepared(case, expected_values(case, rows)))
    return prepared


MAX_JOBS = 32
"""Questions asked at once: each holds a thread, a DuckDB cursor and an open request; 5,000 exhausted the
machine before the first answer."""
MAX_REFERENCE_ROWS = 200
"""More values than any answer states; a reference SQL returning more is a mistake (or an attack)."""


class _ReferenceSql(Tool):
    name = "the reference sql"
    description = "A question file's sql, run like run_sql."
    arguments = RunSqlArguments

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        query = check_select(cursor, args.query)  # type: ignore[attr-defined]
        return ToolValue(fetch_rows(cursor, query, max_rows=MAX_REFERENCE_ROWS), sql=query)


def reference_rows(workspace: Workspace, sql: str) -> list[tuple[Any, ...]]:
    """Every row of a case's SQL, run as ``run_sql`` runs a model's; ToolError when it is refused,
    fails, or returns more rows or longer values than an answer can state (never a cut result)."""
    value = workspace.executor.run_value(_ReferenceSql(), {"query": sql})
    rows = value.value
    assert isinstance(rows, Rows)
    if (rows.total is not None and rows.total > MAX_REFERENCE_ROWS) or len(rows.rows) > MAX_REFERENCE_ROWS:
        raise ToolError(
            f"it returns more than {MAX_REFERENCE_ROWS} rows; a reference result holds the values a right "
            "answer states (aggregate it)"
        )
    if any(_was_cut(v) for row in rows.rows for v in row):
        raise ToolError("it returns a value too long to check; a reference result holds short values")
    return rows.rows


def _was_cut(value: Any) -> bool:
    """Did the bounded fetch shorten this value (its marks: "…[truncated: …]", a last "… N more")?"""
    if isinstance(value, str):
        return "…[truncated: " in value
    if isinstance(value, list) and value:
        last = value[-1]
        return isinstance(last, str) and last.startswith("… ") and last.endswith(" more")
    return False


def run_all(
    workspace: Workspace,
    prepared: Sequence[Prepared],
    contenders: Sequence[Contender],
    *,
    repeat: int = 1,
    jobs: int = 1,
    on_done: OnDone | None = None,
) -> list[Outcome]:
    """Every case for every model, ``repeat`` times; results in case, model, repeat order.

    Ctrl-C cancels the questions not started and goes on at once; the ones already with the model are
    left to the process's exit (the workspace stops their running queries when it closes).
    """
    plan = [(p, c, r) for r in range(1, repeat + 1) for p in prepared for c in contenders]
    order = {(p.case.id, c.label, r): i for i, (p, c, r) in enumerate(plan)}
    outcomes: list[Outcome] = []
    pool = ThreadPoolExecutor(max_workers=min(max(1, jobs), MAX_JOBS), thread_name_prefix="eval")
    pending: set[Future[Outcome]] = {pool.submit(run_one, workspace, p, c, r) for p, c, r in plan}
    try:
        while pending:
            # a timed wait: a Ctrl-C landing just before an untimed one blocks waits for the next answer
            done, pending = wait(pending, timeout=INTERRUPT_POLL_S, return_when=FIRST_COMPLETED)
            for future in done:
                outcome = future.result()
                outcomes.append(outcome)
                if on_done is not None:
                    on_done(outcome)
    finally:
        # Not ``with``: its exit waits for every running question, up to the request deadline each.
        pool.shutdown(wait=not pending, cancel_futures=True)
    return sorted(outcomes, key=lambda o: (o.repeat, order[(o.id, o.model, o.repeat)]))


def run_one(workspace: Workspace, prepared: Prepared, contender: Contender, repeat: int = 1) -> Outcome:
    """Ask one question through the real loop and judge the answer. Never raises for a failing model."""
    case = prepared.case
    settings = replace(contender.settings, today=case.today or contender.settings.today)
    base: dict[str, Any] = {
        "id": case.id,
        "model": contender.label,
        "expected": prepared.expected,
        "repeat": repeat,
    }
    started = time.perf_counter()
    try:
        wiring = build(workspace, contender.provider, settings, trace=None, transcript=None, stream_to=None)
        result = wiring.agent.ask(case.question)
    except AnalyticsAgentError as exc:
        elapsed = time.perf_counter() - started
        return Outcome(
            **base, passed=False, grounded=False, answer="", reason=f"error: {exc}", latency_s=elapsed
        )
    except Exception as exc:  # a bug: this question fails with a pointer to the log; the others go on
        log.exception("eval case %s crashed", case.id)
        reason = f"internal error ({type(exc).__name__}); run with -v for details"
        return Outcome(**base, passed=False, grounded=False, answer="", reason=reason)
    return _scored(base, prepared, result, time.perf_counter() - started)


def _scored(base: dict[str, Any], prepared: Prepared, result: AgentResult, elapsed: float) -> Outcome:
    answered = result.stop == "answer"
    if answered:
        verdict = judge(prepared.case, prepared.expected, result.answer, result.unverified_numbers)
        passed, reason = verdict.passed, verdict.reason
    else:
        passed, reason = False, f"no answer: stopped ({result.stop})"
    # grounded as `ask` says it: the caveat ask prints under an answer (numbers no tool returned, or no
    # tool called at all) makes it ungrounded here too
    caveat = answer_caveat(result)
    if caveat == NO_TOOL_CAVEAT:
        reason = "; ".join(r for r in (reason, "no tool was called") if r)
    return Outcome(
        **base,
        passed=passed,
        grounded=answered and caveat is None,
        answer=result.answer,
        reason=reason,
        steps=result.steps,
        tool_calls=len(result.tool_calls),
        input_tokens=result.usage.input_tokens,
        output_tokens=result.usage.output_tokens,
        latency_s=elapsed,
    )
