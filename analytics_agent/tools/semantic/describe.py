"""What ``describe_table`` adds about a table from the semantic model: how to reach related tables, its
named metrics and dimensions (with synonyms, so "sales" finds revenue). Pure; only the keys that apply."""

from __future__ import annotations

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
    extras = [m.description] if m.description else []
    if m.synonyms:
        extras.append("also: " + ", ".join(m.synonyms))
    return text + (f" ({'; '.join(extras)})" if extras else "")
