"""``run_sql``: free read-only SQL, registered only when the user opts in with ``--allow-sql``.

The statement is checked with DuckDB's own parser (exactly one statement, of type SELECT, which covers
WITH, FROM-first, DESCRIBE and SUMMARIZE) before it runs, and it runs on the sandboxed connection (read
only, no file or network access), capped at ``MAX_ROWS`` rows of values cut to size (``fetch``) and
under the executor's time limit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

import duckdb
from pydantic import Field

from analytics_agent.db.rows import first_row
from analytics_agent.db.visible import Visible
from analytics_agent.errors import ToolError
from analytics_agent.suggest import with_article
from analytics_agent.tools.args.models import ToolArguments
from analytics_agent.tools.base import Tool, ToolValue
from analytics_agent.tools.results.fetch import fetch_rows

MAX_QUERY_LENGTH = 4000


class RunSqlArguments(ToolArguments):
    query: str = Field(max_length=MAX_QUERY_LENGTH, description="One DuckDB SELECT (or WITH) statement.")


class RunSql(Tool):
    name = "run_sql"
    description = (
        "Run one read-only DuckDB SELECT and get at most 50 rows. Aggregate in SQL. Only when no other tool "
        "can answer."
    )
    arguments = RunSqlArguments
    returns = "rows"

    def __init__(self, visible: Visible | None = None) -> None:
        self.visible = visible
        """What the reader sees (None: everything): a statement may read only tables they see whole."""

    def run(self, cursor: duckdb.DuckDBPyConnection, args: ToolArguments) -> ToolValue:
        query = cast(RunSqlArguments, args).query  # the executor validated with it
        if self.visible is not None:  # first: every refusal below must read alike for hidden and absent
            from analytics_agent.tools.sql_reads import check_reads, parse_tree

            check_reads(cursor, parse_tree(cursor, query, tool="run_sql"), self.visible, tool="run_sql")
        query = check_select(cursor, query)
        hint = "aggregate in SQL (GROUP BY) or add a WHERE or LIMIT"
        return ToolValue(fetch_rows(cursor, query, hint=hint), sql=query)


def check_select(cursor: duckdb.DuckDBPyConnection, query: str) -> str:
    """The one SELECT statement in ``query`` (without its trailing ';'), or a ToolError saying why not."""
    try:
        statements = cursor.extract_statements(query)
    except duckdb.Error as exc:
        raise ToolError(f"run_sql: the query does not parse: {_first_line(exc)}") from None
    if len(statements) != 1:
        raise ToolError(f"run_sql takes exactly one statement; got {len(statements)}")
    statement = statements[0]
    if statement.type != duckdb.StatementType.SELECT:
        kind = statement.type.name if hasattr(statement.type, "name") else str(statement.type)
        raise ToolError(
            f"run_sql only runs SELECT (or WITH … SELECT); this is {with_article(kind)} statement"
        )
    query = statement.query.strip().rstrip(";").strip()
    _refuse_outside_reads(cursor, query)
    return query


# Free SQL reads the catalog's tables, nothing else. Table functions that read files or open connections
# (read_csv, glob, postgres_scan …) and replacement scans of paths (FROM 'x.parquet') are refused by
# DuckDB's own parse tree, whatever the sandbox's file system allows: with sources linked in place, their
# folders (and DuckDB's own files) stay readable to the views, so the statement itself must not name them.
_TABLE_FUNCTIONS = frozenset({
    "range", "generate_series", "unnest", "json_each", "json_tree", "duckdb_tables", "duckdb_columns",
    "duckdb_views", "duckdb_types", "duckdb_schemas", "duckdb_constraints", "duckdb_functions", "duckdb_keywords",
})  # fmt: skip
_PATH_LIKE = re.compile(r"[/\\:~]|\.[A-Za-z0-9]{1,8}$")


def _refuse_outside_reads(cursor: duckdb.DuckDBPyConnection, query: str) -> None:
    import json

    try:
        tree = json.loads(first_row(cursor.execute("SELECT json_serialize_sql(?)", [query]))[0])
    except duckdb.Error:
        raise ToolError(
            "run_sql: the query could not be checked; write a plain SELECT over the tables"
        ) from None
    if tree.get("error"):
        raise ToolError(f"run_sql: the query could not be checked: {tree.get('error_message', '')}")
    _refuse_other_catalogs(cursor, tree)
    _refuse_huge_values(cursor, tree)
    for kind, name in _references(tree):
        if kind == "TABLE_FUNCTION" and name.lower() not in _TABLE_FUNCTIONS:
            raise ToolError(
                f"run_sql may not call {name}(): it reads outside the database's tables; query the tables "
                "(list_tables names them)"
            )
        if kind == "BASE_TABLE" and _PATH_LIKE.search(name):
            raise ToolError(
                f"run_sql reads tables, not files: {name!r} is not a table (list_tables names them)"
            )


# Catalogs a query may name: the database's own and the linked sources' views. An attached source database
# (``src_shop``), its DuckLake metadata or a MotherDuck database holds more than the source's ``tables``
# list lets through; a three-part name (``src_shop.private.payroll``) would reach all of it.
_OPEN_CATALOGS = frozenset({"linked", "system", "temp"})


def _refuse_other_catalogs(cursor: duckdb.DuckDBPyConnection, tree: object) -> None:
    qualifiers = {
        name.lower()
        for node in _nodes(tree)
        if node.get("type") == "BASE_TABLE"
        for name in (str(node.get("catalog_name") or ""), str(node.get("schema_name") or ""))
        if name
    }
    if not qualifiers:
        return
    own = str(cursor.execute("SELECT current_database()").fetchone()[0]).lower()  # type: ignore[index]
    attached = {
        str(r[0]).lower() for r in cursor.execute("SELECT database_name FROM duckdb_databases()").fetchall()
    }
    closed = sorted((attached - _OPEN_CATALOGS - {own}) & qualifiers)
    if closed:
        raise ToolError(
            f"run_sql reads the tables list_tables names, not the attached database {closed[0]!r}; query "
            "those tables by their plain names"
        )


MAX_VALUE_ITEMS = 5_000_000
"""Items one value may be built of: a list from range(), a string from repeat() or lpad(). DuckDB builds
such a value whole, outside its memory limit and between interrupt checks (``SELECT range(0, 50000000)``
took 31 s and 2 GB against the 15 s and 1 GB limits), so its size is checked before it runs."""
_SIZED = {"range": None, "generate_series": None, "repeat": 1, "list_resize": 1, "array_resize": 1,
          "lpad": 1, "rpad": 1, "bar": 3, "bitstring": 1, "bitstring_agg": None}  # fmt: skip
"""name -> the argument holding the count (None: a range; bitstring_agg's is its min and max, else the
data's own range: ``bitstring_agg(x)`` over values 0 and 4e10 builds a 5 GB value)."""


def _refuse_huge_values(cursor: duckdb.DuckDBPyConnection, tree: object) -> None:
    """Refuse a value DuckDB would build whole past ``MAX_VALUE_ITEMS``, by the class of the function
    that builds it: a sized builder (a list from range(), a string from repeat() or lpad()) whose size is
    a large constant or comes from the data (a column, a CTE: its size cannot be known before it runs),
    a formatted string with a wide field (printf('%900000000s')), or text grown by nesting (eight hex()
    double it eight times). DuckDB's memory limit does not cover these (issue 38: 2-10 GB against 1 GB)."""
    nodes = list(_nodes(tree))
    # FROM range(n) streams its rows, interruptibly: only the scalar form builds one value
    streamed = {id(n["function"]) for n in nodes if n.get("type") == "TABLE_FUNCTION" and "function" in n}
    for node in nodes:
        name = str(node.get("function_name", "")).lower()
        if node.get("class") != "FUNCTION" or id(node) in streamed:
            continue
        args = [a.get("expression", a) if isinstance(a, dict) else a for a in node.get("children") or []]
        args = args or [a.get("expression") for a in node.get("arguments") or [] if isinstance(a, dict)]
        if name in _FORMATTERS:
            _refuse_wide_format(name, args)
        if name in _GROWERS:
            _refuse_grown(name, node)
        if name not in _SIZED:
            continue
        if any(_has(arg, "SUBQUERY") for arg in args):
            raise ToolError(f"run_sql: {name}() takes plain values here, not a subquery")
        if name == "bitstring_agg":
            args = args[1:] if len(args) == 3 else [None, None]  # no min and max: the data's range
        values = [_constant(cursor, arg) for arg in args]
        items = _items(name, values)
        if items is None:
            raise ToolError(
                f"run_sql: {name}() takes its size from the data here (a column or a CTE), so the value it "
                "builds cannot be bounded before it runs; give the size as a number, or aggregate over "
                "FROM range(...) rows"
            )
        if items > MAX_VALUE_ITEMS:
            raise ToolError(
                f"run_sql: {name}() would build one value of {items:,.0f} items (at most "
                f"{MAX_VALUE_ITEMS:,}); aggregate over FROM range(...) rows instead"
            )


_FORMATTERS = frozenset({"printf", "format", "fmt"})
_WIDTH = re.compile(r"(\d+)")
_NESTED_FIELD = re.compile(r"\{[^}]*\{")
"""format('{:>{}}', x, 900000000): a width or precision taken from an argument, as printf's '*'."""
_GROWERS = {"hex": 2.0, "to_hex": 2.0, "bin": 8.0, "to_binary": 8.0, "base64": 1.34, "to_base64": 1.34,
            "url_encode": 3.0}  # fmt: skip  # name -> how many times longer its result can be
MAX_GROWTH = 64.0
"""How many times longer nested growers may make a value (hex(hex(x)) is 4x; six hex() 64x)."""


def _refuse_wide_format(name: str, args: list[Any]) -> None:
    """printf('%900000000s', x) and format('{:>900000000}', x) pad one value to the width they name."""
    pattern = args[0] if args else None
    literal = pattern.get("literal") if isinstance(pattern, dict) else None
    if not isinstance(literal, dict) or literal.get("kind") != "STRING":
        raise ToolError(f"run_sql: {name}() needs its format as a plain text constant here")
    text = str(literal.get("text", ""))
    if "*" in text or _NESTED_FIELD.search(text.replace("{{", "").replace("}}", "")):
        raise ToolError(f"run_sql: {name}() may not take a width from its arguments ('*' or '{{:>{{}}}}')")
    widest = max((int(w) for w in _WIDTH.findall(text)), default=0)
    if widest > MAX_VALUE_ITEMS:
        raise ToolError(
            f"run_sql: {name}() would pad a value to {widest:,} characters (at most {MAX_VALUE_ITEMS:,})"
        )


def _refuse_grown(name: str, node: dict[str, Any]) -> None:
    """Growers nested in one another multiply a value's length: hex() of hex() ... of a long text."""
    growth, inner = _GROWERS[name], node
    while True:
        children = [a.get("expression", a) if isinstance(a, dict) else a for a in inner.get("children") or []]
        children = children or [
            a.get("expression") for a in inner.get("arguments") or [] if isinstance(a, dict)
        ]
        nested = next(
            (
                c
                for c in children
                if isinstance(c, dict) and str(c.get("function_name", "")).lower() in _GROWERS
            ),
            None,
        )
        if nested is None:
            return
        growth *= _GROWERS[str(nested["function_name"]).lower()]
        if growth > MAX_GROWTH:
            raise ToolError(
                f"run_sql: {name}() nested in itself or alike grows a value more than {MAX_GROWTH:.0f} times; "
                "apply it once"
            )
        inner = nested


def _items(name: str, values: list[object]) -> float | None:
    """How many items the call builds, when its arguments are known constants; None when not known."""
    try:
        if _SIZED[name] is None:
            if len(values) == 1:
                return float(values[0])  # type: ignore[arg-type]
            start, stop = values[0], values[1]
            step = values[2] if len(values) > 2 else 1
            if start is None or stop is None or step is None:
                return None
            return float(abs((stop - start) / step))  # type: ignore[operator]  # numbers or times
        at = _SIZED[name]
        if at is not None and at >= len(values):
            return 0.0  # an optional width left out (bar's 80)
        count = values[at]  # type: ignore[index]
        return None if count is None else float(count)  # type: ignore[arg-type]
    except (TypeError, ValueError, ZeroDivisionError, IndexError, OverflowError):
        return None


_UNKNOWN = None


def _constant(cursor: duckdb.DuckDBPyConnection, expression: object) -> object:
    """The value of an argument made only of constants (``50000000 + 1``), or None when it depends on
    the rows or cannot be computed cheaply."""
    if not isinstance(expression, dict) or any(
        _has(expression, kind) for kind in ("COLUMN_REF", "SUBQUERY", "TABLE_FUNCTION")
    ):
        return _UNKNOWN
    if any(str(n.get("function_name", "")).lower() in _SIZED for n in _nodes(expression)):
        return _UNKNOWN  # an inner builder is checked on its own
    import json

    shell = json.loads(cursor.execute("SELECT json_serialize_sql('SELECT 1')").fetchone()[0])  # type: ignore[index]
    shell["statements"][0]["node"]["select_list"] = [expression]
    try:
        sql = cursor.execute("SELECT json_deserialize_sql(?)", [json.dumps(shell)]).fetchone()[0]  # type: ignore[index]
        return cursor.execute(sql).fetchone()[0]  # type: ignore[index]
    except duckdb.Error:
        return _UNKNOWN


def _has(tree: object, kind: str) -> bool:
    return any(node.get("class") == kind or node.get("type") == kind for node in _nodes(tree))


def _nodes(tree: object) -> Iterator[dict[str, Any]]:
    """Every mapping in a parse tree, by a loop (a hostile query can nest deeper than Python's stack)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _references(tree: object) -> Iterator[tuple[str, str]]:
    """(kind, name) of every table function and table named in a parse tree. A loop, not recursion: a
    hostile query can nest deeper than Python's stack."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            kind = node.get("type")
            if kind == "TABLE_FUNCTION" and isinstance(node.get("function"), dict):
                yield kind, str(node["function"].get("function_name", ""))
            elif kind == "BASE_TABLE":
                yield kind, str(node.get("table_name", ""))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
