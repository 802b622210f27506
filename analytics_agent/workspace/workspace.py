"""One open database with its tools: what every command that reads data works on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb

from analytics_agent.db.connect import ensure_database, open_sandbox
from analytics_agent.errors import DatabaseError, ToolDefinitionError
from analytics_agent.tools.build import Zone, build_registry
from analytics_agent.tools.executor import DEFAULT_TIMEOUT_S, Executor
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.semantic.load import semantic_path_for

if TYPE_CHECKING:  # linking (extensions, object stores) is imported only by a run that has sources
    from analytics_agent.db.linked.link import SourceSetUp
    from analytics_agent.db.linked.spec import Source


@dataclass
class Workspace:
    db_path: Path
    connection: duckdb.DuckDBPyConnection
    registry: Registry
    executor: Executor
    problems: list[ToolDefinitionError] = field(default_factory=list)
    created: bool = False
    linked_tables: dict[str, str] = field(default_factory=dict)
    """Tables that are linked sources (table -> source name), not copies in the file."""
    source_problems: list[str] = field(default_factory=list)

    @classmethod
    def open(
        cls,
        db_path: Path,
        *,
        tool_dirs: Sequence[Path] = (),
        timeout_s: float = DEFAULT_TIMEOUT_S,
        allow_sql: bool = False,
        sample_data: bool = False,
        sources: Sequence[Source] = (),
        timezone: Zone = "UTC",
        semantic_file: Path | None = None,
    ) -> Workspace:
        """Create the database on first use (empty, or with the sample data if ``sample_data``), then
        open it sandboxed, read-only.

        ``allow_sql`` adds ``run_sql`` (free read-only SELECT) to the registry; ``sources`` are attached
        read-only before the sandbox locks, and their tables join the database's own. ``timezone`` is the
        business zone of ``aggregate``; ``semantic_file`` defaults to ``<db>.semantic.yaml`` beside it.
        """
        created = prepare_database(db_path, sample_data=sample_data)
        linked: SourceSetUp | None = None
        if sources:
            from analytics_agent.db.linked.link import SourceSetUp

            linked = SourceSetUp(sources)
        connection = open_sandbox(db_path, set_up=linked)
        try:
            registry, problems = build_registry(
                connection,
                tool_dirs=tool_dirs,
                allow_sql=allow_sql,
                timezone=timezone,
                semantic_file=semantic_file or semantic_path_for(db_path),
            )
        except BaseException:
            connection.close()
            raise
        executor = Executor(registry, connection, timeout_s=timeout_s)
        return cls(
            db_path,
            connection,
            registry,
            executor,
            problems,
            created,
            linked.tables if linked else {},
            linked.problems if linked else [],
        )

    def cursor(self) -> duckdb.DuckDBPyConnection:
        return self.connection.cursor()

    def close(self) -> None:
        self.executor.close()
        self.connection.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def prepare_database(db_path: Path, *, sample_data: bool) -> bool:
    """Check the path names a file, and create the database on first use (True): with the sample data
    for the default database and the demo, empty for any other."""
    if db_path.is_dir():
        raise DatabaseError(f"{db_path} is a folder; --db takes a database file path")
    return ensure_database(db_path, sample_data=sample_data)
