"""8. The newer aggregate forms (related tables, conditional metrics, pct, share, group conditions, period
comparison, day of week, median, named metrics) through the executor vs the same question as one SQL
statement written by hand, on 10M orders; and the Python memory of each call at every size.

The hand-written side is the plain SQL a person would write (one level, no labels), fetched whole on the
same sandboxed connection; the tool side validates, plans, runs its two-level query, shapes and
serialises. Runs alternate so background load hits both alike; medians are compared (wall and CPU).
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
        f"8. aggregate forms on {size} orders vs hand-written SQL (target <= {TARGET:.2f}x); Python KiB per call",
        ["form", "direct_ms", "tool_ms", "ratio", "cpu_ratio", *[f"py_kib_{s}" for s in sizes], "target"],
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
            pair = interleaved(lambda sql=sql: cursor.execute(sql).fetchall(),
                               lambda text=text: ws.executor.execute("aggregate", text), runs=runs)  # fmt: skip
            ratio, cpu = pair.second_wall / pair.first_wall, pair.second_cpu / max(pair.first_cpu, 1e-9)
            result.rows.append([
                label, fmt_ms(pair.first_wall), fmt_ms(pair.second_wall), round(ratio, 3), round(cpu, 3),
                *[round(peaks[s][label], 1) for s in sizes], "ok" if min(ratio, cpu) <= TARGET else "MISSED",
            ])  # fmt: skip
        cursor.close()
    result.notes.append("py_kib: tracemalloc peak of one call; flat across sizes = no rows in Python")
    return result


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
