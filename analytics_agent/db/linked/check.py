"""Try a source without touching the database: attach it to a scratch in-memory connection and list
what the tools would see. Used by ``sources add`` (before saving) and ``sources test``."""

from __future__ import annotations

import time
from dataclasses import dataclass

import duckdb

from analytics_agent.db.catalog import column_types
from analytics_agent.db.connect import extension_dir
from analytics_agent.db.linked.link import link_sources
from analytics_agent.db.linked.spec import Source


@dataclass(frozen=True)
class SourceReport:
    source: Source
    tables: dict[str, int]
    """Each table the source gives, with its number of columns."""
    seconds: float
    problems: tuple[str, ...] = ()


def check_source(source: Source) -> SourceReport:
    """Attach one source in a scratch connection; a SourceError says what failed."""
    started = time.perf_counter()
    conn = duckdb.connect(
        ":memory:",
        config={
            "autoload_known_extensions": False,
            "autoinstall_known_extensions": False,
            "extension_directory": str(extension_dir()),
        },
    )
    try:
        linked = link_sources(conn, [source])
        tables = {name: len(column_types(conn, name)) for name in linked.tables}
        return SourceReport(source, tables, time.perf_counter() - started, tuple(linked.problems))
    finally:
        conn.close()
