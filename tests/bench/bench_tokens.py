"""4. Tokens (o200k): the tool specs, every tool's result on the sample data, and what free SQL that reads
raw rows would cost for the same questions.

The raw-rows side serialises the rows a model would have to read to answer the same question itself (e.g.
every order in the date range) as a JSON list of objects, the usual shape of a SQL tool's result, and also
as compact ``columns`` + ``rows`` arrays (our own result shape without the cap). Counts are exact, not
extrapolated.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from tests.bench.common import Result
from tests.bench.workload import domain_arguments, extra_arguments, open_all

SPEC_TARGET = 1_600
RESULT_TARGET = 1_000

_RANGE_ORDERS = "SELECT * FROM orders WHERE day BETWEEN $start AND $end"
_RANGE_ITEMS = (
    "SELECT o.*, i.product_id, p.name AS product, p.category, i.quantity, i.unit_price FROM orders o "
    "JOIN order_items i USING (order_id) JOIN products p USING (product_id) WHERE o.day BETWEEN $start AND $end"
)
RAW_SQL = {
    "sales_summary": "SELECT * FROM orders WHERE city = $city AND day = $day",
    "get_order": _RANGE_ITEMS.replace("o.day BETWEEN $start AND $end", "o.order_id = $order_id"),
    "customer_summary": _RANGE_ITEMS.replace("o.day BETWEEN $start AND $end", "o.customer_id = $customer_id"),
    "revenue_trend": _RANGE_ORDERS,
    "city_ranking": _RANGE_ORDERS,
    "top_products": _RANGE_ITEMS,
    "category_mix": _RANGE_ITEMS,
    "cancellation_rates": _RANGE_ORDERS,
    "average_order_value": _RANGE_ORDERS,
    "compare_periods": "SELECT * FROM orders WHERE day BETWEEN $base_start AND $end",
    "repeat_customers": _RANGE_ORDERS,
    "channel_mix": _RANGE_ORDERS,
    "store_overview": "SELECT * FROM orders",
    "aggregate": "SELECT * FROM orders",  # both benchmark calls aggregate every order
    "run_sql": "SELECT * FROM orders",
}


def encoder():
    import bpe_openai

    return bpe_openai.get_encoding("o200k_base")


def count(text: str) -> int:
    """Tokens of ``text``; long texts are cut into ~200 kB pieces at a ``,`` (the encoder refuses very long
    inputs), which can shift the count by at most a token or two per piece."""
    total, start = 0, 0
    while start < len(text):
        end = len(text) if len(text) - start <= _PIECE else text.rfind(",", start, start + _PIECE) + 1
        end = end if end > start else start + _PIECE
        total += len(_ENCODER.encode(text[start:end]))
        start = end
    return total


_PIECE = 200_000


_ENCODER: Any = None


def run(*, log=print) -> Result:
    global _ENCODER
    from analytics_agent.db.connect import ensure_database

    _ENCODER = encoder()
    result = Result(
        f"4. tokens (o200k): specs target <= {SPEC_TARGET:,}, each result <= {RESULT_TARGET:,}",
        ["tool", "spec", "result", "estimate", "raw_rows", "raw_json_objects", "raw_compact", "target"],
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sample.duckdb"
        ensure_database(path, sample_data=True)
        with open_all(path) as ws:
            _fill(result, ws)
    return result


def _fill(result: Result, ws) -> None:
    openai_specs = ws.registry.openai_tools()
    calls: dict[str, list[dict[str, Any]]] = {
        n: [a] for n, a in domain_arguments(ws.cursor(), ws.registry).items()
    }
    for name, arguments in extra_arguments().items():
        calls.setdefault(name, arguments)
    biggest = 0
    for tool, spec in zip(ws.registry, openai_specs, strict=True):
        spec_tokens = count(json.dumps(spec, separators=(",", ":"), ensure_ascii=False))
        for args in calls.get(tool.name, [None]):
            if args is None:
                result.rows.append([tool.name, spec_tokens, "-", "-", "-", "-", "-", "no arguments"])
                continue
            outcome = ws.executor.execute(tool.name, args)
            tokens = count(outcome.text)
            biggest = max(biggest, tokens)
            raw = _raw(ws, tool.name, args)
            ok = tokens <= RESULT_TARGET and not outcome.is_error
            result.rows.append(
                [tool.name, spec_tokens, tokens, outcome.tokens, *raw, "ok" if ok else "MISSED"]
            )
            if outcome.is_error:
                result.notes.append(f"{tool.name}: {outcome.text}")
    total = _spec_summary(result, ws, openai_specs)
    result.summary["spec target met (default set)"] = total <= SPEC_TARGET
    result.summary["largest result"] = biggest
    rows = _raw_rows(ws, "SELECT * FROM orders LIMIT 2000", {})
    result.summary["2,000 raw order rows (JSON objects / compact)"] = (
        f"{count(_as_objects(*rows)):,} / {count(_as_compact(*rows)):,}"
    )
    agg = ws.executor.execute("city_ranking", calls["city_ranking"][0])
    result.summary["the same question as one aggregate (city_ranking, all days)"] = count(agg.text)
    result.notes.append(
        "raw_*: the rows free SQL would have to read to answer the same question (e.g. every order in the "
        "range); estimate: the executor's own token estimate of its result (used for the 1,000 cap)"
    )


def _spec_summary(result: Result, ws, openai_specs: list[dict[str, Any]]) -> int:
    """Spec-set totals: the default set (everything but the opt-in run_sql), and with run_sql."""
    sets = {
        "default": [s for s in openai_specs if s["function"]["name"] != "run_sql"],
        "with --allow-sql": openai_specs,
    }
    totals = {}
    for label, specs in sets.items():
        totals[label] = count(json.dumps(specs, separators=(",", ":"), ensure_ascii=False))
        result.summary[f"spec set {label}: {len(specs)} tools, OpenAI JSON"] = totals[label]
    default_names = {s["function"]["name"] for s in sets["default"]}
    bedrock = ws.registry.bedrock_tool_config()
    bedrock["tools"] = [t for t in bedrock["tools"] if t["toolSpec"]["name"] in default_names]
    result.summary["spec set default, Bedrock toolConfig"] = count(
        json.dumps(bedrock, separators=(",", ":"), ensure_ascii=False)
    )
    strict = [s for s in ws.registry.openai_tools(strict=True) if s["function"]["name"] in default_names]
    result.summary["spec set default, OpenAI strict"] = count(
        json.dumps(strict, separators=(",", ":"), ensure_ascii=False)
    )
    return totals["default"]


def _raw(ws, name: str, args: dict[str, Any]) -> list[Any]:
    sql = RAW_SQL.get(name)
    if sql is None:
        return ["-", "-", "-"]
    columns, rows = _raw_rows(ws, sql, args)
    return [len(rows), count(_as_objects(columns, rows)), count(_as_compact(columns, rows))]


def _raw_rows(ws, sql: str, args: dict[str, Any]) -> tuple[list[str], list[tuple]]:
    import re

    used = set(re.findall(r"\$([a-z_]+)", sql))
    values = dict(args)
    for name, (first, last) in {"period": ("start", "end"), "baseline": ("base_start", "base_end")}.items():
        if name in values:  # "YYYY-MM-DD..YYYY-MM-DD" tools: the raw SQL takes both ends
            values[first], values[last] = values.pop(name).split("..")
    cursor = ws.cursor()
    try:
        cursor.execute(sql, {k: v for k, v in values.items() if k in used})
        return [d[0] for d in cursor.description], cursor.fetchall()
    finally:
        cursor.close()


def _as_objects(columns: list[str], rows: list[tuple]) -> str:
    from analytics_agent.db.values import to_jsonable

    return json.dumps(
        [dict(zip(columns, to_jsonable(list(r)), strict=True)) for r in rows], ensure_ascii=False
    )


def _as_compact(columns: list[str], rows: list[tuple]) -> str:
    from analytics_agent.db.values import to_jsonable

    payload = {"columns": columns, "rows": [to_jsonable(list(r)) for r in rows], "row_count": len(rows)}
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
