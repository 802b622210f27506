"""Assemble the registry for a database: bundled SQL tools, catalog tools, generic tools, a user's own tools.

``aggregate`` is always there, for questions no curated tool answers and for the user's own tables;
``run_sql`` joins only when the user opts in (``allow_sql``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from analytics_agent.errors import ToolDefinitionError
from analytics_agent.tools.aggregate import Aggregate, read_catalog
from analytics_agent.tools.bundled import load_bundled_tools
from analytics_agent.tools.catalog_tools import DescribeTable, ListTables
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.run_sql import RunSql
from analytics_agent.tools.semantic.load import load_semantics
from analytics_agent.tools.sql_tool import load_sql_tools


def build_registry(
    connection: duckdb.DuckDBPyConnection,
    *,
    tool_dirs: Sequence[Path] = (),
    allow_sql: bool = False,
    timezone: str = "UTC",
    semantic_file: Path | None = None,
) -> tuple[Registry, list[ToolDefinitionError]]:
    """The registry for this database, and the problems found (skipped, not fatal): user tool files that
    are broken, bundled tools whose table no longer fits them.

    Args:
        tool_dirs: folders of the user's own ``.sql`` tools.
        allow_sql: add ``run_sql`` (free read-only SELECT).
        timezone: the business zone; ``aggregate`` buckets and filters TIMESTAMPTZ columns in it.
        semantic_file: the user's semantic model (its problems are returned with the tool files').

    Raises:
        ToolDefinitionError: a user tool is named like one already registered (one line, file named).
    """
    cursor = connection.cursor()
    try:
        catalog = read_catalog(cursor)
        tables = sorted(catalog)
        bundled, problems = load_bundled_tools(cursor, catalog)
        semantics, semantic_problems = load_semantics(cursor, catalog, semantic_file)
        zone = semantics.timezone or timezone  # the database's own zone, when its semantic file sets one
        aggregate = Aggregate(catalog, semantics=semantics, timezone=zone)
        describe = DescribeTable(tables, semantics, catalog=catalog, timezone=zone)
        registry = Registry([ListTables(), describe, *bundled, aggregate])
        if allow_sql:
            registry.add(RunSql())
        problems.extend(semantic_problems)
        for folder in tool_dirs:
            if not folder.is_dir():
                problems.append(ToolDefinitionError("no such folder", path=str(folder)))
                continue
            tools, found = load_sql_tools(folder, cursor, tables=tables)
            problems.extend(found)
            for tool in tools:
                registry.add(tool)  # a clash is the user's to fix, not to skip quietly
        return registry, problems
    finally:
        cursor.close()
