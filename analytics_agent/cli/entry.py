"""The console script: the command line's first step, before typer or DuckDB is imported.

Start-up makes a few hundred thousand long-lived objects (typer, DuckDB's Python modules, ours), and
Python's cyclic garbage collector walks them again and again while they are made: about 12 ms of the
200 ms a ``tools call`` costs (docs/performance.md). The interpreter's own last collection at exit walks
them all once more, collector off or not, unless they are frozen: another 10-15 ms. A one-shot command
ends within seconds, holds little Python data (DuckDB's own memory is not Python's) and closes what it
opens itself, so it runs without the collector and freezes what is left at exit; a command that serves,
converses or asks a model keeps the collector, as does any command not listed here.
"""

from __future__ import annotations

import atexit
import gc
import sys

from analytics_agent.cli.argv import command_name

ONE_SHOT = frozenset({"tools", "tables", "schema", "load", "drop"})


def main() -> None:
    if command_name(sys.argv[1:]) in ONE_SHOT:
        gc.disable()
        atexit.register(gc.freeze)
    from analytics_agent.cli.app import main as run

    run()
