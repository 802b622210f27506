"""``run_sql``: free read-only SQL, registered only when the user opts in with ``--allow-sql``.

The statement is checked with DuckDB's own parser (exactly one statement, of type SELECT, which covers
WITH, FROM-first, DESCRIBE and SUMMARIZE) before it runs, and it runs on the sandboxed connection (read
only, no file or network access), capped at ``MAX_ROWS`` rows of values cut to size (``fetch``) and
under the executor's time limit.
"""

from __future__ import annotations

import duckdb
from pydantic import Field

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

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        query = check_select(cursor, args.query)  # type: ignore[attr-defined]
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
    return statement.query.strip().rstrip(";").strip()


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
