"""Behaviours a mutation run over tools/aggregate/sql.py left unchecked (docs/architecture.md, "Mutation
testing"): each test here kills a mutant that survived the aggregate tests."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from analytics_agent.workspace.workspace import Workspace


@pytest.fixture
def ws(tmp_path: Path):
    path = tmp_path / "g.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE sales AS SELECT * FROM (VALUES ('Jan', 10), ('Jan', 5), ('Feb', 7), ('Mar', 2)) "
            "v(month, amount)"
        )
    workspace = Workspace.open(path)
    yield workspace
    workspace.close()


def test_a_group_none_of_whose_rows_meets_every_metrics_condition_is_listed_with_zero(ws) -> None:
    """Every metric reads only rows with amount > 6; Mar has none. Said once in WHERE (as without
    group_by) the condition would drop Mar from the result: it must be there with count 0. Kills the
    mutant ``_hoisted(...) if not not plan.keys`` in sql.build_query."""
    outcome = ws.executor.execute(
        "aggregate",
        {
            "table": "sales",
            "metrics": [
                {"fn": "count", "where": "amount > 6"},
                {"fn": "sum", "column": "amount", "where": "amount > 6"},
            ],
            "group_by": ["month"],
            "order_by": "month",
        },
    )
    assert not outcome.is_error, outcome.text
    rows = [tuple(r) for r in json.loads(outcome.text)["rows"]]
    expected = (
        ws.cursor()
        .execute(
            "SELECT month, count(*) FILTER (WHERE amount > 6), sum(amount) FILTER (WHERE amount > 6) "
            "FROM sales GROUP BY month ORDER BY month"
        )
        .fetchall()
    )
    assert rows == expected == [("Feb", 1, 7), ("Jan", 1, 10), ("Mar", 0, None)]
