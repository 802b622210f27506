"""Check a semantic file against the database: one problem per mistake, the rest kept and used.

Every metric and dimension is checked by planning it exactly as ``aggregate`` would (same resolver, same
metric builder), so what passes here runs there. A declared relationship must point at a unique key:
anything else would fan out and double-count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import duckdb

from analytics_agent.db.catalog import SAMPLE_ROWS, quote_ident
from analytics_agent.db.relationships import Relationship, duplicate_keys
from analytics_agent.db.rows import first_row
from analytics_agent.errors import SemanticModelError, ToolError
from analytics_agent.suggest import did_you_mean
from analytics_agent.tools.aggregate.metrics import build_metric
from analytics_agent.tools.aggregate.plan import Planner
from analytics_agent.tools.aggregate.query_plan import METRIC_FNS
from analytics_agent.tools.aggregate.refs import Catalog
from analytics_agent.tools.aggregate.time import TEMPORAL, check_zone
from analytics_agent.tools.semantic.model import RelationshipDef, SemanticFile
from analytics_agent.tools.semantics import MetricDef, Semantics

_Problem = Callable[[int, str], None]  # report one mistake: its line and message


def check_semantic(
    file: SemanticFile, catalog: Catalog, inferred: Sequence[Relationship], cur: duckdb.DuckDBPyConnection
) -> tuple[Semantics, list[SemanticModelError]]:
    """The usable part of ``file`` and its problems (the file's own parse problems first)."""
    problems = list(file.problems)

    def problem(line: int, message: str) -> None:
        problems.append(SemanticModelError(message, path=file.path, line=line))

    known = {t.name for t in file.tables if _table_known(t.name, t.line, catalog, problem)}
    time_columns = {}
    for t in file.tables:
        if t.name in known and t.time_column:
            kind = catalog[t.name].get(t.time_column)
            if kind is None or not TEMPORAL.match(kind):
                problem(t.line, f"{t.name}.time_column: {_missing(t.time_column, t.name, catalog, 'date')}")
            else:
                time_columns[t.name] = t.time_column
    declared = [r for r in file.relationships if r.table in known]
    relationships = _relationships(declared, inferred, catalog, cur, problem)
    semantics = Semantics(relationships=relationships, time_columns=time_columns)
    planner = Planner(catalog, semantics)
    dimensions: dict[str, dict[str, str]] = {}
    for d in file.dimensions:
        if d.table not in known:
            continue
        try:
            planner.resolver(d.table).resolve(d.column, "column")
        except ToolError as exc:
            problem(d.line, f"{d.table}.dimensions.{d.name}: {_plain(exc, d.column, d.table, catalog)}")
            continue
        for word in (d.name, *d.synonyms):
            dimensions.setdefault(d.table, {})[word] = d.column
    metrics = _metrics([m for m in file.metrics if m.table in known], planner, problem, catalog)
    zone = None
    if file.timezone:
        try:
            zone = check_zone(file.timezone).key
        except ToolError as exc:
            problem(file.timezone_line, f"timezone: {exc}")
    return Semantics(relationships, metrics, dimensions, time_columns, zone), problems


def _table_known(name: str, line: int, catalog: Catalog, problem: _Problem) -> bool:
    if name in catalog:
        return True
    problem(
        line,
        f"table {name!r} is not in the database{did_you_mean(name, catalog)}; its definitions are skipped",
    )
    return False


def _missing(column: str, table: str, catalog: Catalog, what: str = "") -> str:
    if column in catalog[table]:
        return f"{column} is {catalog[table][column]}, not a {what}"
    return f"{table} has no column {column!r} (dropped or renamed?){did_you_mean(column, catalog[table])}"


def _plain(exc: ToolError, column: str | None, table: str, catalog: Catalog) -> str:
    """A plain column that is gone reads as one sentence; anything else as the resolver said it."""
    if column and "." not in column and column not in catalog[table]:
        return _missing(column, table, catalog)
    return str(exc).split(": ", 1)[-1]


def _relationships(
    declared: Sequence[RelationshipDef],
    inferred: Sequence[Relationship],
    catalog: Catalog,
    cur: duckdb.DuckDBPyConnection,
    problem: _Problem,
) -> list[Relationship]:
    """Inferred links, with the declared ones replacing (or, as null, removing; with a name only,
    renaming) those of the same column."""
    result = {(r.table, r.column): r for r in inferred}
    for d in declared:
        where = f"{d.table}.relationships.{d.column}"
        if d.column not in catalog[d.table]:
            problem(d.line, f"{where}: {_missing(d.column, d.table, catalog)}")
            continue
        if d.target is None and not d.name:
            result.pop((d.table, d.column), None)
            continue
        link = result.get((d.table, d.column)) if d.target is None else _declared(d, catalog, cur, problem)
        if link is None and d.target is None:
            problem(d.line, f"{where}: no link of {d.table}.{d.column} to name; add to: table.column")
        if link is not None:
            result[(d.table, d.column)] = link._replace(name=d.name) if d.name else link
    _one_name_each(result, declared, problem)
    return sorted(result.values(), key=lambda r: (r.table, r.column))


def _declared(
    d: RelationshipDef, catalog: Catalog, cur: duckdb.DuckDBPyConnection, problem: _Problem
) -> Relationship | None:
    """The link ``d`` declares, if it points at a unique key of a table that is there."""
    where = f"{d.table}.relationships.{d.column}"
    target, key = str(d.target).split(".")
    if target not in catalog or key not in catalog[target]:
        bad = target if target not in catalog else f"{target}.{key}"
        pool = catalog.get(target, catalog)
        problem(d.line, f"{where}: {bad} is not in the database{did_you_mean(bad.split('.')[-1], pool)}")
        return None
    rows = first_row(cur.execute(f"SELECT count(*) FROM {quote_ident(target)}"))[0]
    dupes = duplicate_keys(cur, target, key, rows=rows)  # sampled on a big table; in full at first use
    if dupes:
        problem(
            d.line,
            f"{where}: {target}.{key} is not a unique key ({dupes} rows repeat a value or are empty), so "
            "joining to it would repeat rows and double-count; point at a column with one row per value",
        )
        return None
    return Relationship(d.table, d.column, target, key, declared=True, verified=rows <= SAMPLE_ROWS)


def _one_name_each(
    links: dict[tuple[str, str], Relationship], declared: Sequence[RelationshipDef], problem: _Problem
) -> None:
    """A role name names one link of its table (``manager.last_name`` must mean one thing): a name given
    twice, or the name of a table another link of it goes to, is dropped with its line."""
    seen: dict[tuple[str, str], str] = {}
    for d in declared:
        link = links.get((d.table, d.column))
        if not d.name or link is None or link.name != d.name:
            continue
        targets = {r.target for r in links.values() if r.table == d.table and not r.name}
        if (d.table, d.name) in seen or d.name in targets:
            first = seen.get((d.table, d.name))
            what = f"the link of {d.table}.{first}" if first else f"the table {d.table} also links to"
            problem(
                d.line, f"{d.table}.relationships.{d.column}: name {d.name!r} is already {what}; pick another"
            )
            links[(d.table, d.column)] = link._replace(name="")
        else:
            seen[(d.table, d.name)] = d.column


def _metrics(
    defs: Sequence[MetricDef], planner: Planner, problem: _Problem, catalog: Catalog
) -> dict[str, MetricDef]:
    by_name: dict[str, MetricDef] = {}
    for m in defs:
        if m.name in by_name:
            problem(
                m.line,
                f"metric {m.name!r} is defined twice (also in {by_name[m.name].table}); names are global",
            )
            continue
        by_name[m.name] = m
    good: dict[str, MetricDef] = {}
    for m in by_name.values():
        where = f"{m.table}.metrics.{m.name}"
        if m.ratio:
            missing = [n for n in m.ratio if by_name.get(n) is None or by_name[n].table != m.table]
            if missing:
                problem(
                    m.line,
                    f"{where}: ratio names {missing[0]!r}, not a metric of {m.table}{did_you_mean(missing[0], set(by_name) - {m.name})}",
                )
            else:
                good[m.name] = m
            continue
        if m.fn not in METRIC_FNS:
            problem(
                m.line,
                f"{where}: fn {m.fn!r} is not one of {', '.join(METRIC_FNS)}{did_you_mean(str(m.fn), METRIC_FNS)}",
            )
            continue
        try:
            build_metric(m.fn, m.column, m.where, planner.resolver(m.table))
        except ToolError as exc:
            problem(m.line, f"{where}: {_plain(exc, m.column, m.table, catalog)}")
            continue
        good[m.name] = m
    # a ratio whose parts failed is dropped too, with its own line
    for name, m in list(good.items()):
        if m.ratio and not all(n in good for n in m.ratio):
            problem(m.line, f"{m.table}.metrics.{name}: skipped because {' or '.join(m.ratio)} has a problem")
            del good[name]
    return good
