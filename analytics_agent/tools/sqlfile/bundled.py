"""The bundled tools, and whether this database's tables still fit them.

The bundled ``.sql`` tools are written for the sample tables. A user may replace one (``load x.csv
--table orders --replace``) with other columns, or with more cities than an enum can list. Then the tools
that use it cannot work, and every other command keeps working. A table with other columns is the user's
own, named like a sample one (replaced, or in their own database): its tools are skipped without a word
on each command (the load that replaced it said so once), since a warning about tools for data the user
never had would only be noise. A tool that cannot list a fitting table's values is skipped with a warning,
as a user's broken tool file is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

import duckdb

from analytics_agent.db.seed import SAMPLE_TABLES
from analytics_agent.errors import ToolDefinitionError
from analytics_agent.resources import sql_dir
from analytics_agent.tools.sqlfile.files import read_tool_file
from analytics_agent.tools.sqlfile.parse import SqlToolSpec, parse_sql_tool
from analytics_agent.tools.sqlfile.tool import MAX_ENUM_VALUES, SqlTool, resolve_choices

Catalog = Mapping[str, Mapping[str, str]]
_FAMILIES = (
    (
        "number",
        re.compile(r"^(U?(TINY|SMALL|BIG|HUGE)?INT(EGER)?|FLOAT|DOUBLE|REAL|DECIMAL.*|NUMERIC.*)$", re.I),
    ),
    ("text", re.compile(r"^(VARCHAR|TEXT|STRING).*$", re.I)),
    ("time", re.compile(r"^(DATE|TIMESTAMP.*)$", re.I)),
)


@cache
def bundled_specs() -> tuple[SqlToolSpec, ...]:
    """Every bundled tool, parsed once per process (a malformed one is our bug: it raises)."""
    return tuple(parse_sql_tool(read_tool_file(p), path=str(p)) for p in sorted(sql_dir().glob("*.sql")))


def unfit_tables(catalog: Catalog) -> dict[str, str]:
    """Each sample table present whose columns no longer serve the bundled tools, with what is wrong."""
    reasons: dict[str, str] = {}
    for table, expected in SAMPLE_TABLES.items():
        actual = catalog.get(table)
        if actual is None:
            continue
        missing = [c for c in expected if c not in actual]
        changed = [
            f"{c} is {actual[c]}"
            for c in expected
            if c in actual and _family(actual[c]) != _family(expected[c])
        ]
        if missing or changed:
            parts = ([f"lacks {', '.join(missing)}"] if missing else []) + changed
            reasons[table] = "; ".join(parts)
    return reasons


def tools_using(table: str) -> list[str]:
    return [s.name for s in bundled_specs() if table in s.tables]


def load_bundled_tools(
    cursor: duckdb.DuckDBPyConnection, catalog: Catalog
) -> tuple[list[SqlTool], list[ToolDefinitionError]]:
    """The bundled tools the tables can serve, and one problem per tool that cannot read the values it
    lists. A sample-named table with other columns (the user's own) just has no bundled tools."""
    unfit = unfit_tables(catalog)
    tools: list[SqlTool] = []
    problems: list[ToolDefinitionError] = []
    for spec in bundled_specs():
        if any(t not in catalog for t in spec.tables):
            continue  # a sample table the user dropped: its tools are simply not offered
        if any(t in unfit for t in spec.tables):
            continue
        try:
            tools.append(SqlTool(spec, resolve_choices(spec, cursor)))
        except ToolDefinitionError as exc:
            problems.append(ToolDefinitionError(_values_unusable(spec, str(exc))))
    return tools, problems


def _values_unusable(spec: SqlToolSpec, problem: str) -> str:
    listed = ", ".join(f"{t}.{c}" for t, c in (p.choices_from for p in spec.params if p.choices_from))
    if "distinct values" in problem:
        return (
            f"the bundled tool {spec.name} lists the values of {listed} for the model, which needs 1 to "
            f"{MAX_ENUM_VALUES} distinct values"
        )
    reason = problem.split("cannot be read: ", 1)[-1]
    return f"the bundled tool {spec.name} cannot read the values of {listed}: {reason}"


def _family(type_name: str) -> str:
    return next((name for name, pattern in _FAMILIES if pattern.match(type_name.strip())), type_name.upper())
