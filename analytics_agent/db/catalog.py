"""What the database holds: tables, columns, and a stored profile of each table.

A profile (row count; per column type, nulls, min/max, and the distinct values of low-cardinality text
columns) is computed once when a table is written and stored in the hidden ``_agent`` schema. It is the
one source for ``describe_table``, the table/column enums in tool schemas, and "did you mean" hints.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import duckdb

from analytics_agent import bounded_json
from analytics_agent.db.idents import quote_ident as quote_ident
from analytics_agent.db.profile_scan import MAX_DISTINCT_VALUES as MAX_DISTINCT_VALUES
from analytics_agent.db.profile_scan import MAX_PROFILE_TEXT as MAX_PROFILE_TEXT
from analytics_agent.db.profile_scan import SAMPLE_ROWS as SAMPLE_ROWS
from analytics_agent.db.profile_scan import sample_clause as sample_clause
from analytics_agent.db.profile_scan import scan_profile
from analytics_agent.db.values import to_jsonable
from analytics_agent.logs import logger

if TYPE_CHECKING:  # a type only here: its dataclass cost every load's import 0.6 ms
    from collections.abc import Mapping

    from analytics_agent.db.visible import Visible

META_SCHEMA = "_agent"
NO_TABLES = "no tables yet; load one with `analytics-agent load FILE`"
MAX_STORED_PROFILE = 1_000_000
"""A stored profile larger than this (characters of JSON) is not trusted: it is computed again."""


class TableInfo(NamedTuple):  # not a dataclass: a tenth of the import cost
    name: str
    rows: int
    columns: int
    dates: tuple[str, str, str] | None = None
    """The first DATE column with its first and last day: what "last month" can mean in this table."""


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
    for about half the CPU. Sorted here, by table and column position: DuckDB's ORDER BY cost a load
    0.7 ms of CPU.)"""
    catalog: dict[str, dict[str, str]] = {}
    meta: set[str] = set()
    rows = cur.execute(
        "SELECT schema_name, table_name, column_name, data_type, column_index FROM duckdb_columns() WHERE "
        "database_name = current_database() AND schema_name IN ('main', ?) AND table_oid IN (SELECT "
        "table_oid FROM duckdb_tables() WHERE database_name = current_database() AND schema_name IN "
        "('main', ?) AND NOT temporary)",
        [META_SCHEMA, META_SCHEMA],
    ).fetchall()
    for schema, table, column, kind, _ in sorted(rows, key=lambda row: (row[1], row[4])):
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
    """``profile_scan.scan_profile`` of a table; ``types``: its columns, when the caller has just read them
    (else read from the catalog); ``rows``: its row count, when the caller knows it."""
    return scan_profile(cur, table, column_types(cur, table) if types is None else types, rows=rows)


def store_profile(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    *,
    original_names: dict[str, str] | None = None,
    units: dict[str, str] | None = None,
    totals: dict[str, Any] | None = None,
    labels: dict[str, str] | None = None,
    written: Written | None = None,
    rows: int | None = None,
) -> dict[str, Any]:
    """Compute and store a table's profile (on a writable connection, inside the caller's transaction).
    ``units``: column -> the unit its file wrote beside each number (``%``, ``$``, ``EUR``), which the
    load dropped to store numbers; ``totals``: the footer totals rows a load kept (``totals_marker``);
    ``labels``: column -> its label, from a line of them under the file's header (``label_rows``);
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
    if labels:
        profile["labels"] = labels
        for column in profile["columns"]:
            if column["name"] in labels:
                column["label"] = labels[column["name"]]
    if written is None or "profiles" not in written[1]:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {META_SCHEMA}")
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {META_SCHEMA}.profiles "
            "(table_name VARCHAR PRIMARY KEY, profile VARCHAR NOT NULL, updated_at TIMESTAMP DEFAULT now())"
        )
    if written is None or "profiles" in written[1]:  # a profiles table made just now holds no row
        conn.execute(f"DELETE FROM {META_SCHEMA}.profiles WHERE table_name = ?", [table])
    stored = cast("dict[str, Any]", to_jsonable(profile))
    conn.execute(
        f"INSERT INTO {META_SCHEMA}.profiles (table_name, profile) VALUES (?, ?)", [table, json.dumps(stored)]
    )
    return stored


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
    cur: duckdb.DuckDBPyConnection,
    tables: list[str],
    *,
    stored: bool | None = None,
    known: Mapping[str, dict[str, Any]] | None = None,
) -> dict[str, dict[str, Any]]:
    """``get_profile`` of each table, the stored ones read in one query (a load's relationship check reads
    every table's: one query each cost more than the check itself). ``stored``: whether the profiles
    table exists, when the caller knows (None: looked up); ``known``: profiles the caller has just stored
    (``store_profile``'s answer), not read back (a first load's only table: 0.9 ms of CPU)."""
    found: dict[str, dict[str, Any]] = dict(known or {})
    wanted = [t for t in tables if t not in found]
    if wanted and (_has_profiles_table(cur) if stored is None else stored):
        rows = cur.execute(
            f"SELECT table_name, profile FROM {META_SCHEMA}.profiles WHERE table_name IN (SELECT unnest(?)) "
            "AND strlen(profile) <= ?",
            [wanted, MAX_STORED_PROFILE],
        ).fetchall()
        parsed = {name: _parsed_profile(text) for name, text in rows}
        found |= {name: profile for name, profile in parsed.items() if profile is not None}
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
