"""Which tables a SELECT reads, by DuckDB's own parse tree: for a reader who may not see every table.

``run_sql`` and the SQL-file tools run text someone wrote. For a reader the access policy limits, each
table the statement reads must be one they see whole (``Visible.whole``): a name is checked where the
parser put it, never found by searching the text. A common table expression is a name the statement
defines, so it is no read, but only where DuckDB binds it so: in the main query and in the expressions
defined after it (a later or its own name in a non-recursive body is the database's table, and checked).

Anything else that could reach the catalog is refused for such a reader: table functions other than
pure generators (``duckdb_tables()``, ``query('…')``), macros (``pg_get_viewdef`` reads the views'
text), ``SHOW``/``DESCRIBE`` and qualified names (``information_schema.tables``). Each refusal names
only what the statement itself wrote, and reads the same whether a hidden table exists or not.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import duckdb

from analytics_agent.db.visible import Visible
from analytics_agent.errors import ToolError

_GENERATORS = frozenset({"range", "generate_series", "unnest"})
"""Table functions that make rows from their arguments alone."""


def parse_tree(cursor: duckdb.DuckDBPyConnection, sql: str, *, tool: str) -> dict[str, Any]:
    try:
        row = cursor.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()
        tree = json.loads(row[0]) if row else {"error": True}
    except duckdb.Error:
        tree = {"error": True}
    if not isinstance(tree, dict) or tree.get("error"):
        raise ToolError(f"{tool}: the query could not be checked; write a plain SELECT over your tables")
    return tree


def check_reads(
    cursor: duckdb.DuckDBPyConnection, tree: dict[str, Any], visible: Visible, *, tool: str
) -> None:
    """Raise ``ToolError`` unless the statement reads only tables ``visible`` shows whole."""
    whole = {t.lower() for t in visible.whole}
    shown = {t.lower() for t, _ in visible.tables}
    macros = _macros(cursor)
    for kind, name in _reads(tree):
        lowered = name.lower()
        if kind == "qualified":
            raise ToolError(f"{tool}: name tables plainly, as list_tables does ({name!r} is qualified)")
        if kind == "show":
            raise ToolError(
                f"{tool}: SHOW and DESCRIBE are not yours to run; describe_table describes a table"
            )
        if kind == "function" and lowered not in _GENERATORS:
            raise ToolError(f"{tool} may not call {name}(): it reads outside your tables")
        if kind == "scalar" and lowered in macros:
            raise ToolError(f"{tool} may not call the macro {name}()")
        if kind == "table" and lowered not in whole:
            if lowered in shown:
                raise ToolError(
                    f"{tool} cannot read {name!r}: some of its columns are not yours to see; use aggregate"
                )
            raise ToolError(f"{tool}: no table {name!r} among yours; list_tables names them")


def reads_only(cursor: duckdb.DuckDBPyConnection, sql: str, visible: Visible) -> bool:
    """Whether ``sql`` (a SQL-file tool's query) reads nothing but what ``visible`` shows whole."""
    try:
        check_reads(cursor, parse_tree(cursor, sql, tool="tool"), visible, tool="tool")
    except ToolError:
        return False
    return True


def _macros(cursor: duckdb.DuckDBPyConnection) -> set[str]:
    rows = cursor.execute(
        "SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE function_type IN ('macro', "
        "'table_macro')"
    ).fetchall()
    return {r[0] for r in rows}


def _reads(tree: object) -> Iterator[tuple[str, str]]:
    """(kind, name) of every read in the tree: ``table`` (a name no CTE in scope defines), ``qualified``,
    ``function`` (a table function), ``scalar`` (any other function call) and ``show``. A loop with an
    explicit stack, not recursion: a hostile query can nest deeper than Python's stack."""
    stack: list[tuple[object, frozenset[str]]] = [(tree, frozenset())]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, list):
            stack.extend((item, scope) for item in node)
            continue
        if not isinstance(node, dict):
            continue
        yield from _read_of(node, scope)
        if node.get("type") == "RECURSIVE_CTE_NODE" and node.get("cte_name"):
            scope = scope | {str(node["cte_name"]).lower()}
        ctes = node.get("cte_map", {}).get("map", []) if isinstance(node.get("cte_map"), dict) else []
        names = [str(entry.get("key", "")).lower() for entry in ctes]
        for i, entry in enumerate(ctes):  # a body sees the expressions defined before it, not itself
            stack.append((entry.get("value"), scope | frozenset(names[:i])))
        inner = scope | frozenset(names)
        stack.extend((value, inner) for key, value in node.items() if key != "cte_map")


def _read_of(node: dict[str, Any], scope: frozenset[str]) -> Iterator[tuple[str, str]]:
    kind = node.get("type")
    if kind == "BASE_TABLE":
        name = str(node.get("table_name", ""))
        if node.get("catalog_name") or node.get("schema_name"):
            yield "qualified", ".".join(str(p) for p in node.get("qualified_name", {}).get("path", [name]))
        elif name.lower() not in scope:
            yield "table", name
    elif kind == "SHOW_REF":
        yield "show", ""
    elif kind == "TABLE_FUNCTION" and isinstance(node.get("function"), dict):
        yield "function", str(node["function"].get("function_name", ""))
    elif node.get("class") == "FUNCTION":
        yield "scalar", str(node.get("function_name", ""))
