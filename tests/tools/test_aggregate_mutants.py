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


def test_baseline_previous_of_a_group_is_its_last_bucket_with_rows_named(tmp_path) -> None:
    """A had no sale in February, B none in January: A's March is compared with A's January (its last month
    with rows, named in month_baseline), B's February has none before it (NULL), as a LAG over each
    region's months with rows written by hand says. (It was "0 for the calendar month before", which the
    silent-cases issue replaced: data recorded every few years compared with an empty bucket.) Kills a
    mutant that drops the per-group partition or the label."""
    path = tmp_path / "b.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE sales AS SELECT * FROM (VALUES (DATE '2024-01-05', 'A', 10), "
            "(DATE '2024-02-03', 'B', 7), (DATE '2024-03-09', 'A', 1)) v(day, region, amount)"
        )
    ws = Workspace.open(path)
    try:
        outcome = ws.executor.execute(
            "aggregate",
            {
                "table": "sales",
                "metrics": [{"fn": "count"}, {"fn": "sum", "column": "amount"}],
                "group_by": ["region"],
                "time_grain": "month",
                "baseline": "previous",
            },
        )
        expected = (
            ws.cursor()
            .execute(
                "WITH m AS (SELECT date_trunc('month', day) AS m, region, count(*) AS n, sum(amount) AS s "
                "FROM sales GROUP BY ALL) SELECT strftime(m, '%Y-%m'), strftime(lag(m) OVER w, '%Y-%m'), region, "
                "n, lag(n) OVER w, s, lag(s) OVER w FROM m WINDOW w AS (PARTITION BY region ORDER BY m) ORDER BY m"
            )
            .fetchall()
        )
    finally:
        ws.close()
    result = json.loads(outcome.text)
    assert result["columns"][:5] == ["month", "month_baseline", "region", "count", "count_baseline"]
    assert result["columns"][7:9] == ["sum_amount", "sum_amount_baseline"]
    got = [(r[0], r[1], r[2], r[3], r[4], r[7], r[8]) for r in result["rows"]]
    assert (
        got
        == expected
        == [
            ("2024-01", None, "A", 1, None, 10, None),
            ("2024-02", None, "B", 1, None, 7, None),
            ("2024-03", "2024-01", "A", 1, 1, 1, 10),
        ]
    )
