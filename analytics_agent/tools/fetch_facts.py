"""What DuckDB itself says about a query's result, learned once per fetch plan: which output columns are
the query's own parameters, and whether it returns at most one row.

The bounded fetch wraps a query to cut its values and cap its rows. On a query of a millisecond or two
that wrapper is most of the tool's cost (each expression DuckDB binds and runs costs a fixed ~0.1 ms), so
what a query cannot need is left out: a column that is one of its parameters holds a value the caller
already holds (Python cuts it the same way), and a query that returns at most one row needs no ``LIMIT``.
Both facts come from DuckDB's parse tree and physical plan, never from reading the SQL text; anything
unexpected in either means "not known", and the full wrapper stays.
"""

from __future__ import annotations

import json
from typing import Any

import duckdb

_ONE_ROW = frozenset({"UNGROUPED_AGGREGATE", "DUMMY_SCAN"})
"""Operators that produce exactly one row: an aggregate without GROUP BY, a SELECT without FROM."""
_NOT_MORE_ROWS = frozenset({"PROJECTION", "FILTER"})


def parameter_columns(cursor: duckdb.DuckDBPyConnection, sql: str, width: int) -> frozenset[int]:
    """Positions of the output columns that are a bare parameter (``SELECT $city AS city, …``), by DuckDB's
    parse tree; empty when the tree is not one plain SELECT whose items are its ``width`` columns."""
    try:
        row = cursor.execute("SELECT json_serialize_sql($q)", {"q": sql}).fetchone()
        tree = json.loads(row[0]) if row else {}
    except (duckdb.Error, ValueError):
        return frozenset()
    statements = tree.get("statements") if isinstance(tree, dict) and not tree.get("error") else None
    if not isinstance(statements, list) or len(statements) != 1:
        return frozenset()
    node = statements[0].get("node") if isinstance(statements[0], dict) else None
    if not isinstance(node, dict) or node.get("type") != "SELECT_NODE":
        return frozenset()
    items = node.get("select_list")
    if not isinstance(items, list) or len(items) != width:  # a * or COLUMNS(…) expands: positions differ
        return frozenset()
    if any(not isinstance(item, dict) or item.get("class") in ("STAR", None) for item in items):
        return frozenset()
    return frozenset(i for i, item in enumerate(items) if item.get("class") == "PARAMETER")


def at_most_one_row(
    cursor: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | list[Any] | None
) -> bool:
    """True when DuckDB's physical plan ends in an aggregate without GROUP BY (or a SELECT without FROM)
    under nothing but projections and filters: exactly one row, or none after a HAVING."""
    try:
        rows = cursor.execute(f"EXPLAIN (FORMAT JSON)\n{sql}\n", params or None).fetchall()
        roots = json.loads(rows[0][1]) if len(rows) == 1 else None
    except (duckdb.Error, ValueError, IndexError, TypeError):
        return False
    node = roots[0] if isinstance(roots, list) and len(roots) == 1 else None
    while isinstance(node, dict):
        name = node.get("name")
        if name in _ONE_ROW:
            return True
        children = node.get("children")
        if name not in _NOT_MORE_ROWS or not isinstance(children, list) or len(children) != 1:
            return False
        node = children[0]
    return False
