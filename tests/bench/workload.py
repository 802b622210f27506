"""The questions the benchmarks ask: arguments for every domain tool, heavy where a tool can be heavy.

Date ranges span the whole data (2026-01-01 .. 2026-10-31) so each tool scans all the orders it may; ids
are real ones picked from the database at hand, so the point lookups find something.
"""

from __future__ import annotations

from typing import Any

import duckdb

FULL = {"start": "2026-01-01", "end": "2026-10-31"}


def domain_arguments(cursor: duckdb.DuckDBPyConnection) -> dict[str, dict[str, Any]]:
    """Arguments for each bundled SQL tool; a tool missing here is reported, not guessed."""
    order_id = cursor.execute(
        "SELECT order_id FROM orders WHERE length(order_id) > 6 ORDER BY order_id LIMIT 1 OFFSET 1000"
    ).fetchone()
    order_id = order_id[0] if order_id else "A-1042"
    customer_id = cursor.execute(
        "SELECT customer_id FROM orders GROUP BY customer_id ORDER BY count(*) DESC, customer_id LIMIT 1"
    ).fetchone()[0]
    return {
        "sales_summary": {"city": "Pune", "day": "2026-10-24"},
        "get_order": {"order_id": order_id},
        "customer_summary": {"customer_id": customer_id},
        "revenue_trend": {**FULL, "grain": "month"},
        "city_ranking": FULL,
        "top_products": {**FULL, "by": "revenue", "top": 10},
        "category_mix": FULL,
        "cancellation_rates": FULL,
        "average_order_value": {**FULL, "by": "city"},
        "compare_periods": {
            "start": "2026-10-01",
            "end": "2026-10-31",
            "base_start": "2026-09-01",
            "base_end": "2026-09-30",
        },
        "repeat_customers": FULL,
        "channel_mix": FULL,
        "store_overview": {},
    }


def extra_arguments() -> dict[str, list[dict[str, Any]]]:
    """Calls of the generic tools (run only where the registry has them)."""
    return {
        "list_tables": [{}],
        "describe_table": [{"table": "orders"}],
        "aggregate": [
            {
                "table": "orders",
                "metrics": [{"fn": "count"}, {"fn": "sum", "column": "amount"}],
                "group_by": ["city"],
            },
            {
                "table": "orders",
                "metrics": [{"fn": "sum", "column": "amount"}],
                "time_column": "day",
                "time_grain": "month",
                "filters": [{"column": "status", "op": "in", "value": ["delivered", "in_transit"]}],
            },
        ],
        "run_sql": [
            {"query": "SELECT city, count(*) AS orders, sum(amount) AS amount FROM orders GROUP BY city"}
        ],
    }


def open_all(path):
    """The workspace with every tool on (aggregate and run_sql too) where this version has the options."""
    import inspect

    from analytics_agent.workspace import Workspace

    params = inspect.signature(Workspace.open).parameters
    return Workspace.open(path, **{k: True for k in ("generic", "allow_sql") if k in params})
