"""What DuckDB itself says about a query's result, learned once per fetch plan: which output columns are
the query's own parameters, whether it returns at most one row, and whether it reads nothing but the
database's own tables (so a plan of it prepared once stays right: see ``PlanFacts.keepable``).

The bounded fetch wraps a query to cut its values and cap its rows. On a query of a millisecond or two
that wrapper is most of the tool's cost (each expression DuckDB binds and runs costs a fixed ~0.1 ms), so
what a query cannot need is left out: a column that is one of its parameters holds a value the caller
already holds (Python cuts it the same way), and a query that returns at most one row needs no ``LIMIT``.
Both facts come from DuckDB's parse tree and physical plan, never from reading the SQL text; anything
unexpected in either means "not known", and the full wrapper stays.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

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


class PlanFacts(NamedTuple):
    one_row: bool
    """It returns exactly one row, or none after a HAVING."""
    keepable: bool
    """Every row it reads comes from a table stored in the database itself, which the read-only
    connection sees unchanged: a plan of it prepared once stays right. Anything else (a view over files
    of a linked source, an attached database, a table function) is bound again on every call, as before:
    whether DuckDB re-reads a folder's file list, a file's schema or a remote catalog for a statement
    prepared earlier is DuckDB's detail per reader, not something to rely on."""


_NOTHING_KNOWN = PlanFacts(one_row=False, keepable=False)
_KEEPABLE_LEAVES = frozenset(
    {"SEQ_SCAN", "DUMMY_SCAN", "EMPTY_RESULT", "CTE_SCAN", "DELIM_SCAN", "CHUNK_SCAN"}
)
"""Leaves that read a stored table, or nothing, or rows of the same query."""


def plan_facts(
    cursor: duckdb.DuckDBPyConnection, sql: str, params: dict[str, Any] | list[Any] | None
) -> PlanFacts:
    """What DuckDB's physical plan of ``sql`` says (one ``EXPLAIN``); anything unexpected: nothing known."""
    try:
        rows = cursor.execute(f"EXPLAIN (FORMAT JSON)\n{sql}\n", params or None).fetchall()
        roots = json.loads(rows[0][1]) if len(rows) == 1 else None
        catalog = cursor.execute("SELECT current_database()").fetchall()[0][0]
    except (duckdb.Error, ValueError, IndexError, TypeError):
        return _NOTHING_KNOWN
    root = roots[0] if isinstance(roots, list) and len(roots) == 1 else None
    if not isinstance(root, dict) or not isinstance(catalog, str):
        return _NOTHING_KNOWN
    return PlanFacts(one_row=_at_most_one_row(root), keepable=_reads_own_tables(root, catalog))


def _at_most_one_row(node: Any) -> bool:
    """True when the plan ends in an aggregate without GROUP BY (or a SELECT without FROM) under nothing
    but projections and filters."""
    while isinstance(node, dict):
        name = node.get("name")
        if name in _ONE_ROW:
            return True
        children = node.get("children")
        if name not in _NOT_MORE_ROWS or not isinstance(children, list) or len(children) != 1:
            return False
        node = children[0]
    return False


def _reads_own_tables(root: dict[str, Any], catalog: str) -> bool:
    """Every leaf of the plan is a known one, and every table it names is in ``catalog``."""
    own = (f"{catalog}.", '"' + catalog.replace('"', '""') + '".')  # EXPLAIN quotes a name when it must
    pending: list[Any] = [root]
    while pending:
        node = pending.pop()
        if not isinstance(node, dict) or not isinstance(node.get("children", []), list):
            return False
        info = node.get("extra_info")
        table = info.get("Table") if isinstance(info, dict) else None
        if (table is not None or node.get("name") == "SEQ_SCAN") and not (
            isinstance(table, str) and table.startswith(own)
        ):
            return False
        children = node.get("children") or []
        if not children and node.get("name") not in _KEEPABLE_LEAVES:
            return False
        pending.extend(children)
    return True
