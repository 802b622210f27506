"""``--skip-bad-rows`` with several files (issue 38, item 8): DuckDB refuses to set rows aside while it
matches columns by name, and the load failed with its raw "Binder Error: REJECTS_TABLE option is not
supported when UNION_BY_NAME is set to true". Files with the same header now load with their bad rows set
aside; files whose columns differ are refused in one line (read by position, a reordered header would put
one column's numbers under another's name)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from analytics_agent.db.load.options import load_options
from analytics_agent.db.load.run import load_files
from analytics_agent.errors import LoadError


def load(tmp_path: Path, *texts: str):
    paths = []
    for i, text in enumerate(texts, start=1):
        paths.append(tmp_path / f"part{i}.csv")
        paths[-1].write_text(text)
    return load_files(
        tmp_path / "t.duckdb", [str(p) for p in paths], load_options(table="t", skip_bad_rows=True)
    )


def test_files_with_one_header_load_and_set_their_bad_rows_aside(tmp_path: Path) -> None:
    summary = load(
        tmp_path,
        "a,b\n1,2\n3,4\n5,6\n7,8,9\n10,11\n12,13\n",
        "a,b\n20,21\n22,23\nx,y,z,w\n24,25\n26,27\n",
    )
    assert summary.rows_loaded == 9
    assert len(summary.rejected_lines) == 2
    with duckdb.connect(str(tmp_path / "t.duckdb"), read_only=True) as conn:
        assert conn.execute("SELECT sum(a), sum(b) FROM t").fetchone() == (
            1 + 3 + 5 + 10 + 12 + 20 + 22 + 24 + 26,
            2 + 4 + 6 + 11 + 13 + 21 + 23 + 25 + 27,
        )


@pytest.mark.parametrize(
    ("second", "has"),
    [
        ("a,b,c\n8,9,1\n", "part2.csv has a, b, c, part1.csv has a, b"),
        ("b,a\n9,8\n", "part2.csv has b, a, part1.csv has a, b"),
        ("a,amount\n8,9\n", "part2.csv has a, amount, part1.csv has a, b"),
    ],
    ids=["extra column", "reordered", "renamed"],
)
def test_files_whose_columns_differ_are_refused_in_one_line(tmp_path: Path, second: str, has: str) -> None:
    with pytest.raises(LoadError) as caught:
        load(tmp_path, "a,b\n1,2\n3,4\n", second)
    message = str(caught.value)
    assert message.startswith("--skip-bad-rows needs files whose headers name the same columns")
    assert has in message and "\n" not in message and "Binder" not in message
