"""What ``describe_table`` adds about a table from the semantic model: how to reach related tables, its
named metrics and dimensions (with synonyms, so "sales" finds revenue). Pure; only the keys that apply."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import duckdb

from analytics_agent.db.catalog import quote_ident
from analytics_agent.tools.aggregate.joins.graph import link_names
from analytics_agent.tools.aggregate.time import TEMPORAL, is_zoned
from analytics_agent.tools.date_parts import parts_date
from analytics_agent.tools.semantics import Semantics

_KEY_CHECK_ROWS = 5_000_000
"""Above this many rows a key is only taken from a declared relationship (a full distinct count is slow)."""


def table_summary(
    cursor: duckdb.DuckDBPyConnection,
    table: str,
    columns: Mapping[str, str],
    semantics: Semantics,
    zone: str,
) -> dict[str, Any]:
    """What one row is (when a key is found), the time columns (or "none") and the zone they are read
    in: what a model otherwise calls again to learn."""
    summary: dict[str, Any] = {}
    key = row_key(cursor, table, columns, semantics)
    if key:
        summary["one_row_per"] = key
    times = time_columns(columns)
    summary["time_columns"] = times or "none"
    if any(is_zoned(kind) for kind in columns.values()):
        summary["time_zone"] = f"{zone} (days, months and hours of zoned timestamps)"
    return summary


def time_columns(columns: Mapping[str, str]) -> list[str]:
    """Date and timestamp columns, and the date made of integer year/month/day(/hour) columns."""
    found = [c for c, kind in columns.items() if TEMPORAL.match(kind)]
    parts = parts_date(columns)
    return found + ([parts.describe()] if parts else [])


def row_key(
    cursor: duckdb.DuckDBPyConnection, table: str, columns: Mapping[str, str], semantics: Semantics
) -> str | None:
    """A column that is a unique key: one another table refers to, else an id-like column checked whole."""
    for r in semantics.relationships:
        if r.target == table and r.verified:
            return r.key
    names = list(columns)
    candidates = [
        c for c in names if c.lower() in ("id", f"{table.lower().rstrip('s')}_id", f"{table.lower()}_id")
    ]
    candidates += (
        [names[0]]
        if names and names[0] not in candidates and names[0].lower().endswith(("id", "key", "code"))
        else []
    )
    if not candidates:
        return None
    col, t = quote_ident(candidates[0]), quote_ident(table)
    counted = cursor.execute(f"SELECT count(*) FROM {t}").fetchone()
    rows = counted[0] if counted else 0
    if not rows or rows > _KEY_CHECK_ROWS:
        return None
    found = cursor.execute(f"SELECT count(DISTINCT {col}), count({col}) FROM {t}").fetchone()
    distinct, present = found if found else (0, 0)
    return candidates[0] if distinct == present == rows else None


def not_additive(cursor: duckdb.DuckDBPyConnection, table: str, columns: Mapping[str, str]) -> dict[str, str]:
    """Integer columns whose values show they are no amount, with why: clock times written as numbers
    (0..2400, the last two digits always under 60, many values: 517 is 05:17) and ids (a different value
    on every row). Read from a sample of at most ``_KEY_CHECK_ROWS`` rows, one query per table."""
    from analytics_agent.tools.aggregate.plan import NUMERIC

    whole = [c for c, kind in columns.items() if NUMERIC.match(kind) and "INT" in kind.upper()]
    if not whole:
        return {}
    t = quote_ident(table)
    parts = []
    for c in whole:
        q = quote_ident(c)
        parts.append(
            f"count(DISTINCT {q}), count({q}), min({q}), max({q}), bool_and({q} >= 0 AND {q} % 100 < 60)"
        )
    row = cursor.execute(
        f"SELECT {', '.join(parts)} FROM (SELECT * FROM {t} LIMIT {_KEY_CHECK_ROWS})"
    ).fetchone()
    found: dict[str, str] = {}
    for i, c in enumerate(whole):
        distinct, present, low, high, clock = row[5 * i : 5 * i + 5] if row else (0, 0, None, None, None)
        if present >= 20 and distinct == present:
            found[c] = "an id: a different value on every row"
        elif clock and distinct >= 20 and low is not None and 100 <= high <= 2400:
            found[c] = "a clock time written as a number (hhmm)"
    return found


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
