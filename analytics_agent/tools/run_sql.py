"""``run_sql``: free read-only SQL, registered only when the user opts in with ``--allow-sql``.

The statement is checked with DuckDB's own parser (exactly one statement, of type SELECT, which covers
WITH, FROM-first, DESCRIBE and SUMMARIZE) before it runs, and it runs on the sandboxed connection (read
only, no file or network access), capped at ``MAX_ROWS`` rows of values cut to size (``fetch``) and
under the executor's time limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import cast

import duckdb
from pydantic import Field

from analytics_agent.db.rows import first_row
from analytics_agent.errors import ToolError
from analytics_agent.tools.arguments import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.fetch import fetch_rows

MAX_QUERY_LENGTH = 4000


class RunSqlArguments(ToolArguments):
    query: str = Field(max_length=MAX_QUERY_LENGTH, description="One DuckDB SELECT (or WITH) statement.")


class RunSql(Tool):
    name = "run_sql"
    description = (
        "Run one read-only DuckDB SELECT and get at most 50 rows. Aggregate in SQL. Only when no other tool "
        "can answer."
    )
    arguments = RunSqlArguments
    returns = "rows"

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        query = check_select(cursor, cast(RunSqlArguments, args).query)  # the executor validated with it
        hint = "aggregate in SQL (GROUP BY) or add a WHERE or LIMIT"
        return ToolValue(fetch_rows(cursor, query, hint=hint), sql=query)


def check_select(cursor: duckdb.DuckDBPyConnection, query: str) -> str:
    """The one SELECT statement in ``query`` (without its trailing ';'), or a ToolError saying why not."""
    try:
        statements = cursor.extract_statements(query)
    except duckdb.Error as exc:
        raise ToolError(f"run_sql: the query does not parse: {_first_line(exc)}") from None
    if len(statements) != 1:
        raise ToolError(f"run_sql takes exactly one statement; got {len(statements)}")
    statement = statements[0]
    if statement.type != duckdb.StatementType.SELECT:
        kind = statement.type.name if hasattr(statement.type, "name") else str(statement.type)
        raise ToolError(f"run_sql only runs SELECT (or WITH … SELECT); this is a {kind} statement")
    query = statement.query.strip().rstrip(";").strip()
    _refuse_outside_reads(cursor, query)
    return query


# Free SQL reads the catalog's tables, nothing else. Table functions that read files or open connections
# (read_csv, glob, postgres_scan …) and replacement scans of paths (FROM 'x.parquet') are refused by
# DuckDB's own parse tree, whatever the sandbox's file system allows: with sources linked in place, their
# folders (and DuckDB's own files) stay readable to the views, so the statement itself must not name them.
_TABLE_FUNCTIONS = frozenset({
    "range", "generate_series", "unnest", "json_each", "json_tree", "duckdb_tables", "duckdb_columns",
    "duckdb_views", "duckdb_types", "duckdb_schemas", "duckdb_constraints", "duckdb_functions", "duckdb_keywords",
})  # fmt: skip
_PATH_LIKE = re.compile(r"[/\\:~]|\.[A-Za-z0-9]{1,8}$")


def _refuse_outside_reads(cursor: duckdb.DuckDBPyConnection, query: str) -> None:
    import json

    try:
        tree = json.loads(first_row(cursor.execute("SELECT json_serialize_sql(?)", [query]))[0])
    except duckdb.Error:
        raise ToolError(
            "run_sql: the query could not be checked; write a plain SELECT over the tables"
        ) from None
    if tree.get("error"):
        raise ToolError(f"run_sql: the query could not be checked: {tree.get('error_message', '')}")
    for kind, name in _references(tree):
        if kind == "TABLE_FUNCTION" and name.lower() not in _TABLE_FUNCTIONS:
            raise ToolError(
                f"run_sql may not call {name}(): it reads outside the database's tables; query the tables "
                "(list_tables names them)"
            )
        if kind == "BASE_TABLE" and _PATH_LIKE.search(name):
            raise ToolError(
                f"run_sql reads tables, not files: {name!r} is not a table (list_tables names them)"
            )


def _references(tree: object) -> Iterator[tuple[str, str]]:
    """(kind, name) of every table function and table named in a parse tree. A loop, not recursion: a
    hostile query can nest deeper than Python's stack."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            kind = node.get("type")
            if kind == "TABLE_FUNCTION" and isinstance(node.get("function"), dict):
                yield kind, str(node["function"].get("function_name", ""))
            elif kind == "BASE_TABLE":
                yield kind, str(node.get("table_name", ""))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
