"""A ``--skip-bad-rows`` load of several files counts and names each set-aside record by its file
(issue 38 round three, a leftover of class 8). Records were counted by distinct line number across the
files, so a.csv's line 3 and b.csv's line 3 were one: ``Skipped 2 bad records (lines 3, 5)`` for three,
with no word of which file each line is in. The expected records are written by hand below (each bad
line has three fields under a two-column header), not taken from the loader."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError

WORKTREE = str(Path(__file__).resolve().parents[2])
FILES = {
    "a.csv": "id,amount\n1,5\n2,5,9\n3,7\n",  # line 3 is bad
    "b.csv": "id,amount\n4,5\n5,5,9\n6,7\n7,1,1\n",  # lines 3 and 5 are bad
}
BAD = [("a.csv", 3), ("b.csv", 3), ("b.csv", 5)]


def _write(folder: Path) -> list[str]:
    for name, text in FILES.items():
        (folder / name).write_text(text)
    return [str(folder / name) for name in FILES]


def test_each_rejected_record_is_counted_and_named_with_its_file(tmp_path: Path) -> None:
    _write(tmp_path)
    result = subprocess.run(
        [sys.executable, "-m", "analytics_agent", "--db", str(tmp_path / "r.duckdb"), "load", "a.csv",
         "b.csv", "--table", "rr", "--skip-bad-rows"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": WORKTREE, "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-1500:]
    assert "Skipped 3 bad records (a.csv line 3; b.csv lines 3, 5), kept in the table rr_rejects." in (
        result.stdout
    ), result.stdout
    with duckdb.connect(str(tmp_path / "r.duckdb"), read_only=True) as conn:
        kept = conn.execute("SELECT file, line FROM rr_rejects ORDER BY file, line").fetchall()
        rows = conn.execute("SELECT count(*) FROM rr").fetchone()
    assert [(Path(f).name, n) for f, n in kept] == BAD
    assert rows == (4,)  # 7 records, 3 set aside


def test_the_summary_lists_one_line_per_record_with_its_file(tmp_path: Path) -> None:
    files = _write(tmp_path)
    summary = load_files(tmp_path / "r.duckdb", files, LoadOptions(table="rr", skip_bad_rows=True))
    assert [(Path(f).name, n) for f, n in summary.rejected_at] == BAD
    assert summary.rejected_lines == [n for _, n in BAD]


def test_a_load_whose_every_record_is_rejected_names_the_file_of_the_first(tmp_path: Path) -> None:
    (tmp_path / "d.csv").write_text("id,amount\n1,5,1\n")
    (tmp_path / "c.csv").write_text("id,amount\n1,5,1\n2,5,9\n")
    with pytest.raises(LoadError, match=r"was rejected \(3, first at \S*d\.csv line 2\)"):
        load_files(
            tmp_path / "r.duckdb",
            [str(tmp_path / "d.csv"), str(tmp_path / "c.csv")],
            LoadOptions(table="rr", skip_bad_rows=True, delimiter=","),
        )
