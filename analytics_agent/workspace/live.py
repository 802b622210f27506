"""A workspace for a long-running server: it lets go of the database file whenever it is idle.

DuckDB lets one process write a file only while no other process has it open, even read-only. A server
that held its connection for hours would lock the user out of ``load`` in another terminal, so
``LiveWorkspace`` opens the sandboxed connection on demand, shares it between overlapping calls, and
closes it once no call has used it for ``idle_s`` seconds (``tick``). Whenever it reopens, it compares the
file with what the registry was built from and rebuilds the registry if another process changed it (the
city enums, the tables ``aggregate`` knows). The file cannot change while our connection is open, so
checking at open time is enough. A linked lake can (a writer elsewhere commits to it): each reopen reads
its version too (``SourceSetUp.versions``), and a new one rebuilds the registry from the lake as it now is.

Each signed-in reader an access policy limits sees the workspace through their own registry (``views``):
``registry``, ``tables`` and ``execute`` answer as the current principal (``team.principal.current``).

Thread-safe: calls run in worker threads; ``tick`` runs from a timer.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.catalog import read_catalog, table_names
from analytics_agent.db.connect import open_sandbox
from analytics_agent.db.linked.link import SourceSetUp
from analytics_agent.db.linked.spec import Source
from analytics_agent.db.visible import Visible
from analytics_agent.errors import AnalyticsAgentError, ToolDefinitionError
from analytics_agent.team.principal import current
from analytics_agent.tools.build import build_registry
from analytics_agent.tools.executor import DEFAULT_TIMEOUT_S, Executor, ToolOutcome, error_outcome
from analytics_agent.tools.registry import Registry
from analytics_agent.tools.semantic.load import semantic_path_for
from analytics_agent.workspace.views import Views
from analytics_agent.workspace.workspace import Workspace, prepare_database

log = logging.getLogger(__name__)
DEFAULT_IDLE_S = 2.0
CALL_LOCK_WAIT_S = 5.0  # a call waits this long for another process's write (a load) to finish
# A server busy with calls never goes idle; with linked sources it still lets go of its connection between
# two calls once it is this old, so a lake another process commits to is read anew (its tables, profiles).
SOURCES_RECHECK_S = 30.0

Fingerprint = tuple[tuple[int, int, int] | None, ...]


@dataclass(frozen=True)
class Change:
    """What a reopen found different from before: the tool list, the table list."""

    tools: bool = False
    tables: bool = False

    def __bool__(self) -> bool:
        return self.tools or self.tables


class LiveWorkspace:
    def __init__(
        self,
        db_path: Path,
        *,
        tool_dirs: Sequence[Path] = (),
        allow_sql: bool = False,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        idle_s: float = DEFAULT_IDLE_S,
        recheck_s: float = SOURCES_RECHECK_S,
        sources: Sequence[Source] = (),
        sample_data: bool = False,
        timezone: str = "UTC",
        access_file: Path | None = None,
    ) -> None:
        self.db_path = db_path
        self._views = Views(db_path, access_file)  # a broken policy stops the server here, file:line
        self._catalog: dict[str, dict[str, str]] = {}
        self._source_tables: dict[str, str] = {}
        self._executors: dict[Visible, Executor] = {}
        self._retired: list[Executor] = []
        self._sources = tuple(sources)
        self._timezone = timezone
        self._tool_dirs = tuple(tool_dirs)
        self._allow_sql = allow_sql
        self._timeout_s = timeout_s
        self.idle_s = idle_s
        self.recheck_s = recheck_s
        self._lock = threading.Lock()
        self._open: Workspace | None = None
        self._users = 0
        self._last_used = 0.0
        self._opened_at = 0.0
        self._fingerprint: Fingerprint | None = None
        self._versions: dict[str, str] = {}
        self._registry: Registry | None = None
        self._tables: list[str] = []
        self._pending = Change()
        self.problems: list[ToolDefinitionError] = []
        self.source_problems: list[str] = []
        """Sources skipped at the last open (a stopped server); each is logged once when it first shows."""
        self.created = prepare_database(db_path, sample_data=sample_data)
        with self.use():  # build the registry now: a clash of tool names fails at start, not on first call
            pass

    @property
    def registry(self) -> Registry:
        """The current principal's tools as of the last time the file was read (a call reopening after a
        change refreshes them)."""
        assert self._registry is not None
        with self._lock:
            visible = self._visible()
            built = self._registry if visible is None else self._views.cached(visible)
        if built is not None:  # listing the tools opens the file only to build a reader's first view
            return built
        with self.use() as ws:
            return self._executor_in(ws).registry

    @property
    def tables(self) -> list[str]:
        """The tables the current principal sees."""
        visible = self.visible()
        return [t for t in self._tables if visible is None or visible.sees(t)]

    def visible(self) -> Visible | None:
        """What the current principal sees (None: everything), by the policy as its file is now."""
        with self._lock:
            return self._visible()

    def execute(self, name: str, arguments: dict[str, Any] | str | None) -> ToolOutcome:
        """Run one tool call as the current principal; a database that cannot be opened is an error
        result, as any other failure."""
        try:
            with self.use() as ws:
                return self._executor_in(ws).execute(name, arguments)
        except AnalyticsAgentError as exc:
            return error_outcome(name, str(exc))

    def _visible(self) -> Visible | None:
        if self._views.refresh():
            self._pending = Change(tools=True, tables=True)
            self._views.warn(self._catalog, self._source_tables)
        return self._views.visible(current(), self._catalog, self._source_tables)

    def _executor_in(self, ws: Workspace) -> Executor:
        """The current principal's executor on the open workspace: the owner's, or one over their view's
        registry (built on first use, and again after the file or the policy changed)."""
        with self._lock:
            visible = self._visible()
            if visible is None:
                return ws.executor
            registry = self._views.registry(visible, lambda v: self._view_registry(ws, v))
            executor = self._executors.get(visible)
            if executor is None or executor.registry is not registry:
                if executor is not None:  # a call may still run on it: closed with the connection
                    self._retired.append(executor)
                executor = Executor(registry, ws.connection, timeout_s=self._timeout_s)
                self._executors[visible] = executor
            return executor

    def _view_registry(self, ws: Workspace, visible: Visible) -> Registry:
        registry, _ = build_registry(  # the problems are the owner's, told when the file was read
            ws.connection,
            tool_dirs=self._tool_dirs,
            allow_sql=self._allow_sql,
            timezone=self._timezone,
            semantic_file=semantic_path_for(self.db_path),
            visible=visible,
        )
        registry.build_deferred()
        return registry

    @contextmanager
    def use(self) -> Iterator[Workspace]:
        """The open workspace for one call; opened (and the registry rebuilt if the file changed) on demand."""
        with self._lock:
            ws = self._open or self._reopen(lock_wait_s=CALL_LOCK_WAIT_S)
            self._users += 1
        try:
            yield ws
        finally:
            with self._lock:
                self._users -= 1
                self._last_used = time.monotonic()

    def tick(self) -> Change:
        """Close the connection if idle (or, over linked sources, old); if closed and the file changed
        (or linked sources are due a look: a lake may have a new snapshot), reopen, rebuild and say what
        changed, so clients hear of a writer's new table without calling first."""
        with self._lock:
            now = time.monotonic()
            due = bool(self._sources) and now - self._opened_at >= self.recheck_s
            if self._open is not None:
                if self._users == 0 and (now - self._last_used >= self.idle_s or due):
                    self._close()
            elif due or _fingerprint(self.db_path) != self._fingerprint:
                try:
                    self._reopen()
                    self._last_used = time.monotonic()
                except AnalyticsAgentError as exc:  # a writer holds the file: look again next tick
                    log.debug("database not readable yet: %s", exc)
            if self._views.refresh():
                self._pending = Change(tools=True, tables=True)
            change, self._pending = self._pending, Change()
            return change

    def close(self) -> None:
        with self._lock:
            if self._open is not None:
                self._close()

    def _reopen(self, *, lock_wait_s: float = 0.0) -> Workspace:
        fingerprint = _fingerprint(self.db_path)
        set_up = SourceSetUp(self._sources) if self._sources else None
        connection = open_sandbox(self.db_path, lock_wait_s=lock_wait_s, set_up=set_up)
        if set_up is not None:
            for problem in set_up.problems:
                if problem not in self.source_problems:
                    log.warning("%s", problem)
            self.source_problems = list(set_up.problems)
            if set_up.tables != self._source_tables:
                self._source_tables = dict(set_up.tables)
                self._views.clear()
        versions = dict(set_up.versions) if set_up is not None else {}
        try:
            if fingerprint != self._fingerprint or versions != self._versions or self._registry is None:
                self._rebuild(connection)
                self._fingerprint, self._versions = fingerprint, versions
        except BaseException:
            connection.close()
            raise
        assert self._registry is not None
        executor = Executor(self._registry, connection, timeout_s=self._timeout_s)  # the owner's
        self._open = Workspace(self.db_path, connection, self._registry, executor)
        self._opened_at = time.monotonic()
        return self._open

    def _rebuild(self, connection: duckdb.DuckDBPyConnection) -> None:
        registry, self.problems = build_registry(
            connection,
            tool_dirs=self._tool_dirs,
            allow_sql=self._allow_sql,
            timezone=self._timezone,
            semantic_file=semantic_path_for(self.db_path),
        )
        registry.build_deferred()  # this connection closes when idle; the registry stays
        cursor = connection.cursor()
        try:
            tables = table_names(cursor)
            self._catalog = read_catalog(cursor)
        finally:
            cursor.close()
        self._views.clear()
        self._views.warn(self._catalog, self._source_tables)
        if self._registry is not None:
            self._pending = Change(
                tools=self._pending.tools or registry.mcp_tools() != self._registry.mcp_tools(),
                tables=self._pending.tables or tables != self._tables,
            )
        self._registry, self._tables = registry, tables

    def _close(self) -> None:
        assert self._open is not None
        for executor in [*self._executors.values(), *self._retired]:
            executor.close()
        self._executors, self._retired = {}, []
        self._open.close()
        self._open = None


def _fingerprint(path: Path) -> Fingerprint:
    """The file and its write-ahead log as (mtime, size, inode): any write by another process changes it."""
    stats: list[tuple[int, int, int] | None] = []
    for candidate in (path, path.with_name(path.name + ".wal")):
        try:
            st = os.stat(candidate)
        except FileNotFoundError:
            stats.append(None)
        else:
            stats.append((st.st_mtime_ns, st.st_size, st.st_ino))
    return tuple(stats)
