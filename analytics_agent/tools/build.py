"""Assemble the registry for a database: bundled SQL tools, catalog tools, generic tools, a user's own tools.

``aggregate`` is always there, for questions no curated tool answers and for the user's own tables;
``run_sql`` joins only when the user opts in (``allow_sql``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from analytics_agent.db.catalog import NO_TABLES, read_catalog
from analytics_agent.db.visible import NONE_SHARED, Visible
from analytics_agent.errors import ToolDefinitionError
from analytics_agent.tools.aggregate.doc import DESCRIPTION
from analytics_agent.tools.base import Tool
from analytics_agent.tools.catalog.tools import DescribeTable, ListTables
from analytics_agent.tools.deferred import DeferredTool
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.sqlfile.bundled import load_bundled_tools
from analytics_agent.tools.sqlfile.tool import SqlTool, load_sql_tools

if TYPE_CHECKING:  # the semantic model is read on first use: its classes are not a start-up cost
    from analytics_agent.tools.semantics import Semantics

Zone = str | Callable[[], str]
"""The business zone, or how to find it: looked up only when a tool that buckets timestamps is built (the
machine's zone costs a few ms of start-up that a ``tools call`` of a ``.sql`` tool never needs)."""


def build_registry(
    connection: duckdb.DuckDBPyConnection,
    *,
    tool_dirs: Sequence[Path] = (),
    allow_sql: bool = False,
    timezone: Zone = "UTC",
    semantic_file: Path | None = None,
    visible: Visible | None = None,
) -> tuple[Registry, list[ToolDefinitionError]]:
    """The registry for this database, and the problems found (skipped, not fatal): user tool files that
    are broken, bundled tools whose table no longer fits them.

    Args:
        tool_dirs: folders of the user's own ``.sql`` tools.
        allow_sql: add ``run_sql`` (free read-only SELECT).
        timezone: the business zone (or a function that finds it); ``aggregate`` buckets and filters
            TIMESTAMPTZ columns in it.
        semantic_file: the user's semantic model (its problems are returned with the tool files').
        visible: what the reader may see (None: everything). Every tool is built from the catalog, links,
            metrics and profiles as they see them; a SQL-file tool stays only if its query reads tables
            they see whole, and ``run_sql`` only if the policy gives it to them. The problems returned
            are the owner's, as without a reader.

    Raises:
        ToolDefinitionError: a user tool is named like one already registered (one line, file named).
    """
    cursor = connection.cursor()
    try:
        full = read_catalog(cursor)
        catalog = full if visible is None else visible.catalog(full)
        tables = sorted(catalog)
        bundled, problems = load_bundled_tools(cursor, catalog)
        bundled = _readable(cursor, bundled, visible)
        shared = _semantics(connection, cursor, semantic_file, full, visible, catalog, problems)
        registry = Registry(
            [
                ListTables(visible),
                _describe_table(tables, catalog, shared, timezone, visible),
                *bundled,
                _aggregate(catalog, shared, timezone, NO_TABLES if visible is None else NONE_SHARED),
            ]
        )
        if allow_sql and (visible is None or visible.run_sql):
            from analytics_agent.tools.run_sql import RunSql

            registry.add(RunSql(visible))
        for folder in tool_dirs:
            if not folder.is_dir():
                problems.append(ToolDefinitionError("no such folder", path=str(folder)))
                continue
            tools, found = load_sql_tools(folder, cursor, tables=tables)
            problems.extend(found)
            for tool in _readable(cursor, tools, visible):
                registry.add(tool)  # a clash is the user's to fix, not to skip quietly
        return registry, problems
    finally:
        cursor.close()


def _semantics(
    connection: duckdb.DuckDBPyConnection,
    cursor: duckdb.DuckDBPyConnection,
    semantic_file: Path | None,
    full: dict[str, dict[str, str]],
    visible: Visible | None,
    catalog: dict[str, dict[str, str]],
    problems: list[ToolDefinitionError],
) -> Callable[[], Semantics]:
    """How the tools get the semantic model (as the reader sees it); the user's file's problems are added
    to ``problems``."""
    if semantic_file is None or not semantic_file.is_file():
        # the bundled model never reports a problem (it is dropped where it does not fit), so it is read
        # and checked only when aggregate or describe_table first needs it
        return _on_first_use(connection, full, visible, catalog)
    # the user's own file: checked now, so its problems are told by every command
    from analytics_agent.tools.semantic.load import load_semantics

    semantics, semantic_problems = load_semantics(cursor, full, semantic_file)
    problems.extend(semantic_problems)
    if semantic_problems:
        semantics = replace(semantics, problems=tuple(str(p) for p in semantic_problems))
    return _ready(semantics if visible is None else _seen(semantics, visible, catalog))


def _readable(
    cursor: duckdb.DuckDBPyConnection, tools: list[SqlTool], visible: Visible | None
) -> list[SqlTool]:
    """The SQL-file tools whose query, and the tables their enums list values of, the reader sees whole:
    a tool's SQL may read any column of its tables, and its output or errors would show it."""
    if visible is None:
        return tools
    from analytics_agent.tools.sql_reads import reads_only

    return [
        tool
        for tool in tools
        if all(p.choices_from[0] in visible.whole for p in tool.params if p.choices_from)
        and reads_only(cursor, tool.spec.sql, visible)
    ]


def _seen(semantics: Semantics, visible: Visible, catalog: dict[str, dict[str, str]]) -> Semantics:
    from analytics_agent.tools.semantic.visible import visible_semantics

    return visible_semantics(semantics, visible, catalog)


def _ready(semantics: Semantics) -> Callable[[], Semantics]:
    return lambda: semantics


def _on_first_use(
    connection: duckdb.DuckDBPyConnection,
    catalog: dict[str, dict[str, str]],
    visible: Visible | None,
    seen: dict[str, dict[str, str]],
) -> Callable[[], Semantics]:
    lock = threading.Lock()
    found: list[Semantics] = []

    def semantics() -> Semantics:
        from analytics_agent.tools.semantic.load import load_semantics

        with lock:
            if not found:
                cursor = connection.cursor()
                try:
                    semantics = load_semantics(cursor, catalog, None)[0]
                    found.append(semantics if visible is None else _seen(semantics, visible, seen))
                finally:
                    cursor.close()
            return found[0]

    return semantics


def _describe_table(
    tables: list[str],
    catalog: dict[str, dict[str, str]],
    semantics: Callable[[], Semantics],
    timezone: Zone,
    visible: Visible | None,
) -> Tool:
    def build() -> Tool:
        found = semantics()
        # the database's own zone, when its semantic file sets one, wins over the machine's or the flag's
        zone = found.timezone or _zone(timezone)
        return DescribeTable(tables, found, catalog=catalog, timezone=zone, visible=visible)

    return DeferredTool(DescribeTable.name, DescribeTable.description, build)


def _aggregate(
    catalog: dict[str, dict[str, str]], semantics: Callable[[], Semantics], timezone: Zone, empty: str
) -> Tool:
    def build() -> Tool:
        from analytics_agent.tools.aggregate.tool import Aggregate

        found = semantics()
        return Aggregate(catalog, semantics=found, timezone=found.timezone or _zone(timezone), empty=empty)

    return DeferredTool("aggregate", DESCRIPTION, build)


def _zone(zone: Zone) -> str:
    return zone if isinstance(zone, str) else zone()
