"""Assemble the registry for a database: bundled SQL tools, catalog tools, and a user's own tools."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from analytics_agent.db.catalog import table_names
from analytics_agent.errors import ToolDefinitionError
from analytics_agent.resources import sql_dir
from analytics_agent.tools.catalog_tools import DescribeTable, ListTables
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.sql_tool import load_sql_tools


def build_registry(
    connection: duckdb.DuckDBPyConnection,
    *,
    tool_dirs: Sequence[Path] = (),
) -> tuple[Registry, list[ToolDefinitionError]]:
    """The registry for this database, and the problems found in user tool files (skipped, not fatal)."""
    cursor = connection.cursor()
    try:
        bundled, _ = load_sql_tools(sql_dir(), cursor, strict=True)
        registry = Registry([ListTables(), DescribeTable(table_names(cursor)), *bundled])
        problems: list[ToolDefinitionError] = []
        for folder in tool_dirs:
            if not folder.is_dir():
                problems.append(ToolDefinitionError("no such folder", path=str(folder)))
                continue
            tools, found = load_sql_tools(folder, cursor, strict=False)
            problems.extend(found)
            for tool in tools:
                try:
                    registry.add(tool)
                except ToolDefinitionError as exc:
                    problems.append(exc)
        return registry, problems
    finally:
        cursor.close()
