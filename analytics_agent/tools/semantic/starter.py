"""Write what the data shows as a starting semantic file: each table's time column, inferred relationships,
candidate dimensions (text columns with few values) and a row count, with sums left as comments. Pure:
catalog, relationships and profiles in, YAML text out (it parses and checks without a problem)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from analytics_agent.db.relationships import Relationship
from analytics_agent.tools.aggregate_plan import NUMERIC
from analytics_agent.tools.aggregate_time import TEMPORAL

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_COMMENTED_SUMS = 3
_NOT_AMOUNTS = {"year", "month", "day", "hour", "minute", "id", "lat", "lon", "latitude", "longitude"}


def _q(name: str) -> str:
    """A YAML scalar for a name (JSON strings are valid YAML)."""
    return (
        name
        if _PLAIN.match(name) and name not in ("null", "true", "false", "yes", "no")
        else json.dumps(name)
    )


def starter_yaml(
    catalog: Mapping[str, Mapping[str, str]],
    relationships: Sequence[Relationship],
    profiles: Mapping[str, Mapping[str, Any]],
) -> str:
    lines = [
        "# A starting semantic model, written from what the data shows. Edit freely: add descriptions,",
        "# synonyms and the metrics your business uses (names are global across tables); then run",
        "# `analytics-agent semantic check`. Metric fn: count sum avg min max count_distinct median stddev",
        '# p90 p95 p99 pct; where: "column op value and ..."; ratio: [numerator, denominator].',
        "tables:",
    ]
    for table, types in catalog.items():
        lines.append(f"  {_q(table)}:")
        dated = [c for c, t in types.items() if TEMPORAL.match(t)]
        if dated:
            lines.append(f"    time_column: {_q(dated[0])}")
        links = [r for r in relationships if r.table == table]
        if links:
            lines.append("    relationships:  # inferred, many-to-one; null removes one")
            lines += [f"      {_q(r.column)}: {_q(r.target)}.{_q(r.key)}" for r in links]
        few = [c["name"] for c in profiles.get(table, {}).get("columns", []) if c.get("values") is not None]
        if few:
            lines.append("    dimensions:  # columns worth grouping by; add synonyms people use")
            lines += [f"      {_q(c)}: {{column: {_q(c)}, synonyms: []}}" for c in few]
        lines += ["    metrics:", f"      {_q(table + '_count')}: {{fn: count}}"]
        numeric = [c for c, t in types.items() if NUMERIC.match(t) and c not in _NOT_AMOUNTS]
        numeric = [c for c in numeric if not c.endswith("_id")][:MAX_COMMENTED_SUMS]
        lines += [f"      # total_{c}: {{fn: sum, column: {_q(c)}}}" for c in numeric if _PLAIN.match(c)]
    return "\n".join(lines) + "\n"
