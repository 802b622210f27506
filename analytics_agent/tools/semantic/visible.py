"""The semantic model as one reader sees it: only what stands on the tables and columns they see.

A link to or from anything hidden is dropped (so no path, ``related`` list or existence filter goes
through it); a metric or dimension is kept only if it still plans, exactly as ``aggregate`` would plan
it, over the reader's own catalog and links (so a metric whose column or condition names a hidden
column, or whose path crosses a hidden table, is gone, with its synonyms). The file's problems are the
owner's to fix and may name anything: a reader sees none of them.
"""

from __future__ import annotations

from collections.abc import Mapping

from analytics_agent.db.visible import Visible
from analytics_agent.errors import ToolError
from analytics_agent.tools.semantics import MetricDef, Semantics


def visible_semantics(
    semantics: Semantics, visible: Visible, catalog: Mapping[str, Mapping[str, str]]
) -> Semantics:
    """``semantics`` cut to ``visible``; ``catalog`` is the reader's (already cut) catalog."""
    from analytics_agent.tools.aggregate.metrics import build_metric
    from analytics_agent.tools.aggregate.plan import Planner

    links = tuple(r for r in semantics.relationships if visible.link(r))
    times = {t: c for t, c in semantics.time_columns.items() if visible.sees(t, c)}
    base = Semantics(relationships=links, time_columns=times, timezone=semantics.timezone)
    planner = Planner(catalog, base)

    def plans(table: str, column: str | None, fn: str | None = None, where: str | None = None) -> bool:
        """Whether a dimension (``fn`` None) or a metric still plans over the reader's catalog and links."""
        if table not in catalog:
            return False
        try:
            resolver = planner.resolver(table)
            if fn is None:
                resolver.resolve(str(column), "column")
            else:
                build_metric(fn, column, where, resolver)
        except ToolError:
            return False
        return True

    dimensions: dict[str, dict[str, str]] = {}
    for table, words in semantics.dimensions.items():
        kept = {w: c for w, c in words.items() if plans(table, c)}
        if kept:
            dimensions[table] = kept
    metrics: dict[str, MetricDef] = {}
    for name, m in semantics.metrics.items():
        if not m.ratio and m.fn is not None and plans(m.table, m.column, m.fn, m.where):
            metrics[name] = m
    metrics.update(
        {n: m for n, m in semantics.metrics.items() if m.ratio and all(p in metrics for p in m.ratio)}
    )
    return Semantics(links, metrics, dimensions, times, semantics.timezone)
