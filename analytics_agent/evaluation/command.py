"""``analytics-agent eval``: load the cases, run them for each model, print and keep the report.

The command-line module only declares the flags; this is what they do. Output: a live progress line
(stderr), then the tables or the ``--json`` object (stdout). Exit 0 when every question passed (or the
pass rate reached ``--fail-under``), 1 otherwise.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analytics_agent.errors import ConfigError
from analytics_agent.evaluation.cases import read_question_file, resolve_question_file, select
from analytics_agent.evaluation.dataset import OpenDefault, workspace_for
from analytics_agent.evaluation.report import (
    Price,
    compare,
    compare_table,
    models_table,
    payload,
    results_table,
    summarize,
)
from analytics_agent.evaluation.runner import Contender, Outcome, prepare, run_all
from analytics_agent.evaluation.store import load_run, save_run

Write = Callable[[str], None]
_LINE = 79  # the live progress line's width: fits an 80-column terminal without wrapping


@dataclass(frozen=True)
class EvalRequest:
    contenders: Sequence[Contender]
    file: Path | None = None
    repeat: int = 1
    jobs: int = 1
    as_json: bool = False
    fail_under: float | None = None
    """A pass rate in percent; None: every question must pass."""
    compare: str | None = None
    prices: Mapping[str, Price] = field(default_factory=dict)
    quiet: bool = False
    only: Sequence[str] = ()
    """Case ids or tags to run (all when empty)."""


def evaluate(
    open_default: OpenDefault, request: EvalRequest, *, out: Write, err_raw: Write, live: bool
) -> int:
    """Run the request and print its report (``out`` prints a line; ``err_raw`` writes text as is); the
    exit code. ``open_default`` opens the user's workspace, used unless the question file names its own
    data (then a fresh database is built from it). ``live``: stderr is a terminal, so progress rewrites
    one line instead of adding one per question.

    Raises:
        EvalFileError: the question file, the data it names or the run to compare with cannot be used.
    """
    err: Write = lambda line: err_raw(line + "\n")  # noqa: E731
    path = resolve_question_file(request.file)
    question_file = read_question_file(path)
    cases = select(question_file.cases, request.only)
    previous = load_run(request.compare) if request.compare else None  # fail before any model is asked
    models = [c.label for c in request.contenders]
    progress = Progress(len(cases) * len(models) * request.repeat, err_raw, live=live, quiet=request.quiet)
    with workspace_for(question_file, open_default) as workspace:
        lines = question_file.sql_lines
        prepared = prepare(workspace, cases, where=lambda case: f"{path}:{lines.get(case.id, '?')}")
        outcomes = run_all(
            workspace,
            prepared,
            request.contenders,
            repeat=request.repeat,
            jobs=request.jobs,
            on_done=progress,
        )
    progress.finish()
    summary = summarize(outcomes, models, request.prices)
    report = payload(outcomes, summary)
    saved = save_run({**report, "run": _about(path, models, request)})
    if request.as_json:
        out(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        out(_text_report(outcomes, summary))
    if previous is not None:
        previous_path, previous_run = previous
        err(f"previous run: {previous_path}")
        (err if request.as_json else out)(compare_table(compare(previous_run, report), previous_run, report))
    if not request.quiet:
        err(f"run saved: {saved}")
    return exit_code(summary, request.fail_under)


def exit_code(summary: Mapping[str, Any], fail_under: float | None) -> int:
    if fail_under is not None:
        return 0 if 100 * summary["pass_rate"] >= fail_under - 1e-9 else 1
    return 0 if summary["passed"] == summary["total"] else 1


def parse_prices(values: Sequence[str], models: Sequence[str]) -> dict[str, Price]:
    """``IN,OUT`` (every model) or ``MODEL=IN,OUT``, in US dollars per million tokens.

    Raises:
        ConfigError: a value that does not fit that form.
    """
    prices: dict[str, Price] = {}
    for value in values:
        name, _, pair = value.rpartition("=")
        try:
            low, high = (float(p) for p in pair.split(","))
        except ValueError:
            raise ConfigError(
                f"--price {value!r}: write IN,OUT or MODEL=IN,OUT in dollars per million tokens, e.g. 0.15,0.60"
            ) from None
        if low < 0 or high < 0:
            raise ConfigError(f"--price {value!r}: prices cannot be negative")
        for model in [name] if name else models:
            prices[model] = Price(low, high)
    return prices


class Progress:
    """The live line: how many questions are done, passed and failed, and the time so far."""

    def __init__(self, total: int, write: Write, *, live: bool, quiet: bool) -> None:
        self.total = total
        self.write = write
        self.live = live
        self.quiet = quiet
        self.done = self.passed = 0
        self.started = time.perf_counter()

    def __call__(self, outcome: Outcome) -> None:
        self.done += 1
        self.passed += outcome.passed
        if self.quiet:
            return
        elapsed = time.perf_counter() - self.started
        head = f"[{self.done}/{self.total}] {self.passed} passed, {self.done - self.passed} failed, {elapsed:.1f} s"
        if self.live:
            self.write("\r" + f"{head}: {outcome.id}"[:_LINE].ljust(_LINE))
        else:
            verdict = "pass" if outcome.passed else "FAIL"
            self.write(f"{head}: {outcome.id} ({outcome.model}) {verdict} in {outcome.latency_s:.1f} s\n")

    def finish(self) -> None:
        if self.live and not self.quiet and self.done:
            self.write("\r" + " " * _LINE + "\r")


def _text_report(outcomes: Sequence[Outcome], summary: Mapping[str, Any]) -> str:
    return results_table(outcomes) + "\n\n" + models_table(summary)


def _about(path: Path, models: Sequence[str], request: EvalRequest) -> dict[str, Any]:
    return {
        "file": str(path),
        "models": list(models),
        "repeat": request.repeat,
        "jobs": request.jobs,
        "finished": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
