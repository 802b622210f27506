"""The console script: the command line's first step, before typer or DuckDB is imported.

Start-up makes a few hundred thousand long-lived objects (typer, DuckDB's Python modules, ours), and
Python's cyclic garbage collector walks them again and again while they are made: about 12 ms of the
200 ms a ``tools call`` costs (docs/performance.md). The interpreter's own last collection at exit walks
them all once more, collector off or not, unless they are frozen: another 10-15 ms. A one-shot command
ends within seconds, holds little Python data (DuckDB's own memory is not Python's) and closes what it
opens itself, so it runs without the collector and freezes what is left at exit; a command that serves,
converses or asks a model keeps the collector, as does any command not listed here.

A plain ``load`` command line runs without typer at all (``load_args``): typer's import and its reading of
the command cost a small load an eighth of its CPU; so does a plain ``tools call`` (``quick_call``), where
they cost a tenth. Once either has finished, the process ends at once (``script``): taking DuckDB and every
module apart, object by object, cost a load another 5-6 ms.
"""

from __future__ import annotations

import atexit
import gc
import sys

from analytics_agent.cli.argv import command_name

ONE_SHOT = frozenset({"tools", "tables", "schema", "load", "drop"})


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
