"""``aggregate``: one structured query builder for "how many / how much / by what / over time" on any table.

Its schema lists the tables (and, while the catalog is small, the column names) as enums, read from the
catalog when the registry is built, so a model picks real names. Every name is checked again at run time
against the chosen table; an unknown one gets the valid names and a "did you mean". Values are bound
parameters. A filter value that matches nothing is answered with the closest real values.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Annotated, Any, Literal

import duckdb
from pydantic import Field, WithJsonSchema, create_model

from analytics_agent.db.catalog import VISIBLE_RELATIONS, get_profile, quote_ident
from analytics_agent.errors import ToolError
from analytics_agent.suggest import closest, did_you_mean
from analytics_agent.tools.aggregate_sql import (
    GRAINS,
    METRIC_SQL,
    FilterPlan,
    MetricPlan,
    QueryPlan,
    build_query,
    metric_alias,
    where_clause,
)
from analytics_agent.tools.arguments import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.shaping import MAX_ROWS, Rows

MAX_TABLE_ENUM = 40
MAX_IN_VALUES = 50
_SUGGEST_POOL = 1000
_NUMERIC = re.compile(r"^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|U\w*INT|FLOAT|DOUBLE|REAL|DECIMAL)", re.I)
_TEMPORAL = re.compile(r"^(DATE|TIMESTAMP)", re.I)
Scalar = str | int | float
_SCALAR_SCHEMAS = [{"type": "string"}, {"type": "number"}]
# Told to the model compactly (JSON "number" covers integers); validated as the precise Python union. An
# anyOf, not a type list: Ollama and Gemini reject "type": [...] (docs/portable-schemas.md).
FilterValue = Annotated[
    Scalar | Annotated[list[Scalar], Field(max_length=MAX_IN_VALUES)],
    WithJsonSchema({"anyOf": [*_SCALAR_SCHEMAS, {"type": "array", "items": {"anyOf": _SCALAR_SCHEMAS}}]}),
]
OPS = ("=", "!=", "<", "<=", ">", ">=", "in", "between", "like", "is_null", "not_null")

DESCRIPTION = (
    "Metrics over any table, by group_by columns and/or a time_grain of time_column; filters ANDed. "
    "Output names: fn_column or count. order_by: one of them, '-' first for descending."
)

Catalog = dict[str, dict[str, str]]


def read_catalog(cursor: duckdb.DuckDBPyConnection) -> Catalog:
    """Every table's columns and types, in one catalog query, as the registry is built."""
    catalog: Catalog = {}
    for table, column, kind in cursor.execute(
        f"SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE {VISIBLE_RELATIONS} "
        "ORDER BY table_name, column_index"
    ).fetchall():
        catalog.setdefault(table, {})[column] = kind
    return catalog


def arguments_for(catalog: Catalog) -> type[ToolArguments]:
    """The arguments model. Tables are an enum (while there are few); columns are plain strings, since an
    enum of every column would cost its tokens in every request: each name is checked against the chosen
    table at run time, with "did you mean" (describe_table lists them)."""
    tables = sorted(catalog)
    table_t: Any = Literal[tuple(tables)] if 0 < len(tables) <= MAX_TABLE_ENUM else str
    metric = create_model(
        "Metric",
        __base__=ToolArguments,
        fn=(Literal[tuple(METRIC_SQL)], ...),
        column=(str | None, _lean_field(None)),
    )
    condition = create_model(
        "Filter",
        __base__=ToolArguments,
        column=(str, ...),
        op=(Literal[OPS], ...),
        value=(FilterValue | None, _lean_field(None, description="list for in/between")),
    )
    return create_model(
        "AggregateArguments",
        __base__=ToolArguments,
        table=(table_t, ...),
        metrics=(list[metric], _lean_field(lambda: [metric(fn="count")], min_length=1, max_length=6)),
        group_by=(list[str], _lean_field(list, max_length=4)),
        filters=(list[condition], _lean_field(list, max_length=8)),
        time_column=(str | None, _lean_field(None)),
        time_grain=(Literal[GRAINS] | None, _lean_field(None)),
        order_by=(str | None, _lean_field(None)),
        limit=(Annotated[int, Field(strict=True, ge=1, le=MAX_ROWS)] | None, _lean_field(None)),
    )


def _lean_field(default: Any, **kwargs: Any) -> Any:
    """A field whose JSON Schema says only what a model needs: no null branch or default (leaving it out
    means the default; strict mode adds the null branch back), no item counts (still validated)."""
    if callable(default):
        return Field(default_factory=default, json_schema_extra=_lean, **kwargs)
    return Field(default, json_schema_extra=_lean, **kwargs)


def _lean(schema: dict[str, Any]) -> None:
    for key in ("default", "minItems", "maxItems"):
        schema.pop(key, None)
    branches = [b for b in schema.pop("anyOf", []) if b.get("type") != "null"]
    if len(branches) == 1:
        schema.update(branches[0])
    elif branches:
        schema["anyOf"] = branches


class Aggregate(Tool):
    name = "aggregate"
    description = DESCRIPTION
    returns = "rows"

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    @cached_property
    def arguments(self) -> type[ToolArguments]:  # type: ignore[override]
        return arguments_for(self.catalog)

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        plan = self.plan(args)
        sql, params = build_query(plan)
        cursor.execute(sql, params)
        columns = tuple(d[0] for d in cursor.description)
        rows = cursor.fetchmany(MAX_ROWS + 1)
        if _looks_empty(plan, rows) and plan.filters:
            _explain_no_rows(cursor, plan, self.catalog[plan.table])
        total = len(rows)
        if total > MAX_ROWS:
            total = cursor.execute(f"SELECT count(*) FROM ({sql})", params).fetchone()[0]
        hint = "narrow it: add a filter, a coarser time_grain or a limit with order_by"
        return ToolValue(Rows(columns=columns, rows=rows, total=total, hint=hint), sql=sql)

    def plan(self, args: Any) -> QueryPlan:
        """Check every name against the catalog and every value's shape; ToolError names what to fix."""
        table = args.table
        if table not in self.catalog:
            raise ToolError(
                f"no table {table!r}{did_you_mean(table, self.catalog)}; tables: {', '.join(self.catalog)}"
            )
        types = self.catalog[table]
        metrics = [_metric(m.fn, m.column, table, types) for m in args.metrics]
        group_by = [_column(c, table, types, "group_by") for c in args.group_by]
        filters = [_filter(f, table, types) for f in args.filters]
        time_column, time_alias = _time(args.time_column, args.time_grain, table, types, group_by)
        aliases = _unique_aliases(metrics, taken={*group_by, *([time_alias] if time_alias else [])})
        outputs = [*([time_alias] if time_alias else []), *group_by, *(m.alias for m in aliases)]
        order_by, descending = _order_by(args.order_by, outputs)
        return QueryPlan(
            table=table,
            metrics=aliases,
            group_by=group_by,
            filters=filters,
            time_column=time_column,
            time_grain=args.time_grain,
            time_alias=time_alias,
            time_is_date=bool(time_column) and types[time_column].upper() == "DATE",
            time_ordered=any(_TEMPORAL.match(types[c]) for c in group_by),
            order_by=order_by,
            descending=descending,
            limit=args.limit,
        )


def _column(name: str, table: str, types: dict[str, str], where: str) -> str:
    if name not in types:
        raise ToolError(
            f"{where}: {table} has no column {name!r}{did_you_mean(name, types)}; columns: {', '.join(types)}"
        )
    return name


def _metric(fn: str, column: str | None, table: str, types: dict[str, str]) -> MetricPlan:
    if column is None:
        if fn != "count":
            raise ToolError(f"metrics: {fn} needs a column")
        return MetricPlan(fn, None, "count")
    _column(column, table, types, "metrics")
    if fn in ("sum", "avg") and not _NUMERIC.match(types[column]):
        numeric = [c for c, t in types.items() if _NUMERIC.match(t)]
        raise ToolError(
            f"metrics: {fn} needs a numeric column; {column} is {types[column]}; "
            f"numeric columns of {table}: {', '.join(numeric) or 'none'}"
        )
    return MetricPlan(fn, column, metric_alias(fn, column))


def _unique_aliases(metrics: list[MetricPlan], *, taken: set[str]) -> list[MetricPlan]:
    result = []
    for m in metrics:
        alias, n = m.alias, 1
        while alias in taken:
            n += 1
            alias = f"{m.alias}_{n}"
        taken.add(alias)
        result.append(MetricPlan(m.fn, m.column, alias))
    return result


def _filter(f: Any, table: str, types: dict[str, str]) -> FilterPlan:
    _column(f.column, table, types, "filters")
    value = f.value
    if f.op in ("is_null", "not_null"):
        return FilterPlan(f.column, f.op)
    if f.op == "in" and not (isinstance(value, list) and value):
        raise ToolError(f'filters: {f.column} in needs a non-empty list value, e.g. ["a", "b"]')
    if f.op == "between" and not (isinstance(value, list) and len(value) == 2):
        raise ToolError(f"filters: {f.column} between needs a list of two values [low, high]")
    if f.op not in ("in", "between") and (value is None or isinstance(value, list)):
        raise ToolError(f"filters: {f.column} {f.op} needs one value (not a list)")
    if f.op == "like" and not isinstance(value, str):
        raise ToolError('filters: like needs a text pattern with % wildcards, e.g. "%pro%"')
    return FilterPlan(f.column, f.op, value)


def _time(
    column: str | None, grain: str | None, table: str, types: dict[str, str], group_by: list[str]
) -> tuple[str | None, str | None]:
    if grain is None:
        if column is not None:
            raise ToolError(f"time_column needs a time_grain ({', '.join(GRAINS)})")
        return None, None
    dated = [c for c, t in types.items() if _TEMPORAL.match(t)]
    if column is None:
        if len(dated) != 1:
            raise ToolError(
                f"time_grain needs a time_column; date columns of {table}: {', '.join(dated) or 'none'}"
            )
        column = dated[0]
    _column(column, table, types, "time_column")
    if column not in dated:
        raise ToolError(
            f"time_column: {column} is {types[column]}, not a date; date columns of {table}: "
            f"{', '.join(dated) or 'none'}"
        )
    alias = grain if grain not in group_by else f"{column}_{grain}"
    return column, alias


def _order_by(text: str | None, outputs: list[str]) -> tuple[str | None, bool]:
    if not text:
        return None, False
    name = text.strip()
    descending = name.startswith("-")
    name = name.lstrip("-").strip()
    if name not in outputs:
        raise ToolError(
            f"order_by: {name!r} is not a result column{did_you_mean(name, outputs)}; "
            f"result columns: {', '.join(outputs)}"
        )
    return name, descending


def _looks_empty(plan: QueryPlan, rows: list[tuple[Any, ...]]) -> bool:
    """Grouped: no groups. Ungrouped: one row of nothing (count 0, sums null)."""
    if plan.group_by or plan.time_grain:
        return not rows
    return bool(rows) and all(v is None or v == 0 for v in rows[0])


def _explain_no_rows(cursor: duckdb.DuckDBPyConnection, plan: QueryPlan, types: dict[str, str]) -> None:
    """Raise the reason no row matched: a value that does not exist (with the closest real ones), else
    the filters as a whole. Returns quietly when rows do match (a real zero)."""
    where, params = where_clause(plan.filters)
    table = quote_ident(plan.table)
    if cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table}{where})", params).fetchone()[0]:
        return
    for f in plan.filters:
        if f.op not in ("=", "in") or not types[f.column].upper().startswith("VARCHAR"):
            continue
        values = f.value if f.op == "in" else [f.value]
        col = quote_ident(f.column)
        missing = [
            v
            for v in values
            if not cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {table} WHERE {col} = ?)", [v]).fetchone()[0]
        ]
        if missing:
            word = str(missing[0])
            found = closest(word, _known_values(cursor, plan.table, f.column))
            hint = f"; did you mean {' or '.join(repr(v) for v in found)}?" if found else ""
            raise ToolError(f"no rows where {f.column} = {word!r}{hint}")
    described = " and ".join(
        f"{f.column} {f.op} {f.value!r}" if f.value is not None else f"{f.column} {f.op}"
        for f in plan.filters
    )
    raise ToolError(f"no rows in {plan.table} where {described}; check the values with describe_table")


def _known_values(cursor: duckdb.DuckDBPyConnection, table: str, column: str) -> list[str]:
    """The stored profile's values, else a bounded DISTINCT read."""
    for c in get_profile(cursor, table)["columns"]:
        if c["name"] == column and c.get("values") is not None:
            return [str(v) for v in c["values"]]
    col = quote_ident(column)
    rows = cursor.execute(
        f"SELECT DISTINCT CAST({col} AS VARCHAR) FROM {quote_ident(table)} WHERE {col} IS NOT NULL "
        f"LIMIT {_SUGGEST_POOL}"
    ).fetchall()
    return [r[0] for r in rows]
