"""aggregate's output columns stay distinct when a group_by column is named like the time grain (an audit
found this untested): a table with a text column ``month`` beside its date ``day``."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest

from analytics_agent.workspace.workspace import Workspace


@pytest.fixture
def ws(tmp_path: Path):
    path = tmp_path / "m.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute(
            "CREATE TABLE sales AS SELECT * FROM (VALUES (DATE '2024-01-05', 'Jan', 10), "
            "(DATE '2024-01-20', 'Jan', 5), (DATE '2024-02-03', 'Feb', 7), (DATE '2024-03-09', 'Jan', 1)) "
            "v(day, month, amount)"
        )
    workspace = Workspace.open(path)
    yield workspace
    workspace.close()


def test_a_group_by_column_named_like_the_grain_keeps_its_name_and_the_bucket_is_renamed(ws) -> None:
    outcome = ws.executor.execute(
        "aggregate",
        {
            "table": "sales",
            "metrics": [{"fn": "sum", "column": "amount"}],
            "group_by": ["month"],
            "time_grain": "month",
            "time_column": "day",
        },
    )
    assert not outcome.is_error, outcome.text
    result = json.loads(outcome.text)
    assert result["columns"] == ["day_month", "month", "sum_amount"]
    expected = (
        ws.cursor()
        .execute(
            "SELECT strftime(date_trunc('month', day), '%Y-%m'), month, sum(amount) FROM sales "
            "GROUP BY 1, 2 ORDER BY 1, 2"
        )
        .fetchall()
    )
    assert (
        [tuple(r) for r in result["rows"]]
        == expected
        == [
            ("2024-01", "Jan", 15),
            ("2024-02", "Feb", 7),
            ("2024-03", "Jan", 1),
        ]
    )


def test_without_the_clash_the_bucket_is_named_by_its_grain(ws) -> None:
    """The rename is for the clash only: the usual name of a month bucket is ``month``."""
    outcome = ws.executor.execute(
        "aggregate", {"table": "sales", "time_grain": "month", "time_column": "day"}
    )
    assert json.loads(outcome.text)["columns"] == ["month", "count"]
