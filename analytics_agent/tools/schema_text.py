"""The database in a few lines for the system prompt: per table its columns with short types, its time
columns and related tables, so a model can write its first ``aggregate`` call without ``describe_table``.
Pure: read from the ``aggregate`` tool's catalog and semantic model, built once with the registry."""

from __future__ import annotations

import re
from collections.abc import Iterable

from analytics_agent.tools.aggregate.joins.graph import link_names
from analytics_agent.tools.base import Tool
from analytics_agent.tools.semantic.describe import time_columns

_SHORT = (
    (re.compile(r"^(VARCHAR|TEXT|STRING)", re.I), "text"),
    (re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT)", re.I), "int"),
    (re.compile(r"^(DOUBLE|FLOAT|REAL|DECIMAL)", re.I), "num"),
    (re.compile(r"^(TIMESTAMP WITH TIME ZONE|TIMESTAMPTZ)", re.I), "timestamptz"),
    (re.compile(r"^TIMESTAMP", re.I), "timestamp"),
    (re.compile(r"^DATE", re.I), "date"),
    (re.compile(r"^BOOLEAN", re.I), "bool"),
)


def short_type(kind: str) -> str:
    for pattern, name in _SHORT:
        if pattern.match(kind):
            return name
    return kind.split("(")[0].lower()


def schema_lines(tools: Iterable[Tool]) -> tuple[dict[str, str], str | None]:
    """Per table ``col type, ...; time: ...; related: ...`` and the business zone, from the registry's
    ``aggregate``; empty when there is none."""
    aggregate = next((t for t in tools if t.name == "aggregate"), None)
    catalog = getattr(aggregate, "catalog", None)
    if aggregate is None or not catalog:
        return {}, None
    semantics = aggregate.semantics  # type: ignore[attr-defined]
    lines = {}
    for table, columns in catalog.items():
        text = ", ".join(f"{c} {short_type(k)}" for c, k in columns.items())
        times = time_columns(columns)
        if times:
            text += "; time: " + ", ".join(times)
        links = link_names(table, semantics.relationships)
        if links:
            text += "; related: " + ", ".join(f"{n}.<col> ({r.column}->{r.target})" for n, r in links.items())
        lines[table] = text
    zoned = any(short_type(k) == "timestamptz" for columns in catalog.values() for k in columns.values())
    return lines, aggregate.planner.zone if zoned else None  # type: ignore[attr-defined]
