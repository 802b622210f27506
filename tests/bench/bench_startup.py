"""5. Start-up, in CPU time of the child process (``getrusage(RUSAGE_CHILDREN)``; wall time is shown too but
moves with every other process on a shared machine). Runs alternate between ours and the baseline; medians.

* ``--help`` vs a bare Typer app with the same command tree (the same 12 commands and 3 groups with their
  14 subcommands, one option each): the cost of our code on top of typer's own per-command work. A
  one-command bare app is shown as well (typer's floor).
* ``tools call sales_summary`` vs a Python one-liner that imports duckdb and runs the same query.
* On a 12-table database of your own (``tests/normalized_db.py``, no sample tables): ``tools call
  describe_table`` vs a one-liner ``DESCRIBE``, and ``tools call aggregate`` vs the same ``GROUP BY``.
* The MCP server's first answer (a fresh stdio server, handshake, ``tools/list``, via the official client)
  vs ``tools list``; and, for information, the same session with one ``tools/call`` after it (the call
  loads the MCP SDK) vs ``tools call``.

Every side runs from compiled bytecode (``compileall`` first; ``PYTHONDONTWRITEBYTECODE`` would otherwise
charge our package a compile on every start that an installed wheel never pays).
"""

from __future__ import annotations

import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from tests.bench.common import Result, fmt_ms
from tests.normalized_db import build_normalized_db

HELP_TARGET = 1.2
CALL_TARGET = 1.5
MCP_TARGET = 1.5
ARGS = {"city": "Pune", "day": "2026-10-24"}
OWN_CALL = {"table": "orders", "group_by": ["status"], "metrics": [{"fn": "sum", "column": "freight"}]}


def _bare_typer(tree: dict[str, list[str]]) -> str:
    """A Typer app with the command tree ``tree`` (group -> subcommands; "" holds the top-level ones)."""
    lines = ["import typer", "", "app = typer.Typer(add_completion=False)"]
    for group, names in tree.items():
        owner = "app"
        if group:
            owner = f"g_{group}"
            lines.append(f"{owner} = typer.Typer()")
            lines.append(f"app.add_typer({owner}, name={group!r})")
        for name in names:
            lines += [
                f"@{owner}.command({name!r})",
                f"def c_{group}_{name}(name: str = 'world') -> None:",
                f"    '''The {name} command.'''",
                "    print(name)",
            ]
    lines += ["", "app()"]
    return "\n".join(lines) + "\n"


def command_tree() -> dict[str, list[str]]:
    """Our app's command tree, read from its registration (no command is built)."""
    from analytics_agent.cli.app import app

    tree: dict[str, list[str]] = {"": [c.name or "" for c in app.registered_commands]}
    for group in app.registered_groups:
        sub = group.typer_instance
        tree[group.name or ""] = [c.name or "" for c in sub.registered_commands] if sub else []
    return tree


def _cli() -> list[str]:
    beside = Path(sys.executable).with_name("analytics-agent")
    found = str(beside) if beside.exists() else shutil.which("analytics-agent")
    return [found] if found else [sys.executable, "-m", "analytics_agent"]


def _runner(argv: list[str]) -> Callable[[], None]:
    def go() -> None:
        done = subprocess.run(argv, capture_output=True, check=False, env=_env())
        if done.returncode != 0:
            raise RuntimeError(f"{argv} failed: {done.stderr.decode(errors='replace')[-500:]}")

    return go


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def child_cpu(fn: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds of the child processes ``fn`` ran and waited for, wall seconds)."""
    before, w0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    fn()
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter() - w0
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def compare(ours: Callable[[], object], base: Callable[[], object], runs: int) -> dict[str, float]:
    """Medians of child CPU and wall for both sides, run alternately after one warm-up each."""
    ours()
    base()
    got: dict[str, list[float]] = {"ours_cpu": [], "base_cpu": [], "ours_wall": [], "base_wall": []}
    for i in range(runs):
        for side, fn in (("ours", ours), ("base", base)) if i % 2 == 0 else (("base", base), ("ours", ours)):
            cpu, wall = child_cpu(fn)
            got[f"{side}_cpu"].append(cpu)
            got[f"{side}_wall"].append(wall)
    return {k: statistics.median(v) for k, v in got.items()}


def compile_bytecode() -> None:
    import analytics_agent

    compileall.compile_dir(Path(analytics_agent.__file__).parent, quiet=1)


def run(*, runs: int = 11, log=print) -> Result:
    from analytics_agent.db.connect import ensure_database
    from analytics_agent.resources import sql_dir
    from analytics_agent.tools.sqlfile.parse import parse_sql_tool

    compile_bytecode()
    result = Result(
        f"5. start-up, CPU of the process (median of {runs} runs, alternating)",
        ["command", "baseline", "ours_cpu_ms", "base_cpu_ms", "ratio", "wall_ratio", "target", "met"],
    )
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "sample.duckdb"
        ensure_database(db, sample_data=True)
        tree = command_tree()
        same = Path(folder) / "bare_same_tree.py"
        same.write_text(_bare_typer(tree), encoding="utf-8")
        one = Path(folder) / "bare_one.py"
        one.write_text(_bare_typer({"": ["main"]}), encoding="utf-8")
        sql = parse_sql_tool((sql_dir() / "sales_summary.sql").read_text(encoding="utf-8")).sql
        one_liner = textwrap.dedent(
            f"""
            import datetime, duckdb
            c = duckdb.connect({str(db)!r}, read_only=True)
            print(c.execute({sql!r}, {{"city": "Pune", "day": datetime.date(2026, 10, 24)}}).fetchall())
            """
        )
        own = Path(folder) / "own.duckdb"  # issue 37: a database of your own, no sample tables
        build_normalized_db(own)
        own_describe = f"import duckdb; print(duckdb.connect({str(own)!r}, read_only=True).execute('DESCRIBE orders').fetchall())"
        own_group = (
            f"import duckdb; print(duckdb.connect({str(own)!r}, read_only=True).execute("
            "'SELECT status, sum(freight) FROM orders GROUP BY 1 ORDER BY 2 DESC').fetchall())"
        )
        commands = sum(len(v) for v in tree.values())
        cli = _cli()
        cases = [
            ("analytics-agent --help", f"bare Typer app, same tree ({commands} commands) --help",
             _runner([*cli, "--help"]), _runner([sys.executable, str(same), "--help"]), HELP_TARGET),
            ("analytics-agent --help", "bare Typer app, one command --help (typer's floor)",
             _runner([*cli, "--help"]), _runner([sys.executable, str(one), "--help"]), None),
            ("tools call sales_summary", "python: import duckdb + the same query",
             _runner([*cli, "--db", str(db), "tools", "call", "sales_summary", json.dumps(ARGS)]),
             _runner([sys.executable, "-c", one_liner]), CALL_TARGET),
            ("tools call describe_table, own 12-table db", "python: import duckdb + DESCRIBE",
             _runner([*cli, "--db", str(own), "tools", "call", "describe_table", '{"table": "orders"}']),
             _runner([sys.executable, "-c", own_describe]), CALL_TARGET),
            ("tools call aggregate, own 12-table db", "python: import duckdb + the same GROUP BY",
             _runner([*cli, "--db", str(own), "tools", "call", "aggregate", json.dumps(OWN_CALL)]),
             _runner([sys.executable, "-c", own_group]), CALL_TARGET),
            ("MCP stdio server: first tools/list answer", "tools list",
             lambda: _first_mcp_answer(cli, db), _runner([*cli, "--db", str(db), "tools", "list"]), MCP_TARGET),
            ("MCP stdio server: first tools/list answer", "tools spec --format mcp (the same list, printed)",
             lambda: _first_mcp_answer(cli, db), _runner([*cli, "--db", str(db), "tools", "spec", "--format", "mcp"]),
             None),
            ("MCP stdio server: handshake, tools/list, one tools/call", "tools call sales_summary",
             lambda: _first_mcp_answer(cli, db, call=True),
             _runner([*cli, "--db", str(db), "tools", "call", "sales_summary", json.dumps(ARGS)]), None),
        ]  # fmt: skip
        for label, base_label, ours, base, target in cases:
            got = compare(ours, base, runs)
            ratio = got["ours_cpu"] / got["base_cpu"]
            result.rows.append(
                [label, base_label, fmt_ms(got["ours_cpu"]), fmt_ms(got["base_cpu"]), round(ratio, 2),
                 round(got["ours_wall"] / got["base_wall"], 2), f"<= {target}x" if target else "-",
                 ("ok" if ratio <= target else "MISSED") if target else "-"]
            )  # fmt: skip
    result.notes.append(
        "ratio is CPU time (user + system) of the started process; wall_ratio for reference. The MCP row "
        "counts the server process only (the client runs in this process)."
    )
    return result


def _first_mcp_answer(cli: list[str], db: Path, *, call: bool = False) -> None:
    """A fresh stdio server through the handshake and ``tools/list`` (answered by our front, the SDK not
    loaded); with ``call``, one ``tools/call`` after it too (the SDK loaded for it, the session handed over)."""
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=cli[0], args=[*cli[1:], "--db", str(db), "mcp"], env=_env())

    async def first_answer() -> None:
        async with Client(params, mode="legacy") as client:  # one handshake, as desktop clients do
            await client.list_tools()
            if call:
                answer = await client.call_tool("sales_summary", ARGS)
                if answer.is_error:
                    raise RuntimeError(f"sales_summary failed over MCP: {answer.content}")

    anyio.run(first_answer)


if __name__ == "__main__":
    from tests.bench.common import print_table

    print_table(run(runs=int(sys.argv[1]) if len(sys.argv) > 1 else 11))
