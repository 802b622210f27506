"""What ``aggregate`` and ``describe_table`` need from a semantic model, once it is checked. Plain data.

Parsing and checking the YAML lives in ``tools.semantic``; this module sits below both so the tools can
read a model without importing the parser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from analytics_agent.db.relationships import Relationship


@dataclass(frozen=True)
class MetricDef:
    name: str
    table: str
    line: int
    fn: str | None = None
    column: str | None = None
    where: str | None = None
    ratio: tuple[str, str] | None = None
    description: str = ""
    synonyms: tuple[str, ...] = ()


@dataclass(frozen=True)
class Semantics:
    """What the semantic model adds to the catalog, checked (see ``tools.semantic.check``)."""

    relationships: Sequence[Relationship] = ()
    metrics: Mapping[str, MetricDef] = field(default_factory=dict)
    dimensions: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Per table: dimension name or synonym -> the column (or relation.column) it stands for."""
    time_columns: Mapping[str, str] = field(default_factory=dict)
    timezone: str | None = None
    """The database's business time zone (IANA name), when its semantic file says it."""
    problems: Sequence[str] = ()
    """The user's semantic file's problems (``file:line: what``): what it meant is missing from the rest,
    so a call that names it is told why (``aggregate``), not only the terminal at start-up."""
