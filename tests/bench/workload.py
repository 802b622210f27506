"""The questions the benchmarks ask: arguments for every domain tool, heavy where a tool can be heavy.

Date ranges span the whole data (2026-01-01 .. 2026-10-31) so each tool scans all the orders it may; ids
are real ones picked from the database at hand, so the point lookups find something. Arguments are chosen
by parameter name from each tool's own schema, so a renamed parameter does not break the benchmarks.
"""

from __future__ import annotations

from typing import Any

import duckdb

FIRST_DAY, LAST_DAY = "2026-01-01", "2026-10-31"
# Values by parameter name; the tools' schemas decide which are sent (start/end or period, and so on).
_BY_NAME: dict[str, Any] = {
    "start": FIRST_DAY,
    "end": LAST_DAY,
    "period": f"{FIRST_DAY}..{LAST_DAY}",
    "city": "Pune",
    "day": "2026-10-24",
    "grain": "month",
    "top": 10,
}
# compare_periods: October against September, whichever way its parameters are named.
_OVERRIDES: dict[str, dict[str, Any]] = {
    "compare_periods": {
        "start": "2026-10-01",
        "end": "2026-10-31",
        "base_start": "2026-09-01",
        "base_end": "2026-09-30",
        "period": "2026-10-01..2026-10-31",
        "baseline": "2026-09-01..2026-09-30",
    },
}


def domain_arguments(cursor: duckdb.DuckDBPyConnection, registry) -> dict[str, dict[str, Any]]:
    """Arguments for each bundled SQL tool, from its schema; a tool with a parameter we have no value for
    is left out (and reported by the benchmarks), never guessed."""
    order_id = cursor.execute(
        "SELECT order_id FROM orders WHERE length(order_id) > 6 ORDER BY order_id LIMIT 1 OFFSET 1000"
    ).fetchone()
    customer_id = cursor.execute(
        "SELECT customer_id FROM orders GROUP BY customer_id ORDER BY count(*) DESC, customer_id LIMIT 1"
    ).fetchone()[0]
    ids = {"order_id": order_id[0] if order_id else "A-1042", "customer_id": customer_id}
    found: dict[str, dict[str, Any]] = {}
    for tool in registry:
        if getattr(tool, "spec", None) is None:
            continue
        schema = registry.schema(tool.name)
        values = {**_BY_NAME, **ids, **_OVERRIDES.get(tool.name, {})}
        arguments = {k: values[k] for k in schema.get("properties", {}) if k in values}
        if set(schema.get("required", [])) <= set(arguments):
            found[tool.name] = arguments
    return found


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

    from analytics_agent.workspace.workspace import Workspace

    params = inspect.signature(Workspace.open).parameters
    return Workspace.open(path, **{k: True for k in ("generic", "allow_sql") if k in params})
