"""Errors a tool call gets back stay small whatever the database holds (issue 17, group 6)."""

from __future__ import annotations

from pathlib import Path

import duckdb

from analytics_agent.suggest import MAX_LISTED, listing
from analytics_agent.tools.results.shaping import MAX_TOKENS, estimate_tokens
from analytics_agent.workspace.workspace import Workspace

COLUMNS = 10_000


def test_a_typo_on_a_10000_column_table_lists_twenty_columns_not_all(sample_db: Path) -> None:
    with duckdb.connect(str(sample_db)) as con:
        con.execute(
            "CREATE TABLE wide AS SELECT " + ", ".join(f"0 AS metric_{i:05d}" for i in range(COLUMNS))
        )
    with Workspace.open(sample_db) as ws:
        outcome = ws.executor.execute(
            "aggregate", {"table": "wide", "metrics": [{"fn": "sum", "column": "metric_x"}]}
        )
    assert outcome.is_error and "wide has no column 'metric_x'" in outcome.text
    assert f"… and {COLUMNS - MAX_LISTED:,} more" in outcome.text
    assert estimate_tokens(outcome.text) < MAX_TOKENS // 2  # it was ~89,700 before the list was bounded


def test_a_listing_says_how_many_it_left_out() -> None:
    assert listing(["a", "b"]) == "a, b"
    assert listing(range(25), limit=3) == "0, 1, 2, … and 22 more"


def test_a_huge_argument_value_is_not_echoed_back(workspace: Workspace) -> None:
    outcome = workspace.executor.execute("sales_summary", {"city": "C" * 1_000_000, "day": "2026-10-24"})
    assert outcome.is_error and len(outcome.text) < 2_000
