"""A limit never cuts inside a tie (issue 20, found on the LA riots export of vega_datasets): "which
neighborhood had the most deaths?" with limit 1 named Compton alone while three more had the same 4."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from analytics_agent.workspace.workspace import Workspace


@pytest.fixture
def deaths_db(tmp_path: Path) -> Path:
    path = tmp_path / "deaths.duckdb"
    rows = [("Compton", 4), ("Hollywood", 4), ("Koreatown", 4), ("Watts", 2), ("Westlake", 1), ("Carson", 1)]
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE deaths (neighborhood VARCHAR, day DATE)")
        for name, n in rows:
            for i in range(n):
                conn.execute("INSERT INTO deaths VALUES (?, DATE '1992-04-29' + ?::INT)", [name, i])
    return path


def rows(db: Path, args: dict[str, Any]) -> list[list[Any]]:
    with Workspace.open(db) as ws:
        out = ws.executor.execute("aggregate", json.dumps(args))
    assert not out.is_error, out.text
    return json.loads(out.text)["rows"]


def truth(db: Path, limit: int, descending: bool) -> list[list[Any]]:
    """Plain DuckDB: every group whose count ranks within the limit, ties included."""
    direction = "DESC" if descending else "ASC"
    with duckdb.connect(str(db), read_only=True) as conn:
        found = conn.execute(
            f"SELECT neighborhood, count(*) AS n FROM deaths GROUP BY 1 "
            f"QUALIFY rank() OVER (ORDER BY n {direction}) <= {limit} ORDER BY n {direction}, 1"
        ).fetchall()
    return [list(r) for r in found]


@pytest.mark.parametrize(("limit", "descending"), [(1, True), (2, True), (4, True), (1, False), (5, False)])
def test_a_limit_keeps_every_row_tied_with_the_last(deaths_db, limit, descending):
    args = {"table": "deaths", "group_by": ["neighborhood"], "metrics": [{"fn": "count"}],
            "order_by": "-count" if descending else "count", "limit": limit}  # fmt: skip
    assert rows(deaths_db, args) == truth(deaths_db, limit, descending)


def test_the_default_order_keeps_ties_too_and_time_keys_are_cut_exactly(deaths_db):
    top = rows(
        deaths_db, {"table": "deaths", "group_by": ["neighborhood"], "metrics": [{"fn": "count"}], "limit": 1}
    )
    assert top == [["Compton", 4], ["Hollywood", 4], ["Koreatown", 4]]
    days = rows(deaths_db, {"table": "deaths", "metrics": [{"fn": "count"}], "time_grain": "day", "limit": 2})
    assert days == [["1992-04-29", 6], ["1992-04-30", 4]]
