"""A plain ``load`` command line runs without typer (``cli.load_args``): it must mean exactly what typer
makes of it, and anything else must still reach typer."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics_agent.cli.app import app_for
from analytics_agent.cli.context import State
from analytics_agent.cli.load_args import OPTIONS, quick_load_args
from tests.cli_process import run_entry

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


# click's error class, from typer's own copy of click (typer vendors it) or from click itself
_CLICK_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _typers_reading(args: list[str]) -> tuple[list[str], dict, Path | None] | None:
    """What typer passes the load for ``args`` (the paths, the options, --db), or None when it refuses."""
    seen: list[tuple[list[str], dict, Path | None]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(State, "db", None)
        patch.setattr("analytics_agent.cli.load_cmd.run_load", lambda p, v: seen.append((p, v, State.db)))
        patch.setattr("analytics_agent.cli.context.set_verbose", lambda: None)
        try:
            app_for(args)(args=args, prog_name="analytics-agent", standalone_mode=False)
        except _CLICK_ERROR:
            return None
    return seen[0] if seen else None


def _same_reading(args: list[str]) -> None:
    quick, typers = quick_load_args(args), _typers_reading(args)
    if quick is None:
        return  # typer answers it, whatever it is
    assert typers is not None, f"typer refuses {args!r}, the quick parser read it"
    paths, values, db = typers
    assert (quick.paths, quick.values) == (paths, values)
    assert (Path(quick.db) if quick.db is not None else None) == db


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_load_line_means_what_typer_makes_of_it(args):
    assert quick_load_args(args) is not None
    _same_reading(args)
    assert quick_load_args(args).verbose == ("-v" in args)  # type: ignore[union-attr]


_TRICKY = st.text(alphabet=list("ab-=;,.%/ \\#'\"0"), max_size=4)


@st.composite
def _load_lines(draw: st.DrawFn) -> list[str]:
    """A load command line of random options, values (some that look like options or hold '='),
    paths and global options on either side of the command, in any order."""
    words: list[list[str]] = [draw(st.sampled_from([["--db", "a.db"], ["--db=b.db"], ["-v"], ["--verbose"]]))
                              for _ in range(draw(st.integers(0, 2)))]  # fmt: skip
    after: list[list[str]] = [
        [p] for p in draw(st.lists(st.sampled_from(["a.csv", "b c.csv", "x=y.csv"]), max_size=3))
    ]
    for option in draw(st.lists(st.sampled_from(OPTIONS), max_size=6)):
        flag = draw(st.sampled_from(option.flags.replace("/", " ").split()))
        if option.kind in ("flag", "switch"):
            after.append([flag])
            continue
        value = (
            draw(st.one_of(_TRICKY, st.integers(-3, 12).map(str))) if option.kind == "int" else draw(_TRICKY)
        )
        inline = flag.startswith("--") and draw(st.booleans())
        after.append([f"{flag}={value}"] if inline else [flag, value])
    after += [[g] for g in draw(st.lists(st.sampled_from(["-v", "--db=c.db"]), max_size=1))]
    order = draw(st.permutations(after))
    return [w for part in words for w in part] + ["load"] + [w for part in order for w in part]


@settings(max_examples=150, deadline=None)
@given(_load_lines())
def test_any_load_line_the_quick_parser_reads_means_what_typer_makes_of_it(args):
    _same_reading(args)


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


def _run(entry: str, args: list[str], tmp_path: Path) -> tuple[dict, str, str]:
    result, stdout, stderr = run_entry(entry, args, cwd=tmp_path, env={"COLUMNS": "100"})
    return (
        result,
        re.sub(r" in \d+\.\d s\.", " in (seconds) s.", stdout),
        stderr,
    )  # the one part that may differ


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
