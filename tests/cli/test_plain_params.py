"""Help and usage errors read the same on every typer release pyproject.toml allows (0.26 builds its
parameters on click's types; 0.27+ on its own, with pydantic converting values): click's labels and
messages, the type of an argument in the type column, no pydantic at start. CI installs the newest typer
allowed, so these fail there if a release changes what a user sees."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from analytics_agent.cli.app import app


def _screen(args: list[str]) -> tuple[int, str]:
    """(exit code, output with the help's and the error box's frames and spacing taken out)."""
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200", "NO_COLOR": "1"})
    return result.exit_code, " ".join(re.sub(r"[│╭╮╰╯─]", " ", result.output).split())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["ask", "--max-steps", "abc", "q"],
            "Invalid value for '--max-steps': 'abc' is not a valid integer.",
        ),
        (
            ["ask", "--read-timeout", "soon", "q"],
            "Invalid value for '--read-timeout': 'soon' is not a valid float.",
        ),
        (["eval", "--jobs", "99"], "Invalid value for '--jobs' / '-j': 99 is not in the range 1<=x<=32."),
        (["eval", "--repeat", "0"], "Invalid value for '--repeat': 0 is not in the range x>=1."),
        (["mcp", "--port", "0"], "Invalid value for '--port': 0 is not in the range 1<=x<=65535."),
        (["schema"], "Missing argument 'TABLE'."),
        (["tools", "call"], "Missing argument 'NAME'."),
        (["load"], "Missing argument 'PATH...'."),
    ],
    ids=["int", "float", "range", "minimum", "port", "metavar", "name", "many"],
)
def test_a_usage_error_says_what_click_says(args: list[str], message: str) -> None:
    code, screen = _screen(args)
    assert code == 2
    assert message in screen
    assert "Input should be" not in screen  # pydantic's words (typer 0.29)


@pytest.mark.parametrize(
    ("args", "row"),
    [
        (["--help"], "--tools-dir PATH A folder of your own .sql tools"),
        (["tools", "call", "--help"], "* name TEXT Tool name"),
        (["tools", "call", "--help"], "[arguments] TEXT Arguments as a JSON object."),
        (["eval", "--help"], "[file] PATH Questions as .jsonl or .yaml"),
        (["load", "--help"], "* PATH... TEXT CSV or Parquet files"),
        (["sources", "add", "--help"], "* NAME TEXT The source's name"),
        (["sources", "test", "--help"], "Usage: analytics-agent sources test [OPTIONS] [NAME] "),
        (["sources", "test", "--help"], " [NAME] TEXT One source (default: all)."),
    ],
    ids=[
        "list-of-paths",
        "argument",
        "optional-argument",
        "optional-path",
        "many",
        "metavar",
        "usage",
        "bracketed",
    ],
)
def test_help_labels_each_value_as_click_does(args: list[str], row: str) -> None:
    code, screen = _screen(args)
    assert code == 0
    assert row in screen
