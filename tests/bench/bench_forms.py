"""8. The newer aggregate forms (related tables, conditional metrics, pct, share, group conditions, period
comparison, day of week, median, named metrics) through the executor, on 10M orders, against two
baselines; and the Python memory of each call at every size.

- **The same SQL** (``tax``, issue 22's per-call target): the planner's own query and bound values, run
  straight on the same sandboxed connection and fetched whole. What the tool adds: validating, planning,
  the value checks' queries, the bounded fetch, shaping and serialising.
- **The same question written by hand** (``vs_hand``): the plain SQL a person would write (one level, no
  labels). Where this side is faster, the difference is the query's shape, not the call: the planner keeps
  a group whose rows a condition or a period leaves out (it shows 0, not nothing), where the hand-written
  query drops those rows in ``WHERE`` and with them such groups.

Runs alternate so background load hits both alike; medians are compared (wall and CPU).
"""

from __future__ import annotations

import json
import sys
import tracemalloc
from typing import Any

from tests.bench.common import Result, fmt_ms, interleaved
from tests.bench.data import database

TARGET = 1.10
PAID = "status NOT IN ('cancelled', 'returned')"
SEPT, AUG = ("2026-09-01", "2026-09-30"), ("2026-08-01", "2026-08-31")

FORMS: list[tuple[str, dict[str, Any], str]] = [
    (
        "join: units by products.category",
        {
            "table": "order_items",
            "group_by": ["products.category"],
            "metrics": [{"fn": "sum", "column": "quantity"}],
        },
        "SELECT p.category, sum(i.quantity) FROM order_items i LEFT JOIN products p ON i.product_id = p.product_id "
        "GROUP BY 1 ORDER BY 2 DESC",
    ),
    (
        "pct: cancelled % by city",
        {
            "table": "orders",
            "group_by": ["city"],
            "metrics": [{"fn": "pct", "where": "status = 'cancelled'"}],
        },
        "SELECT city, 100.0 * count(*) FILTER (WHERE status = 'cancelled') / count(*) FROM orders "
        "GROUP BY 1 ORDER BY 2 DESC",
    ),
    (
        "conditional sum + share by channel",
        {
            "table": "orders",
            "group_by": ["channel"],
            "metrics": [
                {"fn": "sum", "column": "amount", "where": PAID.replace("NOT IN", "not in"), "share": True}
            ],
        },
        f"SELECT channel, sum(amount) s, 100.0 * s / sum(s) OVER () FROM orders WHERE {PAID} "
        "GROUP BY 1 ORDER BY 2 DESC",
    ),
    (
        "having: avg amount by city, > 1000 orders",
        {
            "table": "orders",
            "group_by": ["city"],
            "metrics": [{"fn": "avg", "column": "amount"}, {"fn": "count"}],
            "filters": [{"column": "count", "op": ">", "value": 1000}],
        },
        "SELECT city, avg(amount), count(*) FROM orders GROUP BY 1 HAVING count(*) > 1000 ORDER BY 2 DESC",
    ),
    (
        "period vs baseline: revenue by channel",
        {
            "table": "orders",
            "group_by": ["channel"],
            "metrics": [{"metric": "revenue"}],
            "period": "..".join(SEPT),
            "baseline": "..".join(AUG),
        },
        f"SELECT channel, sum(amount) FILTER (WHERE day BETWEEN DATE '{SEPT[0]}' AND DATE '{SEPT[1]}') s, "
        f"sum(amount) FILTER (WHERE day BETWEEN DATE '{AUG[0]}' AND DATE '{AUG[1]}') b, s - b, "
        f"100.0 * (s - b) / b FROM orders WHERE {PAID} AND day BETWEEN DATE '{AUG[0]}' AND DATE '{SEPT[1]}' "
        "GROUP BY 1 ORDER BY 2 DESC",
    ),
    (
        "day_of_week",
        {"table": "orders", "time_grain": "day_of_week"},
        "SELECT isodow(day), count(*) FROM orders GROUP BY 1 ORDER BY 1",
    ),
    (
        "median amount by channel",
        {"table": "orders", "group_by": ["channel"], "metrics": [{"fn": "median", "column": "amount"}]},
        "SELECT channel, median(amount) FROM orders GROUP BY 1 ORDER BY 2 DESC",
    ),
    (
        "named metric by month",
        {"table": "orders", "time_grain": "month", "metrics": [{"metric": "avg_order_value"}]},
        f"SELECT date_trunc('month', day), avg(amount) FROM orders WHERE {PAID} GROUP BY 1 ORDER BY 1",
    ),
]


def run(
    *, size: str = "10m", sizes: tuple[str, ...] = ("100k", "1m", "10m"), runs: int = 7, log=print
) -> Result:
    from analytics_agent.workspace.workspace import Workspace

    result = Result(
        f"8. aggregate forms on {size} orders vs the same SQL and vs hand-written SQL (target <= {TARGET:.2f}x); "
        "Python KiB per call",
        [
            "form",
            "tool_ms",
            "same_sql_ms",
            "tax",
            "tax_cpu",
            "hand_ms",
            "vs_hand",
            "vs_hand_cpu",
            *[f"py_kib_{s}" for s in sizes],
            "tax_target",
            "hand_target",
        ],
    )
    peaks = {s: _peaks(Workspace, database(s, log=log)) for s in sizes}
    with Workspace.open(database(size, log=log)) as ws:
        cursor = ws.cursor()
        for label, args, sql in FORMS:
            text = json.dumps(args)
            outcome = ws.executor.execute("aggregate", text)
            if outcome.is_error:
                result.notes.append(f"{label}: {outcome.text}")
                continue
            planned, values = _planned(ws.registry, args)
            call = lambda text=text: ws.executor.execute("aggregate", text)  # noqa: E731
            same = interleaved(lambda q=planned, v=values: cursor.execute(q, v).fetchall(), call, runs=runs)
            hand = interleaved(lambda sql=sql: cursor.execute(sql).fetchall(), call, runs=runs)
            tax, tax_cpu = _ratios(same)
            vs_hand, vs_hand_cpu = _ratios(hand)
            result.rows.append([
                label, fmt_ms(same.second_wall), fmt_ms(same.first_wall), tax, tax_cpu, fmt_ms(hand.first_wall),
                vs_hand, vs_hand_cpu, *[round(peaks[s][label], 1) for s in sizes],
                _verdict(tax, tax_cpu), _verdict(vs_hand, vs_hand_cpu),
            ])  # fmt: skip
        cursor.close()
    result.notes.append("py_kib: tracemalloc peak of one call; flat across sizes = no rows in Python")
    return result


def _planned(registry, args: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The SQL and bound values the tool runs for ``args`` (the bounded fetch's wrapper aside)."""
    from analytics_agent.tools.aggregate.sql import build_query

    tool = registry.get("aggregate")
    return build_query(tool.plan(tool.arguments.model_validate(args)))


def _ratios(pair) -> tuple[float, float]:
    """The tool's medians over the baseline's (the tool is the second side), wall and CPU."""
    return round(pair.second_wall / pair.first_wall, 3), round(pair.second_cpu / max(pair.first_cpu, 1e-9), 3)


def _verdict(wall: float, cpu: float) -> str:
    return "ok" if min(wall, cpu) <= TARGET else "MISSED"


def _peaks(workspace_cls, path) -> dict[str, float]:
    peaks = {}
    with workspace_cls.open(path) as ws:
        for label, args, _ in FORMS:
            text = json.dumps(args)
            ws.executor.execute("aggregate", text)  # warm-up
            tracemalloc.start()
            ws.executor.execute("aggregate", text)
            peaks[label] = tracemalloc.get_traced_memory()[1] / 1024
            tracemalloc.stop()
    return peaks


if __name__ == "__main__":
    from tests.bench.common import print_table

    print_table(run(size=sys.argv[1] if len(sys.argv) > 1 else "10m"))
