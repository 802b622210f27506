"""The console script: the command line's first step, before typer or DuckDB is imported.

Four start-up measures live here, each kept for a figure of docs/performance.md and only where that
figure needs it (measured December 2026, paired against DuckDB's own run, CPU; removing each one alone):

- no cyclic garbage collector, and what is left frozen at exit, for ``tools`` and ``load`` only: start-up
  makes a few hundred thousand long-lived objects that the collector walks again and again, and the
  interpreter's last collection walks them once more. Row 5 (``tools call sales_summary``, target 1.5x):
  1.29x with it, 1.52x without. Row 3 (``load``, target 1.15x): ``weather.csv`` 1.12x with it, 1.18x
  without. No figure measures ``tables``, ``schema`` or the rest, so they keep the collector.
- a plain ``load`` command line read without typer (``load_args``): row 3, ``weather.csv`` 1.30x and
  ``who.csv.gz`` 1.31x with typer reading it (and so the interpreter's usual exit), against 1.15x and
  1.18x without (the same run).
- after that load, the process ends at once (``_end_now``) instead of taking DuckDB and every module
  apart: row 3, ``weather.csv`` 1.14x without it; with the collector also on, 1.34x.
- a plain ``tools call NAME [JSON]`` read without typer too (``quick_call``): row 5, ``tools call aggregate``
  on a database of your own 1.28x without typer against 1.51-1.53x with it (typer's import and reading,
  about 31 ms of a 256 ms call), and it ends at once as a plain load does.
"""

from __future__ import annotations

import atexit
import gc
import sys

from analytics_agent.cli.argv import command_name

ONE_SHOT = frozenset({"tools", "load"})  # docs/performance.md rows 5 and 3: see above


def script() -> None:
    """The console script and ``python -m analytics_agent``: ``main``; then, after a plain load or call
    that finished, the process ends without the interpreter's teardown. By then it has closed all it
    opened (the database checkpointed and closed, temporary files removed, its progress thread joined);
    what is left is Python taking DuckDB and every module apart, object by object: 5-6 ms of a small
    load's 130 ms of CPU, which nobody waits for. The output is flushed first; another thread still
    running, or a stream that cannot be flushed, leaves the ending to the interpreter, as for every
    other command and for any error."""
    if main():
        _end_now()


def main() -> bool:
    """Run the command line; True when it was a plain load or call, run to its end without typer."""
    args = sys.argv[1:]
    command = command_name(args)
    if command in ONE_SHOT:
        gc.disable()
        atexit.register(gc.freeze)
    if command == "load" and _quick_load(args):
        return True
    if command == "tools" and _quick_call(args):
        return True
    from analytics_agent.cli.app import main as run

    run()
    return False


def _end_now() -> None:
    import os
    import threading

    if threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe or stream: the interpreter's exit says what it says
        return
    os._exit(0)


def _quick_call(args: list[str]) -> bool:
    """Run ``args`` as a plain ``tools call`` without typer; False when typer must parse them."""
    from analytics_agent.cli.quick_call import quick_call_args

    quick = quick_call_args(args)
    if quick is None:
        return False
    from analytics_agent.cli.edge import guarded
    from analytics_agent.cli.quick_call import run_call

    guarded(lambda: run_call(quick))
    return True


def _quick_load(args: list[str]) -> bool:
    """Run ``args`` as a plain load without typer; False when typer must parse them."""
    from analytics_agent.cli.load_args import quick_load_args

    quick = quick_load_args(args)
    if quick is None:
        return False
    from analytics_agent.cli.edge import guarded
    from analytics_agent.cli.load_cmd import run_quick

    guarded(lambda: run_quick(quick))
    return True
