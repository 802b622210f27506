"""``aggregate``: one structured query builder for "how many / how much / by what / over time" on any table.

Its schema lists the tables (and the semantic model's metric names) as enums, read from the catalog when
the registry is built, so a model picks real names. Every name is checked again at run time; an unknown
one gets the valid names and a "did you mean". Values are bound parameters. A filter value that matches
nothing is answered with the closest real values. Planning lives in ``aggregate_plan`` (names),
``aggregate_refs`` (related tables), ``aggregate_time`` (zones, days) and ``aggregate_sql`` (the SELECT).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

import duckdb

from analytics_agent.db.catalog import NO_TABLES, get_profile, quote_ident, stored_profile
from analytics_agent.db.catalog import (
    read_catalog as read_catalog,  # its old home; callers may import it here
)
from analytics_agent.db.relationships import duplicate_keys
from analytics_agent.db.rows import first_row
from analytics_agent.errors import ArgumentError, ToolError
from analytics_agent.suggest import clipped, closest
from analytics_agent.tools.aggregate.doc import DESCRIPTION
from analytics_agent.tools.aggregate.every_group import few_groups
from analytics_agent.tools.aggregate.previous import baseline_labels
from analytics_agent.tools.aggregate.query_plan import FilterPlan, Join, Params, QueryPlan
from analytics_agent.tools.aggregate.quick import QuickArguments, quick_arguments
from analytics_agent.tools.aggregate.schema import told_schema
from analytics_agent.tools.aggregate.sql import build_query, from_clause, leaves, unknown_names, where_clause
from analytics_agent.tools.aggregate.totals_rows import refuse_totals_rows
from analytics_agent.tools.base import Prepared, Tool, ToolValue
from analytics_agent.tools.results.fetch import QueryPlans, fetch_rows
from analytics_agent.tools.results.shaping import Rows
from analytics_agent.tools.semantics import Semantics

if TYPE_CHECKING:  # pydantic: the model is built on first use (a call), never to list the tools
    from analytics_agent.tools.aggregate.plan import Planner
    from analytics_agent.tools.args.models import ToolArguments

_SUGGEST_POOL = 1000
Catalog = dict[str, dict[str, str]]


class Aggregate(Tool):
    name = "aggregate"
    description = DESCRIPTION
    returns = "rows"

    def __init__(
        self,
        catalog: Catalog,
        *,
        semantics: Semantics | None = None,
        timezone: str = "UTC",
        empty: str = NO_TABLES,
    ) -> None:
        self.catalog = catalog
        self._empty = empty
        """What a call is told when there is no table (a reader the access policy shows none: another)."""
        self.semantics = semantics or Semantics()
        self._timezone = timezone
        self._unique: set[tuple[str, str]] = set()
        self._fetch_plans = QueryPlans()
        self._profiles: dict[str, dict[str, Any]] = {}
        """Per table, its stored profile, read once (never a scan): a stale one could only pick the slower
        of two queries that answer alike, or miss totals rows a reload has since dropped."""

    @cached_property
    def _tables(self) -> tuple[str, ...]:
        return tuple(sorted(self.catalog))

    @cached_property
    def planner(self) -> Planner:
        """Built on the first call: listing the tools or describing a table needs no planner (its modules
        are ~0.1 s of a command's start on a table of your own)."""
        from analytics_agent.tools.aggregate.plan import Planner

        return Planner(self.catalog, self.semantics, self._timezone)

    @cached_property
    def arguments(self) -> type[ToolArguments]:  # type: ignore[override]
        from analytics_agent.tools.aggregate.arguments import arguments_for  # pydantic: on first use

        return arguments_for(self.catalog, tuple(self.semantics.metrics))

    def json_schema(self) -> dict[str, Any]:
        return told_schema(sorted(self.catalog), tuple(self.semantics.metrics))

    def prepare(self, data: dict[str, Any]) -> Prepared:
        """Validated arguments; a named metric the model asked for that the semantic file meant to define
        but could not (a problem in the file) is answered with that problem, file and line. Plainly valid
        arguments are read without the pydantic model (``quick``), which decides everything else."""
        quick = quick_arguments(data, self._tables, tuple(self.semantics.metrics))
        if quick is not None:
            args, as_json = quick
            return Prepared(lambda cursor: self.run(cursor, args), as_json)
        try:
            return super().prepare(data)
        except ArgumentError as exc:
            raise ArgumentError(_named_metric_errors(str(exc), self.semantics, data)) from None

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments | QuickArguments) -> ToolValue:
        plan = self.plan(args)
        self._check_keys(cursor, plan.joins)
        _check_named_values(cursor, plan)
        refuse_totals_rows(cursor, plan, self._totals_rows(cursor, plan.table))
        one_pass = bool(plan.compare and plan.keys) and not self._few_groups(cursor, plan)
        sql, params = build_query(plan, one_pass=one_pass)
        hint = "narrow it: add a filter, a coarser time_grain or a limit with order_by"
        # values cut to size before Python holds them; the query's types are bound once per query text
        result = fetch_rows(cursor, sql, params, hint=hint, plans=self._fetch_plans.get(sql), learn=False)
        result = _without_empty(result, unknown_names(plan), baseline_labels(plan))
        if _looks_empty(plan, result.rows) and plan.filters:
            _explain_no_rows(cursor, plan)
        return ToolValue(result, sql=sql, params=params)

    def _check_keys(self, cursor: duckdb.DuckDBPyConnection, joins: Sequence[Join]) -> None:
        """A key of a big table was only sampled when it was loaded: check it in full once, before the
        first join to it, so no join can ever repeat rows."""
        for j in joins:
            if j.verified or (j.table, j.key) in self._unique:
                continue
            dupes = duplicate_keys(cursor, j.table, j.key)
            if dupes:
                raise ToolError(
                    f"{j.table}.{j.key} is not a unique key ({dupes} rows repeat a value or are empty), so "
                    f"joining {j.table} would repeat rows and double-count; refused"
                )
            self._unique.add((j.table, j.key))

    def _stored(self, cursor: duckdb.DuckDBPyConnection, table: str) -> dict[str, Any]:
        if table not in self._profiles:
            self._profiles[table] = stored_profile(cursor, table) or {}
        return self._profiles[table]

    def _totals_rows(self, cursor: duckdb.DuckDBPyConnection, table: str) -> dict[str, Any] | None:
        """The footer totals rows the table's load kept (``totals_rows``), if any."""
        return self._stored(cursor, table).get("totals_rows")

    def _few_groups(self, cursor: duckdb.DuckDBPyConnection, plan: QueryPlan) -> bool:
        """Whether a grouped comparison's groups are known to be few, by the table's stored profile (never
        a scan): then it reads only its periods' rows (``every_group``), else it groups every row once."""
        columns = self._stored(cursor, plan.table).get("columns", [])
        listed = {c["name"]: len(c["values"]) for c in columns if c.get("values") is not None}
        return few_groups(plan.keys, listed)

    def plan(self, args: Any) -> QueryPlan:
        """Check every name against the catalog and every value's shape; ToolError names what to fix."""
        if not self.catalog:
            raise ToolError(self._empty)
        return self.planner.plan(args)


def _without_empty(result: Rows, zero: Sequence[str], null: Sequence[str]) -> Rows:
    """The result without the columns of ``zero`` (a pct's count of rows its condition cannot judge) that
    are 0 on every row, and of ``null`` (the bucket ``previous`` compared with, when never a gap) that are
    NULL on every row: they would say nothing and cost tokens."""
    drop = {
        i
        for i, c in enumerate(result.columns)
        if (c in zero and all(r[i] in (0, None) for r in result.rows))
        or (c in null and all(r[i] is None for r in result.rows))
    }
    if not drop:
        return result
    keep = [i for i in range(len(result.columns)) if i not in drop]
    return replace(
        result,
        columns=tuple(result.columns[i] for i in keep),
        rows=[tuple(r[i] for i in keep) for r in result.rows],
    )


_NO_METRIC_FIELD = re.compile(r"^(metrics\.\d+\.metric): Extra inputs are not permitted$")
_MAX_PROBLEMS = 3


def _named_metric_errors(message: str, semantics: Semantics, data: dict[str, Any]) -> str:
    """``metrics.0.metric: Extra inputs are not permitted`` (no named metric exists, so the schema has no
    ``metric``) said as what it is. When the semantic file has problems they are named, with file and line:
    all of them when no metric survived, else those about the metric names asked for (a misspelt key
    skipped that definition)."""
    lines = message.splitlines()
    problems = list(semantics.problems)
    told: list[str] = []
    for i, line in enumerate(lines):
        found = _NO_METRIC_FIELD.match(line)
        if found:
            why = "the semantic file's metrics were skipped" if problems else "none is defined"
            lines[i] = f"{found[1]}: there is no named metric ({why}); give fn and column instead"
            told = problems
            break
    if not told and problems and any(".metric:" in line for line in lines):
        asked = _asked_metrics(data)
        told = [p for p in problems if any(f".metrics.{name}:" in p for name in asked)]
    if told:
        shown = "; ".join(told[:_MAX_PROBLEMS])
        more = f"; and {len(told) - _MAX_PROBLEMS} more" if len(told) > _MAX_PROBLEMS else ""
        lines.append(f"the semantic file has problems: {shown}{more}")
    return "\n".join(lines)


def _asked_metrics(data: dict[str, Any]) -> set[str]:
    metrics = data.get("metrics")
    if not isinstance(metrics, list):
        return set()
    return {m["metric"] for m in metrics if isinstance(m, dict) and isinstance(m.get("metric"), str)}


def _looks_empty(plan: QueryPlan, rows: list[tuple[Any, ...]]) -> bool:
    """Grouped: no groups. Ungrouped: one row of nothing (count 0, sums null)."""
    if plan.keys:
        return not rows
    return bool(rows) and all(v is None or v == 0 for v in rows[0])


def _explain_no_rows(cursor: duckdb.DuckDBPyConnection, plan: QueryPlan) -> None:
    """Raise the reason no row matched: a value that does not exist (with the closest real ones), else
    the filters as a whole. Returns quietly when rows do match (a real zero)."""
    params = Params()
    where = where_clause(plan.filters, params)
    source = from_clause(plan)
    if first_row(cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {source}{where})", params.values))[0]:
        return
    for f in plan.filters:
        if f.op in ("=", "in"):
            _refuse_missing(cursor, f)
    if any(f.op in ("exists", "not_exists") for f in plan.filters):
        return  # "customers with no order": none is the answer, not a misspelt value
    raise ToolError(
        f"no rows in {plan.table} where {_described(plan.filters)}; check the values with describe_table"
    )


_SILENT_OPS = ("in", "not_in", "!=")
"""Filter operators where a value that is in no row changes the answer without emptying it."""


def _check_named_values(cursor: duckdb.DuckDBPyConnection, plan: QueryPlan) -> None:
    """A misspelt value in a list (carrier in ['UA', 'XX']), after != or in a metric's condition (sex =
    'Female') matches nothing yet leaves an answer that looks right: refuse it with the closest real
    values. (A plain = filter that empties the result is explained after the query, at no cost before.)"""
    conditions = [f for m in plan.metrics for leaf in leaves(m) if not leaf.defined for f in leaf.where]
    for f in [*(f for f in plan.filters if f.op in _SILENT_OPS), *conditions]:
        if f.op in ("=", *_SILENT_OPS):
            _refuse_missing(cursor, f)


def _refuse_missing(cursor: duckdb.DuckDBPyConnection, f: FilterPlan) -> None:
    """ToolError naming the first text value of ``f`` that no row of its column holds."""
    if not f.table or not isinstance(f.value, str | list):
        return
    values = [v for v in (f.value if isinstance(f.value, list) else [f.value]) if isinstance(v, str)]
    if not values:
        return
    known = _profile_values(cursor, f.table, f.source) or []
    table, col = quote_ident(f.table), quote_ident(f.source)
    for v in values:
        if (
            v in known
            or first_row(
                cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE CAST({col} AS VARCHAR) = ?)", [v])
            )[0]
        ):
            continue
        found = closest(v, _known_values(cursor, f.table, f.source))
        hint = f"; did you mean {' or '.join(repr(x) for x in found)}?" if found else ""
        raise ToolError(f"no rows where {f.column} = {clipped(repr(v))}{hint}")


def _described(filters: Sequence[FilterPlan]) -> str:
    return " and ".join(
        f"{f.column} {f.op} {f.value!r}"
        if f.op not in ("is_null", "not_null", "range")
        else f"{f.column} {f.op}"
        for f in filters
    )


def _profile_values(cursor: duckdb.DuckDBPyConnection, table: str, column: str) -> list[str] | None:
    """Every value of a low-cardinality text column, as the profile lists them; None when not listed."""
    for c in get_profile(cursor, table)["columns"]:
        if c["name"] == column and c.get("values") is not None:
            return [str(v) for v in c["values"]]
    return None


def _known_values(cursor: duckdb.DuckDBPyConnection, table: str, column: str) -> list[str]:
    """The stored profile's values, else a bounded DISTINCT read."""
    listed = _profile_values(cursor, table, column)
    if listed is not None:
        return listed
    col = quote_ident(column)
    rows = cursor.execute(
        f"SELECT DISTINCT CAST({col} AS VARCHAR) FROM {quote_ident(table)} WHERE {col} IS NOT NULL "
        f"LIMIT {_SUGGEST_POOL}"
    ).fetchall()
    return [r[0] for r in rows]
