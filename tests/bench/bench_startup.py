"""5. Start-up: ``analytics-agent --help`` vs a bare Typer app, and ``tools call`` vs a Python one-liner
that imports duckdb and runs the same query. Subprocess wall time, runs alternating, medians."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from tests.bench.common import Result, fmt_ms, interleaved

HELP_TARGET = 1.5
CALL_TARGET = 2.0
ARGS = {"city": "Pune", "day": "2026-10-24"}

_BARE_TYPER = """
import typer

app = typer.Typer()


@app.command()
def main(name: str = "world") -> None:
    print(name)


app()
"""


def _cli() -> list[str]:
    beside = Path(sys.executable).with_name("analytics-agent")
    found = str(beside) if beside.exists() else shutil.which("analytics-agent")
    return [found] if found else [sys.executable, "-m", "analytics_agent"]


def _runner(argv: list[str]):
    def go() -> None:
        done = subprocess.run(argv, capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{argv} failed: {done.stderr.decode(errors='replace')[-500:]}")

    return go


def run(*, runs: int = 11, log=print) -> Result:
    from analytics_agent.db.connect import ensure_database
    from analytics_agent.resources import sql_dir
    from analytics_agent.tools.sqlfile import parse_sql_tool

    result = Result(
        f"5. start-up (median of {runs} subprocess runs)",
        ["command", "baseline", "ours_ms", "baseline_ms", "ratio", "target", "met"],
    )
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "sample.duckdb"
        ensure_database(db, sample_data=True)
        bare = Path(folder) / "bare_typer.py"
        bare.write_text(_BARE_TYPER, encoding="utf-8")
        sql = parse_sql_tool((sql_dir() / "sales_summary.sql").read_text(encoding="utf-8")).sql
        one_liner = textwrap.dedent(
            f"""
            import datetime, duckdb
            c = duckdb.connect({str(db)!r}, read_only=True)
            print(c.execute({sql!r}, {{"city": "Pune", "day": datetime.date(2026, 10, 24)}}).fetchall())
            """
        )
        cases = [
            ("analytics-agent --help", "bare Typer app --help", [*_cli(), "--help"],
             [sys.executable, str(bare), "--help"], HELP_TARGET),
            ("tools call sales_summary", "python: import duckdb + query",
             [*_cli(), "--db", str(db), "tools", "call", "sales_summary", json.dumps(ARGS)],
             [sys.executable, "-c", one_liner], CALL_TARGET),
        ]  # fmt: skip
        for label, base_label, ours, base, target in cases:
            first, second = _runner(ours), _runner(base)
            first()
            second()
            pair = interleaved(first, second, runs=runs)
            ratio = pair.first_wall / pair.second_wall
            result.rows.append(
                [label, base_label, fmt_ms(pair.first_wall), fmt_ms(pair.second_wall), round(ratio, 2),
                 f"<= {target}x", "ok" if ratio <= target else "MISSED"]
            )  # fmt: skip
    return result
