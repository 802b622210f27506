"""One open database with its tools: what every command that reads data works on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from analytics_agent.db.connect import ensure_database, open_sandbox
from analytics_agent.errors import ToolDefinitionError
from analytics_agent.tools.build import build_registry
from analytics_agent.tools.executor import DEFAULT_TIMEOUT_S, Executor
from analytics_agent.tools.registry import Registry


@dataclass
class Workspace:
    db_path: Path
    connection: duckdb.DuckDBPyConnection
    registry: Registry
    executor: Executor
    problems: list[ToolDefinitionError] = field(default_factory=list)
    created: bool = False

    @classmethod
    def open(
        cls,
        db_path: Path,
        *,
        tool_dirs: Sequence[Path] = (),
        timeout_s: float = DEFAULT_TIMEOUT_S,
        allow_sql: bool = False,
        sample_data: bool = False,
    ) -> Workspace:
        """Create the database on first use (empty, or with the sample data if ``sample_data``), then
        open it sandboxed, read-only.

        ``allow_sql`` adds ``run_sql`` (free read-only SELECT) to the registry.
        """
        created = ensure_database(db_path, sample_data=sample_data)
        connection = open_sandbox(db_path)
        try:
            registry, problems = build_registry(connection, tool_dirs=tool_dirs, allow_sql=allow_sql)
        except BaseException:
            connection.close()
            raise
        executor = Executor(registry, connection, timeout_s=timeout_s)
        return cls(db_path, connection, registry, executor, problems, created)

    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self.connection.cursor()

    def close(self) -> None:
        self.executor.close()
        self.connection.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
