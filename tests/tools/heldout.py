"""What the held-out set tests share: loading a set's CSVs both ways (our loader, DuckDB's read_csv), and
checking one aggregate call against the ground-truth SQL."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.load.options import LoadOptions
from analytics_agent.db.load.run import load_files
from analytics_agent.db.values import to_jsonable
from analytics_agent.workspace.workspace import Workspace


def loaded_workspace(db: Path, data: Path, files: Mapping[str, str]) -> Iterator[Workspace]:
    """The set's files loaded with default options, as a user would."""
    for name in files.values():
        load_files(db, [str(data / name)], LoadOptions())
    ws = Workspace.open(db)
    yield ws
    ws.close()


def truth_connection(data: Path, files: Mapping[str, str]) -> Iterator[duckdb.DuckDBPyConnection]:
    """The same files read by DuckDB's own read_csv, where the ground-truth SQL runs."""
    conn = duckdb.connect()
    for table, name in files.items():
        conn.execute(f"CREATE TABLE {table} AS FROM read_csv(?)", [str(data / name)])
    yield conn
    conn.close()


def same(got: Any, want: Any) -> bool:
    if isinstance(got, int | float) and isinstance(want, int | float) and not isinstance(got, bool):
        return abs(got - want) <= 1e-6 * max(1.0, abs(want))
    if isinstance(got, str) and isinstance(want, int):  # a year label "2012" for year(date) = 2012
        if len(got) == 7 and got[4] == "-" and 1 <= want <= 12:  # a month label "2008-03" for month(date) = 3
            return got[5:].isdigit() and int(got[5:]) == want
        if len(got) == 5 and got.endswith("s"):  # a decade label "1950s" for year // 10 * 10 = 1950
            return got[:4] == str(want)
        return got == str(want)
    if isinstance(got, str) and isinstance(want, str) and len(got) == 3 and got != want:
        return want.startswith(got)  # "Nov" for monthname's "November", "Mon" for dayname's "Monday"
    return got == want


def assert_one_call_answers(
    ws: Workspace, truth: duckdb.DuckDBPyConnection, question: dict, entry: dict
) -> None:
    """The question's one call returns exactly the ground truth's rows (in order when it matters)."""
    outcome = ws.executor.execute("aggregate", json.dumps(entry["call"], default=str))
    assert not outcome.is_error, outcome.text
    result = json.loads(outcome.text)
    assert not result.get("truncated")
    picked = [result["columns"].index(c) for c in entry.get("columns", result["columns"])]
    got = [[row[i] for i in picked] for row in result["rows"]]
    want = [list(to_jsonable(list(r))) for r in truth.execute(question["sql"]).fetchall()]
    if not question.get("ordered"):
        got, want = sorted(got, key=repr), sorted(want, key=repr)
    assert len(got) == len(want) and all(
        len(g) == len(w) and all(same(x, y) for x, y in zip(g, w, strict=True))
        for g, w in zip(got, want, strict=True)
    ), f"{question['question']}\n got: {got}\nwant: {want}"
