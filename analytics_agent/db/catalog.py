"""What the database holds: tables, columns, and a stored profile of each table.

A profile (row count; per column type, nulls, min/max, and the distinct values of low-cardinality text
columns) is computed once when a table is written and stored in the hidden ``_agent`` schema. It is the
one source for ``describe_table``, the table/column enums in tool schemas, and "did you mean" hints.
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple, cast

import duckdb

from analytics_agent import bounded_json
from analytics_agent.db.rows import first_row
from analytics_agent.db.values import to_jsonable
from analytics_agent.db.visible import Visible
from analytics_agent.logs import logger

META_SCHEMA = "_agent"
NO_TABLES = "no tables yet; load one with `analytics-agent load FILE`"
MAX_DISTINCT_VALUES = 50
MAX_PROFILE_TEXT = 200
"""A text column keeps no min or max longer than this, and lists no values when one of them is longer (free
text, not labels), so a profile stays small whatever a table holds (describe_table on 60 MB strings took
308 s)."""
SMALL_TABLE_ROWS = 20_000
"""Up to this many rows a profile lists a column's values by sorting the whole column's list (see
``_distinct_values``); past it, by DuckDB's DISTINCT aggregate, which holds only the distinct values."""
SAMPLE_ROWS = 100_000
"""Rows a sample of a big table holds, for checks that need no exact count (``sample_clause``)."""
MAX_STORED_PROFILE = 1_000_000
"""A stored profile larger than this (characters of JSON) is not trusted: it is computed again."""
_TEXT_TYPES = ("VARCHAR",)
_CUT = MAX_PROFILE_TEXT + 1  # a text value read this long was longer than a label
# Types whose min/max mean something to a reader (not lists, structs, maps or blobs).
_ORDERABLE = re.compile(
    r"^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|DECIMAL.*|BIGNUM|DATE|TIME.*|TIMESTAMP.*"
    r"|INTERVAL|VARCHAR|BOOLEAN|UUID)$"
)


class TableInfo(NamedTuple):  # not a dataclass: a tenth of the import cost
    name: str
    rows: int
    columns: int
    dates: tuple[str, str, str] | None = None
    """The first DATE column with its first and last day: what "last month" can mean in this table."""


def quote_ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


LINKED = "linked"
"""The session-only, in-memory catalog where linked sources appear as views (the file stays read-only)."""
SEARCH_PATH = f"main,{LINKED}.main"
# The relations tools may read: the database's own tables and views, and linked sources' views.
VISIBLE_RELATIONS = (
    "((database_name = current_database() OR database_name = '" + LINKED + "') AND schema_name = 'main')"
)


_NOTED: set[tuple[str, str]] = set()  # each skipped view is noted once per process, not once per caller


def unreadable_views(cur: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The database's own views that cannot be read here, each with the one-line reason.

    A database someone sent may hold a view over a file (``read_text('/etc/passwd')``: refused by the
    sandbox) or over a table since dropped. Such a view is skipped, with a note, by everything that lists
    or reads the catalog, instead of failing every command. Binding the view (``LIMIT 0``) reads no rows.
    """
    views = cur.execute(
        "SELECT view_name FROM duckdb_views() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND NOT internal AND NOT temporary"
    ).fetchall()
    broken: dict[str, str] = {}
    for (name,) in views:
        try:
            cur.execute(f"SELECT * FROM {quote_ident(name)} LIMIT 0").fetchall()
        except duckdb.Error as exc:
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            broken[name] = reason
            if (name, reason) in _NOTED:
                continue
            _NOTED.add((name, reason))
            logger(__name__).warning("skipped the view %s: it cannot be read here (%s)", name, reason)
    return broken


def table_names(cur: duckdb.DuckDBPyConnection) -> list[str]:
    """The database's own tables and the linked sources' views."""
    rows = cur.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND NOT temporary UNION SELECT view_name FROM duckdb_views() "
        f"WHERE database_name = '{LINKED}' AND schema_name = 'main' ORDER BY 1"
    ).fetchall()
    return [r[0] for r in rows]


def list_tables(cur: duckdb.DuckDBPyConnection, visible: Visible | None = None) -> list[TableInfo]:
    """Each table with its size and its first dated column; ``visible``: only what one reader sees."""
    infos = []
    for name in table_names(cur):
        if visible is not None and not visible.sees(name):
            continue
        profile = get_profile(cur, name) if visible is None else visible.profile(name, get_profile(cur, name))
        dates = next(((c["name"], str(c["min"]), str(c["max"])) for c in profile["columns"]
                      if c["type"] == "DATE" and c.get("min") is not None), None)  # fmt: skip
        infos.append(TableInfo(name=name, rows=profile["rows"], columns=len(profile["columns"]), dates=dates))
    return infos


def column_types(cur: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    rows = cur.execute(
        f"SELECT column_name, data_type FROM duckdb_columns() WHERE {VISIBLE_RELATIONS} "
        "AND table_name = ? ORDER BY column_index",
        [table],
    ).fetchall()
    return dict(rows)


def own_table_types(cur: duckdb.DuckDBPyConnection, table: str) -> dict[str, str]:
    """A table's columns and types, named as the catalog names them, from DuckDB's binding of a select
    of it: nothing is run (0.3 ms of CPU where a catalog query costs 1.4)."""
    relation = cur.sql(f"SELECT * FROM {quote_ident(table)}")
    return dict(zip(relation.columns, map(str, relation.types), strict=True))


Written = tuple[dict[str, dict[str, str]], set[str]]
"""``written_tables``: each base table's columns and types, and the tables of the hidden schema."""


def written_tables(cur: duckdb.DuckDBPyConnection) -> Written:
    """The database's own base tables with their columns and types, and the tables of the hidden schema
    (``profiles``, ``relationships``), in one catalog query: a load's profile and relationship steps
    each looked these up again (every query costs 0.5-1 ms of CPU, much of a small load's own work).
    Base tables only: a view's row count is a scan of whatever it selects (a view over range(1e13) hung
    every load); temporary tables live in the ``temp`` catalog. (A semi-join, not a join: DuckDB plans it
    for about half the CPU.)"""
    catalog: dict[str, dict[str, str]] = {}
    meta: set[str] = set()
    for schema, table, column, kind in cur.execute(
        "SELECT schema_name, table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = "
        "current_database() AND schema_name IN ('main', ?) AND table_oid IN (SELECT table_oid FROM "
        "duckdb_tables() WHERE database_name = current_database() AND schema_name IN ('main', ?) AND NOT "
        "temporary) ORDER BY table_name, column_index",
        [META_SCHEMA, META_SCHEMA],
    ).fetchall():
        if schema == "main":
            catalog.setdefault(table, {})[column] = kind
        else:
            meta.add(table)
    return catalog, meta


def compute_profile(
    cur: duckdb.DuckDBPyConnection,
    table: str,
    *,
    types: dict[str, str] | None = None,
    rows: int | None = None,
) -> dict[str, Any]:
    """One scan for counts, nulls, min/max and approximate distinct counts of every column, plus one scan
    for the distinct values of the low-cardinality text columns. (SUMMARIZE also computes averages and
    quantiles nobody reads here, at about three times the cost.) ``types``: the table's columns, when
    the caller has just read them; ``rows``: its row count, when the caller knows it. A big table's text
    columns are gauged on a sample first (``_gauged``), and the columns with few short values take their
    min and max from their sorted values: a text min/max over every row is the scan's dearest part."""
    types = column_types(cur, table) if types is None else types
    text = [name for name, kind in types.items() if kind in _TEXT_TYPES]
    sampled = rows is not None and rows > SAMPLE_ROWS
    gauged = _gauged(cur, table, text, rows) if rows is not None and sampled else {}
    listed = {name for name, (distinct, longest) in gauged.items() if _label_like(distinct, longest)}
    selects = ["count(*)"]
    for name, kind in types.items():
        col = quote_ident(name)
        selects.append(f"count({col})")
        if name in listed:
            continue
        if kind in _TEXT_TYPES:
            # Cut in SQL, so a 60 MB value is never copied whole into Python; the least (greatest) value's
            # prefix is the least (greatest) prefix, so cutting the result, not each row, gives the same
            # answer at a third of the cost (a cut per row copied every value: 0.4 s of CPU on 1M rows).
            selects += [f"left(min({col}), {_CUT})", f"left(max({col}), {_CUT})"]
            selects += [] if sampled else [f"approx_count_distinct({col})", f"max(strlen({col}))"]
        elif _ORDERABLE.match(kind):
            selects += [f"min({col})", f"max({col})"]
    stats = iter(first_row(cur.execute(f"SELECT {', '.join(selects)} FROM {quote_ident(table)}")))
    row_count = next(stats)
    columns = []
    labels: dict[str, dict[str, Any]] = {}  # low-cardinality text columns: their values are listed
    for name, kind in types.items():
        column: dict[str, Any] = {"name": name, "type": kind, "nulls": row_count - next(stats)}
        columns.append(column)
        if name in listed:
            labels[name] = column
        elif _ORDERABLE.match(kind):
            low, high = next(stats), next(stats)
            distinct, longest = (
                (next(stats), next(stats)) if kind in _TEXT_TYPES and not sampled else (0, None)
            )
            _min_max(column, low, high, longest)
            if kind in _TEXT_TYPES and not sampled and _label_like(distinct, longest):
                labels[name] = column
    for name, values in _distinct_values(cur, table, list(labels), row_count).items():
        if name in listed and values:
            _min_max(labels[name], values[0], values[-1])
        # a value longer than a label past a big table's sample: free text after all, no values listed
        if len(values) <= MAX_DISTINCT_VALUES and all(len(v) <= MAX_PROFILE_TEXT for v in values):
            labels[name]["values"] = values
    return {"table": table, "rows": row_count, "columns": columns}


def _label_like(distinct: int, longest: int | None) -> bool:
    """Few distinct values, none longer than a label: the values are worth listing."""
    return distinct <= MAX_DISTINCT_VALUES * 2 and (longest or 0) <= MAX_PROFILE_TEXT


def _min_max(column: dict[str, Any], low: Any, high: Any, longest: int | None = None) -> None:
    """Keep a column's min and max; a text one only if no value is longer than a label (``longest``,
    when counted over every row) or, not counted, if neither was cut (a cut value is a wrong one)."""
    if low is None:
        return
    if (
        isinstance(low, str)
        and (longest if longest is not None else max(len(low), len(high))) > MAX_PROFILE_TEXT
    ):
        return
    column["min"], column["max"] = low, high


def _gauged(
    cur: duckdb.DuckDBPyConnection, table: str, text: list[str], rows: int
) -> dict[str, tuple[int, int | None]]:
    """Each text column's approximate distinct count and longest value over a sample of a big table
    (whole vectors, fixed seed): they only pick the columns whose values ``_distinct_values`` then
    lists, exactly, over the whole table. A column with few values has as few in any sample, so none is
    missed; one with more in the table, or a longer value past the sample, lists none. Over every row the
    count cost a 1M-row load a quarter of its checks (20 ms for each column of unique codes)."""
    if not text:
        return {}
    parts = [f"approx_count_distinct({c}), max(strlen({c}))" for c in map(quote_ident, text)]
    found = first_row(
        cur.execute(f"SELECT {', '.join(parts)} FROM {quote_ident(table)}{sample_clause(rows)}")
    )
    return {name: (found[2 * i], found[2 * i + 1]) for i, name in enumerate(text)}


def sample_clause(rows: int) -> str:
    """``USING SAMPLE`` of about ``SAMPLE_ROWS`` rows of a table of ``rows`` (whole vectors, fixed seed:
    reads a tenth of a 1M-row table, and the same tenth each time); empty for a table that is no bigger."""
    return f" USING SAMPLE {100 * SAMPLE_ROWS / rows:.4f} PERCENT (system, 11)" if rows > SAMPLE_ROWS else ""


def _distinct_values(
    cur: duckdb.DuckDBPyConnection, table: str, columns: list[str], rows: int
) -> dict[str, list[str]]:
    """Each column's distinct non-null values in order, in one query (a query per column cost more than its
    scan on a small table); the approximate count picked the columns, so each list stays short. A small
    table's values are sorted as a list (half the CPU of DuckDB's ordered DISTINCT aggregate: 1.9 -> 0.9 ms
    for three columns of 366 rows). A big table's are a GROUP BY per column joined by UNION ALL: the lists
    of ``list(DISTINCT c ORDER BY c)``, whose planning alone cost about a millisecond per column (54 columns
    of 300,000 rows: 0.19 -> 0.07 s of CPU). A big table's values may be longer than a label (its columns
    were gauged on a sample): each list is cut to one character past a label's length, in SQL."""
    if not columns:
        return {}
    quoted = list(map(quote_ident, columns))
    if rows <= SMALL_TABLE_ROWS:
        lists = ", ".join(f"list_sort(list_distinct(list({c})))" for c in quoted)  # drops NULLs
        row = first_row(cur.execute(f"SELECT {lists} FROM {quote_ident(table)}"))
        return {name: list(values or []) for name, values in zip(columns, row, strict=True)}
    groups = " UNION ALL ".join(
        f"SELECT {i} AS k, {c} AS v FROM {quote_ident(table)} WHERE {c} IS NOT NULL GROUP BY {c}"
        for i, c in enumerate(quoted)
    )
    lists = f"SELECT k, [left(v, {_CUT}) for v in list(v ORDER BY v)] FROM ({groups}) GROUP BY k"
    found = dict(cur.execute(lists).fetchall())
    return {name: list(found.get(i) or []) for i, name in enumerate(columns)}


def store_profile(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    *,
    original_names: dict[str, str] | None = None,
    units: dict[str, str] | None = None,
    totals: dict[str, Any] | None = None,
    written: Written | None = None,
    rows: int | None = None,
) -> dict[str, Any]:
    """Compute and store a table's profile (on a writable connection, inside the caller's transaction).
    ``units``: column -> the unit its file wrote beside each number (``%``, ``$``, ``EUR``), which the
    load dropped to store numbers; ``totals``: the footer totals rows a load kept (``totals_marker``);
    ``written``: ``written_tables`` as the caller has just read it;
    ``rows``: the table's row count, when the caller knows it."""
    profile = compute_profile(conn, table, types=written[0][table] if written else None, rows=rows)
    if original_names:
        profile["original_names"] = original_names
    if units:
        profile["units"] = units
        for column in profile["columns"]:
            if column["name"] in units:
                column["unit"] = units[column["name"]]
    if totals:
        profile["totals_rows"] = totals
    if written is None or "profiles" not in written[1]:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {META_SCHEMA}")
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {META_SCHEMA}.profiles "
            "(table_name VARCHAR PRIMARY KEY, profile VARCHAR NOT NULL, updated_at TIMESTAMP DEFAULT now())"
        )
    conn.execute(f"DELETE FROM {META_SCHEMA}.profiles WHERE table_name = ?", [table])
    conn.execute(
        f"INSERT INTO {META_SCHEMA}.profiles (table_name, profile) VALUES (?, ?)",
        [table, json.dumps(to_jsonable(profile))],
    )
    return profile


def drop_profile(conn: duckdb.DuckDBPyConnection, table: str) -> None:
    if _has_profiles_table(conn):
        conn.execute(f"DELETE FROM {META_SCHEMA}.profiles WHERE table_name = ?", [table])


def get_profile(cur: duckdb.DuckDBPyConnection, table: str) -> dict[str, Any]:
    """The stored profile (a linked source's is cached in the session), or one computed now for tables
    written by other tools."""
    stored = stored_profile(cur, table)
    return stored if stored is not None else cast("dict[str, Any]", to_jsonable(compute_profile(cur, table)))


def stored_profile(cur: duckdb.DuckDBPyConnection, table: str) -> dict[str, Any] | None:
    """The stored profile (a loaded table's, or a linked source's cached one), or None: never a scan."""
    if _has_profiles_table(cur):
        row = cur.execute(
            f"SELECT profile FROM {META_SCHEMA}.profiles WHERE table_name = ? AND strlen(profile) <= ?",
            [table, MAX_STORED_PROFILE],
        ).fetchone()
        if row and (profile := _parsed_profile(row[0])) is not None:
            return profile
    if _has_profiles_table(cur, database=LINKED):
        row = cur.execute(
            f"SELECT profile FROM {LINKED}.{META_SCHEMA}.profiles WHERE table_name = ?", [table]
        ).fetchone()
        if row:
            return _parsed_profile(row[0])
    return None


def _parsed_profile(text: str) -> dict[str, Any] | None:
    """A stored profile, or None (computed again) when it is not a JSON object nesting at most 64 levels:
    a database someone sent may hold a forged one, and 100,000 levels made every command fail with
    ``RecursionError``."""
    try:
        value = bounded_json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def get_profiles(
    cur: duckdb.DuckDBPyConnection, tables: list[str], *, stored: bool | None = None
) -> dict[str, dict[str, Any]]:
    """``get_profile`` of each table, the stored ones read in one query (a load's relationship check reads
    every table's: one query each cost more than the check itself). ``stored``: whether the profiles
    table exists, when the caller knows (None: looked up)."""
    found: dict[str, dict[str, Any]] = {}
    if tables and (_has_profiles_table(cur) if stored is None else stored):
        rows = cur.execute(
            f"SELECT table_name, profile FROM {META_SCHEMA}.profiles WHERE table_name IN (SELECT unnest(?)) "
            "AND strlen(profile) <= ?",
            [tables, MAX_STORED_PROFILE],
        ).fetchall()
        parsed = {name: _parsed_profile(text) for name, text in rows}
        found = {name: profile for name, profile in parsed.items() if profile is not None}
    return {t: found[t] if t in found else get_profile(cur, t) for t in tables}


def _has_profiles_table(cur: duckdb.DuckDBPyConnection, *, database: str | None = None) -> bool:
    where = "database_name = current_database()" if database is None else "database_name = ?"
    return bool(
        cur.execute(
            f"SELECT 1 FROM duckdb_tables() WHERE {where} AND schema_name = ? AND table_name = 'profiles'",
            ([database] if database else []) + [META_SCHEMA],
        ).fetchone()
    )


def read_catalog(cursor: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    """Every table's columns and types, in one catalog query, as the registry is built."""
    catalog: dict[str, dict[str, str]] = {}
    for table, column, kind in cursor.execute(
        f"SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE {VISIBLE_RELATIONS} "
        "ORDER BY table_name, column_index"
    ).fetchall():
        catalog.setdefault(table, {})[column] = kind
    for view in unreadable_views(cursor):
        catalog.pop(view, None)
    return catalog
