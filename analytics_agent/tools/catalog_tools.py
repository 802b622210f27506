"""Tools over whatever the database holds: ``list_tables`` and ``describe_table``."""

from __future__ import annotations

from typing import Literal

import duckdb
from pydantic import Field, create_model

from analytics_agent.db.catalog import get_profile, list_tables
from analytics_agent.tools.arguments import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.semantic.describe import semantic_summary
from analytics_agent.tools.semantics import Semantics
from analytics_agent.tools.shaping import Rows


class ListTablesArguments(ToolArguments):
    pass


class ListTables(Tool):
    name = "list_tables"
    description = "Tables with their row and column counts; then describe_table."
    arguments = ListTablesArguments
    returns = "rows"

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        infos = list_tables(cursor)
        rows = [(t.name, t.rows, t.columns) for t in infos]
        return ToolValue(Rows(columns=("table", "rows", "columns"), rows=rows, total=len(rows)))


class DescribeTable(Tool):
    name = "describe_table"
    description = "A table's columns (type, nulls, min/max, few values), related tables, named metrics. Before aggregate."

    def __init__(self, tables: list[str], semantics: Semantics | None = None) -> None:
        self.semantics = semantics or Semantics()
        table_type = Literal[tuple(tables)] if tables else str  # type: ignore[valid-type]
        self.arguments = create_model(
            "DescribeTableArguments",
            __base__=ToolArguments,
            table=(table_type, Field(description="Table name.")),
        )

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        table = args.table  # type: ignore[attr-defined]
        return ToolValue({**get_profile(cursor, table), **semantic_summary(table, self.semantics)})
