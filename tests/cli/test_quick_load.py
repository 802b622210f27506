"""A plain ``load`` command line runs without typer (``cli.load_args``): it must mean exactly what typer
makes of it, and anything else must still reach typer."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from analytics_agent.cli.app import app_for
from analytics_agent.cli.context import State
from analytics_agent.cli.load_args import quick_load_args

PLAIN = [
    ["load", "a.csv"],
    ["--db", "x.duckdb", "load", "a.csv", "b.csv", "--table", "t", "--replace"],
    ["load", "a.csv", "-t", "t", "--null", "-", "--null", "NA", "--skip", "2", "--no-header"],
    ["load", "--header", "a.csv", "--delimiter=;", "--type", "a=VARCHAR", "--date-format", "%d/%m/%Y", "--db=y.db"],
    ["-v", "load", "a.csv", "--quote", "", "--escape", "\\", "--max-line-size", "5000", "--timezone", "UTC",
     "--table", "a", "--table", "b", "--skip", "-1"],
    ["load", "a.csv", "--skip-bad-rows", "--pad-short-rows", "--allow-empty", "--append", "--comment", "#",
     "--newline", "any", "--encoding", "latin-1", "--thousands", ".", "--decimal", ",", "--db", "z.db", "c.csv"],
]  # fmt: skip


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_load_line_means_what_typer_makes_of_it(monkeypatch, args):
    seen: list[tuple[list[str], dict, Path | None]] = []
    monkeypatch.setattr(State, "db", None)
    monkeypatch.setattr("analytics_agent.cli.load_cmd.run_load", lambda p, v: seen.append((p, v, State.db)))
    monkeypatch.setattr("analytics_agent.cli.context.set_verbose", lambda: None)
    app_for(args)(args=args, prog_name="analytics-agent", standalone_mode=False)
    quick = quick_load_args(args)
    assert quick is not None
    (paths, values, db) = seen[0]
    assert (quick.paths, quick.values) == (paths, values)
    assert (Path(quick.db) if quick.db else None) == db
    assert quick.verbose == ("-v" in args)


@pytest.mark.parametrize(
    "args",
    [
        ["load", "--help"],
        ["load"],
        ["load", "a.csv", "--skip", "x"],
        ["load", "a.csv", "--replace=yes"],
        ["load", "a.csv", "--table"],
        ["load", "a.csv", "--", "b.csv"],
        ["load", "-tname", "a.csv"],
        ["--table", "t", "load", "a.csv"],
        ["tables"],
        ["load", "a.csv", "--tools-dir", "d"],
        ["load", "-"],
        ["load", "a.csv", "--no-such-option"],
        ["--version"],
    ],
)
def test_anything_but_a_plain_load_is_left_to_typer(args):
    assert quick_load_args(args) is None


_RUN = """
import json, sys
out, entry = sys.argv[1], sys.argv[2]
sys.argv = ["analytics-agent", *sys.argv[3:]]
if entry == "entry":
    from analytics_agent.cli.entry import main
else:
    from analytics_agent.cli.app import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(out, "w") as fh:
    json.dump({"code": code, "typer": "typer" in sys.modules}, fh)
"""


def _run(entry: str, args: list[str], tmp_path: Path) -> tuple[dict, str, str]:
    out = tmp_path / f"{entry}.json"
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(out), entry, *args],
        cwd=tmp_path, env={**os.environ, "COLUMNS": "100"}, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    timed = re.sub(r" in \d+\.\d s\.", " in (seconds) s.", done.stdout)  # the one part that may differ
    return json.loads(out.read_text()), timed, done.stderr


@pytest.mark.parametrize(
    ("extra", "code"),
    [([], 0), (["--table", "orders"], 1), (["--null", "x", "--type", "visits=BIGINT", "-t", "v2"], 0)],
    ids=["loads", "refused", "options"],
)
def test_the_console_script_loads_without_typer_and_says_what_typer_would(sample_db, tmp_path, extra, code):
    csv = tmp_path / "visits.csv"
    csv.write_text("region,visits\nNorth,3\nSouth,x\n", encoding="utf-8")
    second = tmp_path / "second.duckdb"
    shutil.copyfile(sample_db, second)
    quick = _run("entry", ["--db", str(sample_db), "load", str(csv), *extra], tmp_path)
    typer_side = _run("app", ["--db", str(second), "load", str(csv), *extra], tmp_path)
    assert quick[0]["typer"] is False and typer_side[0]["typer"] is True
    assert quick[0]["code"] == typer_side[0]["code"] == code
    assert quick[1:] == typer_side[1:]
    assert ("Loaded 2 rows" in quick[1]) == (code == 0)


def test_a_usage_mistake_still_gets_typers_answer(sample_db, tmp_path):
    result, _, stderr = _run("entry", ["--db", str(sample_db), "load", "a.csv", "--skip", "x"], tmp_path)
    assert result == {"code": 2, "typer": True}
    assert "'x' is not a valid integer" in stderr


def test_a_reader_that_goes_away_ends_the_load_as_typer_does(sample_db, tmp_path):
    """``load … | head`` where head has already left: exit 1 without a word, as click does, not an
    internal error (the load itself is committed before its summary is written)."""
    csv = tmp_path / "visits.csv"
    csv.write_text("region,visits\nNorth,3\n", encoding="utf-8")
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "analytics_agent", "--db", str(sample_db), "load", str(csv)],
            stdout=write, stderr=subprocess.PIPE, text=True, cwd=tmp_path, timeout=300,
        )  # fmt: skip
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (1, "")
    import duckdb

    with duckdb.connect(str(sample_db), read_only=True) as conn:
        assert conn.execute("SELECT count(*) FROM visits").fetchone() == (1,)
