"""What a run found, for people and for machines. Pure: outcomes in, dicts and text out.

Per model: the pass rate, the grounded pass rate (right *and* every number traced to a tool), median
latency, tokens, and the cost when a price is known. ``compare`` lines up a run with an earlier one.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from analytics_agent.evaluation.runner import Outcome
from analytics_agent.present.tables import table

MAX_REASON_CHARS = 70


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


def summarize(
    outcomes: Sequence[Outcome], models: Sequence[str], prices: Mapping[str, Price] | None = None
) -> dict[str, Any]:
    """Totals over the run and one entry per model (in the order given)."""
    prices = prices or {}
    per_model = [_model_summary(m, [o for o in outcomes if o.model == m], prices.get(m)) for m in models]
    summary = {**_counts(outcomes), "models": per_model}
    costs = [m["cost_usd"] for m in per_model if "cost_usd" in m]
    if costs:
        summary["cost_usd"] = round(sum(costs), 6)
    return summary


def _counts(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    total = len(outcomes)
    passed = sum(o.passed for o in outcomes)
    grounded = sum(o.grounded for o in outcomes)
    both = sum(o.passed and o.grounded for o in outcomes)
    return {
        "passed": passed,
        "grounded": grounded,
        "total": total,
        "pass_rate": round(passed / total, 4) if total else 0.0,
        "grounded_pass_rate": round(both / total, 4) if total else 0.0,
    }


def _model_summary(model: str, outcomes: Sequence[Outcome], price: Price | None) -> dict[str, Any]:
    latencies = [o.latency_s for o in outcomes]
    entry = {
        "model": model,
        **_counts(outcomes),
        "errors": sum(o.reason.startswith(("error:", "internal error")) for o in outcomes),
        "median_latency_s": round(statistics.median(latencies), 3) if latencies else 0.0,
        "input_tokens": sum(o.input_tokens for o in outcomes),
        "output_tokens": sum(o.output_tokens for o in outcomes),
    }
    if price is not None:
        entry["cost_usd"] = round(price.cost(entry["input_tokens"], entry["output_tokens"]), 6)
    return entry


def payload(outcomes: Sequence[Outcome], summary: Mapping[str, Any]) -> dict[str, Any]:
    """The ``--json`` object: ``{"results": [...], "summary": {...}}``."""
    return {"results": [o.as_dict() for o in outcomes], "summary": dict(summary)}


def results_table(outcomes: Sequence[Outcome]) -> str:
    """One row per question (and model, and repeat): pass/fail with the reason, and what it cost."""
    rows = [
        [
            o.id,
            o.model,
            "pass" if o.passed else "FAIL",
            "yes" if o.grounded else "no",
            o.steps,
            o.tool_calls,
            o.input_tokens,
            o.output_tokens,
            f"{o.latency_s:.1f}",
            _clip(o.reason),
        ]
        for o in outcomes
    ]
    headers = ["question", "model", "result", "grounded", "steps", "calls", "in", "out", "seconds", "reason"]
    return table(headers, rows, right=(4, 5, 6, 7, 8))


def models_table(summary: Mapping[str, Any]) -> str:
    """One row per model: rates, median latency, tokens and cost."""
    rows = []
    for m in summary["models"]:
        cost = f"${m['cost_usd']:.4f}" if "cost_usd" in m else "-"
        rows.append(
            [
                m["model"],
                f"{m['passed']}/{m['total']} ({m['pass_rate']:.0%})",
                f"{m['grounded_pass_rate']:.0%}",
                m["errors"],
                f"{m['median_latency_s']:.1f}",
                m["input_tokens"],
                m["output_tokens"],
                cost,
            ]
        )
    headers = ["model", "passed", "grounded pass", "errors", "median s", "in tokens", "out tokens", "cost"]
    return table(headers, rows, right=(3, 4, 5, 6, 7))


def compare(previous: Mapping[str, Any], current: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each (question, model) whose pass or grounded rate changed between two runs' ``--json`` payloads,
    regressions first."""
    before, after = _rates(previous), _rates(current)
    changes = []
    for key in after.keys() & before.keys():
        (p0, g0), (p1, g1) = before[key], after[key]
        if (p0, g0) == (p1, g1):
            continue
        worse = p1 < p0 or (p1 == p0 and g1 < g0)
        changes.append(
            {"id": key[0], "model": key[1], "change": "regressed" if worse else "improved",
             "before": _state(p0, g0), "after": _state(p1, g1)}
        )  # fmt: skip
    return sorted(changes, key=lambda c: (c["change"] != "regressed", c["id"], c["model"]))


def _rates(run: Mapping[str, Any]) -> dict[tuple[str, str], tuple[float, float]]:
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for result in run.get("results", []):
        groups.setdefault((str(result["id"]), str(result["model"])), []).append(result)
    return {
        key: (sum(bool(r["passed"]) for r in rs) / len(rs), sum(bool(r["grounded"]) for r in rs) / len(rs))
        for key, rs in groups.items()
    }


def _state(passed: float, grounded: float) -> str:
    if passed in (0.0, 1.0) and grounded in (0.0, 1.0):
        return ("pass" if passed else "fail") + ("" if grounded else ", ungrounded")
    return f"{passed:.0%} pass, {grounded:.0%} grounded"


def compare_table(
    changes: Sequence[Mapping[str, Any]], previous: Mapping[str, Any], current: Mapping[str, Any]
) -> str:
    """The changes as a table under one line with both runs' pass rates."""
    was, now = previous.get("summary", {}), current.get("summary", {})
    head = f"Compared with the previous run: pass rate {was.get('pass_rate', 0):.0%} -> {now.get('pass_rate', 0):.0%}"
    if not changes:
        return head + "; no question changed."
    rows = [[c["id"], c["model"], c["change"], c["before"], c["after"]] for c in changes]
    return head + "\n" + table(["question", "model", "change", "before", "now"], rows)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON_CHARS else text[: MAX_REASON_CHARS - 3] + "..."
