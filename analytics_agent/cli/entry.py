"""The console script: the command line's first step, before typer or DuckDB is imported.

Start-up makes a few hundred thousand long-lived objects (typer, DuckDB's Python modules, ours), and
Python's cyclic garbage collector walks them again and again while they are made: about 12 ms of the
200 ms a ``tools call`` costs (docs/performance.md). The interpreter's own last collection at exit walks
them all once more, collector off or not, unless they are frozen: another 10-15 ms. A one-shot command
ends within seconds, holds little Python data (DuckDB's own memory is not Python's) and closes what it
opens itself, so it runs without the collector and freezes what is left at exit; a command that serves,
converses or asks a model keeps the collector, as does any command not listed here.

A plain ``load`` command line runs without typer at all (``load_args``): typer's import and its reading of
the command cost a small load an eighth of its CPU.
"""

from __future__ import annotations

import atexit
import gc
import sys

from analytics_agent.cli.argv import command_name

ONE_SHOT = frozenset({"tools", "tables", "schema", "load", "drop"})


def main() -> None:
    args = sys.argv[1:]
    command = command_name(args)
    if command in ONE_SHOT:
        gc.disable()
        atexit.register(gc.freeze)
    if command == "load" and _quick_load(args):
        return
    from analytics_agent.cli.app import main as run

    run()


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
