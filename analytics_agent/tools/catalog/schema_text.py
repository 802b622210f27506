"""The database in a few lines for the system prompt: per table its columns with short types, its time
columns and related tables, so a model can write its first ``aggregate`` call without ``describe_table``.
Pure: read from the ``aggregate`` tool's catalog and semantic model, built once with the registry."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from analytics_agent.db.key_names import is_free_text
from analytics_agent.db.relationships_base import Relationship
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


MAX_LISTED = 8
"""A text column lists its values in the card when it has at most this many (a status, a channel)."""
MAX_LISTED_CHARS = 72

Level = tuple[dict[str, str], str]
"""Per table its card line, and what was left out to make it ("" for the whole card)."""


def schema_lines(
    tools: Iterable[Tool], profiles: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[dict[str, str], str | None]:
    """Per table ``key k: col type, ...; time: ...`` (``key``: the column its links point at) and the business zone, from the registry's
    ``aggregate``; empty when there is none (the whole card of ``schema_levels``)."""
    levels, zone = schema_levels(tools, profiles)
    return (levels[0][0] if levels else {}), zone


def schema_levels(
    tools: Iterable[Tool], profiles: Mapping[str, Mapping[str, Any]] | None = None
) -> tuple[list[Level], str | None]:
    """The schema card at three levels of detail, most first, for the prompt to take the first that fits
    its budget: every column with its type, the table's key (``key customer_id``), its links
    (``account_manager_id→account_manager=employees``: the name ``aggregate`` takes), its time columns
    and the values of small text columns (at most ``MAX_LISTED``; ``profiles``: the stored ones); then without the values; then
    only keys, links and time columns. Empty when there is no ``aggregate``."""
    aggregate = next((t for t in tools if t.name == "aggregate"), None)
    catalog = getattr(aggregate, "catalog", None)
    if aggregate is None or not catalog:
        return [], None
    semantics = aggregate.semantics  # type: ignore[attr-defined]
    keys = {r.target: r.key for r in semantics.relationships}  # checked unique: one row each
    levels: list[Level] = []
    for detail, note in (
        (2, ""),
        (1, "values of text columns left out"),
        (0, "only keys, links and time columns shown; describe_table lists the others"),
    ):
        lines = {
            table: _card(
                table, columns, keys.get(table), semantics.relationships, (profiles or {}).get(table), detail
            )
            for table, columns in catalog.items()
        }
        levels.append((lines, note))
    zoned = any(short_type(k) == "timestamptz" for columns in catalog.values() for k in columns.values())
    return levels, aggregate.planner.zone if zoned else None  # type: ignore[attr-defined]


def _card(
    table: str,
    columns: Mapping[str, str],
    key: str | None,
    relationships: Sequence[Relationship],
    profile: Mapping[str, Any] | None,
    detail: int,
) -> str:
    """One table's card line at ``detail`` 2 (values listed), 1 (no values) or 0 (keys, links, times)."""
    links = {r.column: (name, r) for name, r in link_names(table, relationships).items()}
    times = time_columns(columns)
    # a lookup table's names are the categories of a normalized database (genre.name = 'Rock'); an
    # entity's names, cities and phones describe its rows: not listed
    lookup = len(columns) <= 3
    values = {
        c["name"]: c.get("values")
        for c in (profile or {}).get("columns", ())
        if lookup or not is_free_text(c["name"], c)
    }
    shown = []
    for column, kind in columns.items():
        if column == key:
            continue
        if column in links:
            name, r = links[column]
            shown.append(f"{column}→{name}" + (f"={r.target}" if name != r.target else ""))
        elif detail or column in times:
            listed = values.get(column) if detail == 2 else None
            shown.append(f"{column} {short_type(kind)}" + _values(listed))
    text = (f"key {key}: " if key else "") + ", ".join(shown)
    hidden = len(columns) - len(shown) - (key in columns)
    text += f" (+{hidden} more)" if hidden else ""
    return text + ("; time: " + ", ".join(times) if times else "")


def _values(listed: Sequence[Any] | None) -> str:
    if not listed or len(listed) > MAX_LISTED:
        return ""
    text = "|".join(str(v) for v in listed)
    return f"[{text}]" if len(text) <= MAX_LISTED_CHARS else ""
