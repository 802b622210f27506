"""8. The groundedness check: how often it catches a wrong number, and what it costs per answer.

Real tool results on the sample data (a one-object result, a 10-row ranking, a 31-day trend, a 25-row
product list, and all four together). A "wrong" number is a true value of the results moved by 3-20 %
(a model misremembering) or a random percentage; each is written alone in an answer that cites nothing,
and in an answer that also names every row (the weakest case: every column may then be paired).
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from analytics_agent.agent.grounding import Evidence, unverified_numbers
from analytics_agent.agent.results import records_of
from analytics_agent.db.connect import ensure_database
from analytics_agent.workspace.workspace import Workspace
from tests.bench.common import Result

OCTOBER = "2026-10-01..2026-10-31"
CALLS = {
    "sales_summary (object)": [("sales_summary", {"city": "Pune", "day": "2026-10-24"})],
    "city_ranking (10 rows)": [("city_ranking", {"period": OCTOBER})],
    "revenue_trend daily (31 rows)": [("revenue_trend", {"period": OCTOBER, "grain": "day"})],
    "top_products (25 rows)": [("top_products", {"period": OCTOBER, "top": 25})],
}
CALLS["all four results"] = [call for calls in list(CALLS.values()) for call in calls]
SAMPLES = 300


def run(samples: int = SAMPLES) -> Result:
    result = Result(
        "grounding",
        [
            "results",
            "values >= 100",
            "wrong amounts caught",
            "wrong % caught",
            "caught, all rows named",
            "ms/check",
        ],
    )
    rng = random.Random(20261024)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.duckdb"
        ensure_database(db, sample_data=True)
        with Workspace.open(db) as ws:
            for label, calls in CALLS.items():
                contents = [ws.executor.execute(name, json.dumps(args)).text for name, args in calls]
                result.rows.append([label, *_measure(contents, rng, samples)])
    result.notes.append(
        "caught = share of wrong numbers flagged as unverified; true values are never flagged "
        "(tests/evaluation/test_bundled_set.py)"
    )
    return result


def _measure(contents: list[str], rng: random.Random, samples: int) -> list[object]:
    evidence = Evidence(results=contents, context=[])
    records = records_of(contents)
    values = sorted({v for r in records for v in r.values() if v >= 100})
    names = " ".join(sorted({label for r in records for label in r.labels}))
    amounts = [
        f"₹{round(rng.choice(values) * (1 + rng.choice([-1, 1]) * rng.uniform(0.03, 0.2))):,}"
        for _ in range(samples)
    ]
    percents = [f"{rng.uniform(0, 100):.1f}%" for _ in range(samples)]

    def caught(numbers: list[str], prefix: str = "") -> str:
        flagged = sum(bool(unverified_numbers(f"{prefix}It was {n}.", evidence)) for n in numbers)
        return f"{flagged / len(numbers):.0%}"

    answer = " ".join(f"It was {n}." for n in amounts[:20])  # twenty wrong numbers: every one searched
    started = time.perf_counter()
    for _ in range(20):
        unverified_numbers(answer, evidence)
    per_check = (time.perf_counter() - started) / 20 * 1000
    named = caught(amounts + percents, prefix=names + ". ")
    return [len(values), caught(amounts), caught(percents), named, f"{per_check:.1f}"]
