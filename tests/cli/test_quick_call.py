"""A plain ``tools call`` command line runs without typer (``cli.quick_call``): it must mean exactly what
typer makes of it and say the same, byte for byte; anything else must still reach typer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st

from analytics_agent.cli.app import app_for
from analytics_agent.cli.context import State
from analytics_agent.cli.quick_call import quick_call_args
from tests.cli_process import run_entry
from tests.import_probe import this_checkout

PLAIN = [
    ["tools", "call", "list_tables"],
    ["--db", "x.duckdb", "tools", "call", "aggregate", '{"table": "orders"}'],
    ["-v", "--db=a.db", "tools", "call", "describe_table", '{"table": "t"}', "--timezone", "Asia/Kolkata"],
    ["tools", "call", "sales_summary", "{}", "--db", "b.db", "--timezone=UTC", "--verbose", "--db", "c.db"],
    [
        "--db",
        "a.db",
        "tools",
        "call",
        "--timezone",
        "--db",
        "x",
        "--db",
        "-v",
    ],  # values taken as click takes them
]

# click's error class, from typer's own copy of click (typer vendors it) or from click itself
_CLICK_ERROR = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException")


def _typers_reading(args: list[str]) -> tuple[str, str, str | None, Path | None, bool] | None:
    """What typer runs for ``args`` (name, arguments, zone, --db, -v), or None when it refuses them."""
    seen: list[tuple[str, str, str | None, Path | None, bool]] = []
    verbose: list[bool] = []

    def call(name: str, arguments: str, timezone: str | None) -> object:
        seen.append((name, arguments, timezone, State.db, bool(verbose)))
        raise typer.Exit(0)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(State, "db", None)
        patch.setattr("analytics_agent.cli.quick_call.call_tool", call)
        for where in ("context", "app", "global_options"):  # the root's -v and the command's
            patch.setattr(f"analytics_agent.cli.{where}.set_verbose", lambda: verbose.append(True))
        try:
            app_for(args)(args=args, prog_name="analytics-agent", standalone_mode=False)
        except _CLICK_ERROR:
            return None
    return seen[0] if seen else None


def _same_reading(args: list[str]) -> None:
    quick = quick_call_args(args)
    if quick is None:
        return  # typer answers it, whatever it is
    typers = _typers_reading(args)
    assert typers is not None, f"typer refuses {args!r}, the quick parser read it"
    db = Path(quick.db) if quick.db is not None else None
    assert (quick.name, quick.arguments, quick.timezone, db, quick.verbose) == typers


@pytest.mark.parametrize("args", PLAIN)
def test_a_plain_call_line_means_what_typer_makes_of_it(args: list[str]) -> None:
    assert quick_call_args(args) is not None
    _same_reading(args)


_WORDS = st.sampled_from(
    ["tools", "call", "aggregate", '{"a": 1}', "{}", "-v", "--verbose", "--db", "--db=a.db", "a.db", "--timezone",
     "--timezone=UTC", "UTC", "--sql", "--json", "-", "--", "x=y", "--verbose=1", "-vv", "-5"]
)  # fmt: skip


@st.composite
def _call_lines(draw: st.DrawFn) -> list[str]:
    """Random words around ``tools call NAME``: global options on either side, values that look like
    options or hold '=', extra words, words between "tools" and "call"."""
    before = draw(st.lists(_WORDS, max_size=3))
    between = draw(st.lists(_WORDS, max_size=1))
    after = draw(st.lists(_WORDS, max_size=5))
    return [*before, "tools", *between, "call", *after]


@settings(max_examples=300, deadline=None)
@given(_call_lines())
def test_any_call_line_the_quick_parser_reads_means_what_typer_makes_of_it(args: list[str]) -> None:
    _same_reading(args)


@pytest.mark.parametrize(
    "args",
    [
        ["tools", "call"],
        ["tools", "call", "--help"],
        ["tools", "call", "a", "{}", "--sql"],
        ["tools", "call", "a", "{}", "--json"],
        ["tools", "call", "a", "{}", "extra"],
        ["tools", "call", "a", "--timezone"],
        ["tools", "--db", "x", "call", "a"],
        ["--timezone", "UTC", "tools", "call", "a"],
        ["--tools-dir", "d", "tools", "call", "a"],
        ["--allow-sql", "tools", "call", "a"],
        ["tools", "list"],
        ["tools", "call", "a", "--", "{}"],
        ["tools", "call", "a", "-"],
        ["tools", "call", "a", "--verbose=1"],
        ["tables"],
    ],
)
def test_anything_but_a_plain_call_is_left_to_typer(args: list[str]) -> None:
    assert quick_call_args(args) is None


def _run(entry: str, args: list[str], tmp_path: Path) -> tuple[dict, str, str]:
    return run_entry(entry, args, cwd=tmp_path, env={"COLUMNS": "100", "PYTHONPATH": this_checkout()})


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (["aggregate", '{"table": "orders", "group_by": ["city"], "metrics": [{"fn": "sum", "column": "amount"}]}'], 0),
        (["aggregate", '{"table": "orderz"}'], 1),  # an error outcome: what the model reads, exit 1
        (["describe_table", '{"table": "orders"}', "--timezone", "Mars/Olympus"], 2),  # a mistake of ours
        (["no_such_tool"], 1),
    ],
    ids=["answer", "refused", "bad-zone", "unknown-tool"],
)  # fmt: skip
def test_the_console_script_calls_without_typer_and_says_what_typer_would(
    sample_db: Path, tmp_path: Path, call: list[str], code: int
) -> None:
    args = ["--db", str(sample_db), "tools", "call", *call]
    quick = _run("entry", args, tmp_path)
    typer_side = _run("app", args, tmp_path)
    assert quick[0]["typer"] is False and typer_side[0]["typer"] is True
    assert quick[0]["code"] == typer_side[0]["code"] == code
    assert quick[1:] == typer_side[1:]
    if code == 0:
        assert json.loads(quick[1])["columns"] == ["city", "sum_amount"]


def test_a_usage_mistake_still_gets_typers_answer(sample_db: Path, tmp_path: Path) -> None:
    result, _, stderr = _run("entry", ["--db", str(sample_db), "tools", "call"], tmp_path)
    assert result == {"code": 2, "typer": True}
    assert "Missing argument 'NAME'" in stderr
