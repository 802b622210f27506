"""At 80 columns (a real pseudo-terminal), ``schema`` and ``tools list`` fit the terminal: no line wider
than it, so the terminal never wraps one mid-word; piped, the wide table and the one-line list are kept."""

from __future__ import annotations

import re

import pytest
from cli_process import run_cli, run_in_terminal
from real_data import build_real_db

from analytics_agent.present.tables import width


def lines_of(screen: str) -> list[str]:
    return [line for line in screen.replace("\r\n", "\n").split("\n") if line]


@pytest.mark.parametrize("columns", [80, 100])
def test_schema_of_a_wide_table_fits_the_terminal(tmp_path, columns):
    db = build_real_db(tmp_path / "real.duckdb")
    code, screen = run_in_terminal(["--db", str(db), "schema", "flights"], cwd=tmp_path, columns=columns)
    assert code == 0, screen
    lines = lines_of(screen)
    assert max(width(line) for line in lines) <= columns, max(lines, key=width)
    starts = {line.split()[0] for line in lines[1:] if not line.startswith(" ")}
    assert {"year", "dep_time", "carrier", "time_hour"} <= starts  # one entry per column, named first
    assert "2014-01-01 04:00:00+00:00" in screen and "9E, AA" in screen  # nothing dropped
    piped = run_cli(["--db", str(db), "schema", "flights"], cwd=tmp_path, env={"COLUMNS": None}).stdout
    assert piped.splitlines()[1].split() == ["column", "type", "nulls", "min", "max", "values"]


def test_tools_list_wraps_between_words_at_80_columns(sample_db, tmp_path):
    code, screen = run_in_terminal(["--db", str(sample_db), "tools", "list"], cwd=tmp_path, columns=80)
    assert code == 0, screen
    lines = lines_of(screen)
    assert max(width(line) for line in lines) <= 80, max(lines, key=width)
    piped = run_cli(["--db", str(sample_db), "tools", "list"], cwd=tmp_path, env={"COLUMNS": None}).stdout
    words = set(re.findall(r"\S+", screen))
    for line in piped.splitlines():  # every word of the one-line descriptions is on the screen whole
        assert set(line.split()) <= words, line
    assert len(lines) > len(piped.splitlines())  # some descriptions did wrap
