"""Tools defined by ``.sql`` files: parse, resolve data-backed enums, run with bound parameters."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from string import Formatter
from typing import TYPE_CHECKING, Any

import duckdb

from analytics_agent.db.catalog import quote_ident, table_names
from analytics_agent.errors import ToolDefinitionError, ToolError
from analytics_agent.logs import logger
from analytics_agent.tools.args.quick import quick_values
from analytics_agent.tools.base import Prepared, ToolValue
from analytics_agent.tools.declared import DeclaredTool
from analytics_agent.tools.results.fetch import FetchPlan, fetch_rows
from analytics_agent.tools.sqlfile.files import read_tool_file
from analytics_agent.tools.sqlfile.parse import SqlToolSpec, parse_sql_tool

if TYPE_CHECKING:  # pydantic: only a call the quick check cannot settle builds the model
    from analytics_agent.tools.args.models import ToolArguments

MAX_ENUM_VALUES = 200


def check_single_select(sql: str, cursor: duckdb.DuckDBPyConnection | None = None) -> str | None:
    """Why ``sql`` is not exactly one read-only SELECT/WITH statement (by DuckDB's own parser), or None.
    ``cursor``: parse with its connection instead of opening DuckDB's default in-memory one (~25 ms)."""
    try:
        statements = cursor.extract_statements(sql) if cursor else duckdb.extract_statements(sql)
    except duckdb.Error as exc:
        return f"the SQL does not parse: {str(exc).splitlines()[0]}"
    if len(statements) != 1:
        return f"expected exactly one statement, found {len(statements)}"
    if statements[0].type != duckdb.StatementType.SELECT:
        return f"only SELECT/WITH statements may run, not {statements[0].type.name}"
    return None


class SqlTool(DeclaredTool):
    def __init__(self, spec: SqlToolSpec, choices: dict[str, tuple[str, ...]]) -> None:
        self.spec = spec
        self.name = spec.name
        self.description = spec.description
        self.returns = spec.returns
        self.params = spec.params
        self.choices = choices
        self._plans: dict[Any, FetchPlan] = {}  # fetch plans per kind of arguments (fetch_rows)

    def prepare(self, data: dict[str, Any]) -> Prepared:
        quick = quick_values(self.params, self.choices, data)
        if quick is None:  # a mistake or a value to coerce: the model decides and words the error
            return super().prepare(data)
        values, as_json = quick
        return Prepared(lambda cursor: self.run_values(cursor, values), as_json)

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        return self.run_values(cursor, args.model_dump())

    def run_values(self, cursor: duckdb.DuckDBPyConnection, values: dict[str, Any]) -> ToolValue:
        """Run on validated values (the model's ``model_dump()``, or the quick check's equal)."""
        params = bind_parameters(self.spec, values)
        if self.spec.returns == "object":
            result = fetch_rows(cursor, self.spec.sql, params, max_rows=1, plans=self._plans)
            if not result.rows:
                raise ToolError(_fill(self.spec.empty, params))
            if len(result.rows) > 1:
                raise ToolError(f"{self.name} matched more than one row; this tool expects exactly one")
            return ToolValue(
                dict(zip(result.columns, result.rows[0], strict=True)), sql=self.spec.sql, params=params
            )
        rows = fetch_rows(cursor, self.spec.sql, params, plans=self._plans)
        return ToolValue(rows, sql=self.spec.sql, params=params)


def bind_parameters(spec: SqlToolSpec, values: dict[str, Any]) -> dict[str, Any]:
    """Validated arguments as the SQL's ``$names``: a period becomes its first and last day."""
    bound: dict[str, Any] = {}
    for param in spec.params:
        value = values[param.name]
        if param.type == "period":
            bound[f"{param.name}_start"], bound[f"{param.name}_end"] = value
        else:
            bound[param.name] = value
    return bound


def _fill(template: str, params: dict[str, Any]) -> str:
    fields = {name for _, name, _, _ in Formatter().parse(template) if name}
    return template.format(**{name: params.get(name, "?") for name in fields})


def load_sql_tools(
    folder: Path,
    cursor: duckdb.DuckDBPyConnection,
    *,
    tables: Collection[str] | None = None,
) -> tuple[list[SqlTool], list[ToolDefinitionError]]:
    """Every ``*.sql`` in a user's folder whose tables exist (the bundled tools: ``bundled``).

    Each file is read only if it is a regular file of bounded size (``read_tool_file``) and checked with
    DuckDB's parser (one SELECT/WITH statement); a bad one is returned as a problem and the rest still load.
    """
    tools: list[SqlTool] = []
    problems: list[ToolDefinitionError] = []
    tables = set(table_names(cursor) if tables is None else tables)
    for path in sorted(folder.glob("*.sql")):
        try:
            spec = parse_sql_tool(read_tool_file(path), path=str(path))
            missing = [t for t in spec.tables if t not in tables]
            if missing:
                logger(__name__).info(
                    "tool %s skipped: table %s not in the database", spec.name, ", ".join(missing)
                )
                continue
            problem = check_single_select(spec.sql, cursor)
            if problem:
                raise ToolDefinitionError(problem, path=spec.path)
            tools.append(SqlTool(spec, resolve_choices(spec, cursor)))
        except ToolDefinitionError as exc:
            problems.append(exc)
    return tools, problems


def resolve_choices(spec: SqlToolSpec, cursor: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, ...]]:
    """Enum values read from the data, so the model can only pick values that exist."""
    choices: dict[str, tuple[str, ...]] = {}
    for param in spec.params:
        if param.choices_from is None:
            continue
        table, column = param.choices_from
        try:
            rows = cursor.execute(
                f"SELECT DISTINCT CAST({quote_ident(column)} AS VARCHAR) FROM {quote_ident(table)} "
                f"WHERE {quote_ident(column)} IS NOT NULL ORDER BY 1 LIMIT {MAX_ENUM_VALUES + 1}"
            ).fetchall()
        except duckdb.Error as exc:
            raise ToolDefinitionError(
                f"enum(from {table}.{column}) cannot be read: {str(exc).splitlines()[0]}", path=spec.path
            ) from None
        if not rows or len(rows) > MAX_ENUM_VALUES:
            raise ToolDefinitionError(
                f"enum(from {table}.{column}) needs 1 to {MAX_ENUM_VALUES} distinct values; use string instead",
                path=spec.path,
            )
        choices[param.name] = tuple(r[0] for r in rows)
    return choices
