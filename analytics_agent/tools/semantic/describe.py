"""What ``describe_table`` adds about a table from the semantic model: how to reach related tables, its
named metrics and dimensions (with synonyms, so "sales" finds revenue). Pure; only the keys that apply."""

from __future__ import annotations

import json
from typing import Any

from analytics_agent.tools.aggregate_refs import link_names
from analytics_agent.tools.semantics import Semantics


def semantic_summary(table: str, semantics: Semantics) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    links = link_names(table, semantics.relationships)
    if links:  # the key is the prefix aggregate takes: group_by "airlines.name"
        summary["related"] = {name: f"{r.column} -> {r.target}.{r.key}" for name, r in links.items()}
    metrics = {n: _metric(m) for n, m in semantics.metrics.items() if m.table == table}
    if metrics:
        summary["metrics"] = metrics
    dimensions = semantics.dimensions.get(table, {})
    if dimensions:
        summary["dimensions"] = dict(dimensions)
    if table in semantics.time_columns:
        summary["time_column"] = semantics.time_columns[table]
    return summary


def _metric(m: Any) -> str:
    if m.ratio:
        text = f"{m.ratio[0]} / {m.ratio[1]}"
    else:
        text = f"{m.fn}({m.column or '*'})" + (f" where {m.where}" if m.where else "")
    # A semantic file may come from someone else: its description is data the model reads, quoted (JSON)
    # and cut short, never prose that could pass for our instructions.
    extras = [f"described as {json.dumps(_clip(m.description), ensure_ascii=False)}"] if m.description else []
    if m.synonyms:
        extras.append("also: " + ", ".join(m.synonyms))
    return text + (f" ({'; '.join(extras)})" if extras else "")


DESCRIPTION_CHARS = 300


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= DESCRIPTION_CHARS else flat[: DESCRIPTION_CHARS - 1] + "…"
