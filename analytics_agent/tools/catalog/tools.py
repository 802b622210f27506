"""Tools over whatever the database holds: ``list_tables`` and ``describe_table``."""

from __future__ import annotations

from collections.abc import Mapping
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import duckdb

from analytics_agent.db.catalog import NO_TABLES, get_profile, list_tables
from analytics_agent.db.visible import NONE_SHARED, Visible
from analytics_agent.errors import ToolError
from analytics_agent.tools.args.quick import quick_values
from analytics_agent.tools.args.spec import ParamSpec
from analytics_agent.tools.base import Prepared, ToolValue
from analytics_agent.tools.catalog.profile_view import fit_profile
from analytics_agent.tools.declared import DeclaredTool
from analytics_agent.tools.results.shaping import Rows

if TYPE_CHECKING:  # pydantic: imported when a model is first built (schemas, a call to check)
    from analytics_agent.tools.args.models import ToolArguments
    from analytics_agent.tools.semantics import Semantics  # describe_table is built on first use


class ListTables(DeclaredTool):
    name = "list_tables"
    description = "Tables with row and column counts; then describe_table."
    returns = "rows"

    def __init__(self, visible: Visible | None = None) -> None:
        self.visible = visible

    def prepare(self, data: dict[str, Any]) -> Prepared:
        if data:  # an unknown key: the model words the error
            return super().prepare(data)
        return Prepared(self.tables, {})

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        return self.tables(cursor)

    def tables(self, cursor: duckdb.DuckDBPyConnection) -> ToolValue:
        infos = list_tables(cursor, self.visible)
        rows = [(t.name, t.rows, t.columns) for t in infos]
        return ToolValue(Rows(columns=("table", "rows", "columns"), rows=rows, total=len(rows)))


_TABLE_NAME = ParamSpec("table", "string", "Table name.")
_PAGE = ParamSpec("page", "integer", "", default=None)
"""Told as a plain integer: leaving it out means page 1; any lower number means page 1 too (no minimum in
the schema: tokens)."""


class DescribeTable(DeclaredTool):
    name = "describe_table"
    description = "Columns (type, nulls, range, values), related tables, named metrics. Before aggregate."

    def __init__(
        self,
        tables: list[str],
        semantics: Semantics | None = None,
        *,
        catalog: Mapping[str, Mapping[str, str]] | None = None,
        timezone: str = "UTC",
        visible: Visible | None = None,
    ) -> None:
        if semantics is None:
            from analytics_agent.tools.semantics import Semantics

            semantics = Semantics()
        self.semantics = semantics
        self.catalog = catalog or {}
        self.timezone = timezone
        self.visible = visible
        self._empty = not tables
        # the enum says what a table is; a description only where there is none (tokens)
        table = ParamSpec("table", "enum", "", choices=tuple(tables)) if tables else _TABLE_NAME
        self.params = (table, _PAGE)

    def prepare(self, data: dict[str, Any]) -> Prepared:
        """Plainly valid arguments (a listed table, a page number) need no pydantic model: building the
        first one costs a one-call command (``tools call describe_table``) about as much CPU as importing
        DuckDB (docs/performance.md, own tables). Anything else goes to the model, which words errors."""
        quick = quick_values(self.params, {}, data)
        if quick is None:
            return super().prepare(data)
        values, as_json = quick
        args = SimpleNamespace(**values)
        return Prepared(lambda cursor: self.run(cursor, args), as_json)  # type: ignore[arg-type]

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        if self._empty:
            raise ToolError(NO_TABLES if self.visible is None else NONE_SHARED)
        # the planner's names: heavy, so imported when describe_table first runs
        from analytics_agent.tools.semantic.describe import semantic_summary, table_summary

        table = args.table  # type: ignore[attr-defined]  # a field of the model built from params
        extra = semantic_summary(table, self.semantics)
        extra = {
            **table_summary(cursor, table, self.catalog.get(table, {}), self.semantics, self.timezone),
            **extra,
        }
        extra.setdefault("related", "none")
        extra.setdefault("metrics", "none")
        try:
            # pages count from 1; any lower number means the first (no minimum in the schema: tokens)
            page = max(1, args.page or 1)  # type: ignore[attr-defined]
            profile = get_profile(cursor, table)
            if self.visible is not None:
                profile = self.visible.profile(table, profile)
            return ToolValue(fit_profile(profile, page=page, extra=extra))
        except ValueError as exc:
            raise ToolError(str(exc)) from None
