"""Attach the configured sources to a connection that is still open for set-up, then close it for good.

Every source ends up as views named like tables (``trips``, ``pg_orders``) in an in-memory catalog,
``linked``, that every cursor searches after the database's own tables (``catalog.SEARCH_PATH``), so the
tools, the catalog and the did-you-mean hints see them exactly as loaded tables, and the database file
stays read-only. Databases are attached READ_ONLY under an alias that is never a table name
(``src_<name>``). Then the connection is locked down: external access off, only the sources' own
locations on the allowed lists, configuration locked, so model-written SQL can reach nothing else.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from analytics_agent.db.catalog import LINKED, SEARCH_PATH, quote_ident
from analytics_agent.db.linked.csv_reading import pinned_view, reader_sql
from analytics_agent.db.linked.dsn_form import as_keywords
from analytics_agent.db.linked.extensions import load_extension
from analytics_agent.db.linked.object_store import create_storage_secret
from analytics_agent.db.linked.spec import Source
from analytics_agent.db.linked.stalls import remember
from analytics_agent.db.linked.timeouts import with_timeouts
from analytics_agent.errors import SourceError

log = logging.getLogger(__name__)
_DEFAULT_SCHEMA = {"postgres": "public", "ducklake": "main", "motherduck": "main"}


@dataclass
class Linked:
    """What linking made: each view's source, the locations the sandbox must still reach, and problems."""

    tables: dict[str, str] = field(default_factory=dict)
    allowed_directories: list[str] = field(default_factory=list)
    allowed_paths: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    primary_keys: dict[str, str] = field(default_factory=dict)
    """A view's single-column primary key, as its database declares it (PostgreSQL)."""
    foreign_keys: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(view, column, target view, key): single-column foreign keys its database declares (PostgreSQL)."""
    own_names: dict[str, str] = field(default_factory=dict)
    """A keyed view's table name in its database (``pg_customers`` → ``customers``): what a column that
    refers to it is named after (``customer_id``)."""
    versions: dict[str, str] = field(default_factory=dict)
    """A source's version where it has one: a DuckLake's latest snapshot. Another process writing the lake
    changes it, so what was read from the lake before (profiles, the tool list) is read again."""


def name_clash(database: str) -> str | None:
    """Why a database DuckDB names ``database`` cannot have linked sources, or None. DuckDB names a database
    after its file, so ``linked.duckdb`` is the catalog ``linked``: the sources' own catalog would not be
    attached beside it and every command failed with a binder error."""
    if database.lower() != LINKED:
        return None
    return (
        f"a database file named {database}.duckdb cannot have linked sources: DuckDB names the database "
        f"'{database}', the name the sources' own catalog needs; rename the file (for example to "
        f"{database}_data.duckdb) and pass that to --db"
    )


def _check_database_name(conn: duckdb.DuckDBPyConnection) -> None:
    row = conn.execute("SELECT current_database()").fetchone()
    problem = name_clash(str(row[0])) if row is not None else None
    if problem is not None:
        raise SourceError(problem)


def link_sources(
    conn: duckdb.DuckDBPyConnection,
    sources: Sequence[Source],
    *,
    taken: Sequence[str] = (),
    skip_failing: bool = False,
) -> Linked:
    """Attach every source and make its views. A source that fails raises a SourceError naming it, or
    with ``skip_failing`` is left out and reported in ``problems`` (one stopped server must not stop every
    command); a table whose name is already taken is skipped and reported in ``problems``."""
    linked = Linked()
    names_in_use = set(taken)
    _check_database_name(conn)
    conn.execute(f"ATTACH IF NOT EXISTS ':memory:' AS {LINKED} (READ_WRITE)")
    conn.execute(f"SET search_path = '{SEARCH_PATH}'")
    for source in sources:
        reach = (len(linked.allowed_directories), len(linked.allowed_paths))
        try:
            views = _link_one(conn, source, linked)
        except SourceError as exc:
            if not skip_failing:
                raise
            # what the failed source asked the sandbox to reach is taken back
            del linked.allowed_directories[reach[0] :], linked.allowed_paths[reach[1] :]
            with contextlib.suppress(duckdb.Error):
                conn.execute(f"DETACH DATABASE IF EXISTS {quote_ident(source.alias)}")
            detail = str(exc).removeprefix(f"source {source.name}: ")
            linked.problems.append(
                f"source {source.name} skipped: {detail} (fix it, or leave sources out with --no-sources)"
            )
            log.info("source %s skipped: %s", source.name, detail)
            continue
        for view_name, target in views:
            if view_name in names_in_use:
                linked.problems.append(
                    f"source {source.name}: table {view_name!r} is skipped because another table has that "
                    "name; give the source a prefix"
                )
                continue
            conn.execute(f"CREATE VIEW {LINKED}.main.{quote_ident(view_name)} AS SELECT * FROM {target}")
            names_in_use.add(view_name)
            linked.tables[view_name] = source.name
    return linked


def _link_one(conn: duckdb.DuckDBPyConnection, source: Source, linked: Linked) -> list[tuple[str, str]]:
    """Attach one source; its views as (name, target). A SourceError names the source."""
    try:
        for extension in source.extensions():
            load_extension(conn, extension)
        if source.remote_path() is not None:
            create_storage_secret(conn, source)
        return _link_files(conn, source, linked) if source.type == "files" else _attach(conn, source, linked)
    except duckdb.Error as exc:
        raise SourceError(f"source {source.name}: {_first_line(exc)}") from None
    except SourceError as exc:
        if str(exc).startswith(f"source {source.name}"):
            raise
        raise SourceError(f"source {source.name}: {exc}") from None


def lock_down(conn: duckdb.DuckDBPyConnection, linked: Linked) -> None:
    """External access off, the sources' locations allowed, configuration locked: the sandbox's final state."""
    if linked.allowed_directories:
        conn.execute("SET allowed_directories = ?", [linked.allowed_directories])
    if linked.allowed_paths:
        conn.execute("SET allowed_paths = ?", [linked.allowed_paths])
    conn.execute("SET enable_external_access = false")
    conn.execute("SET lock_configuration = true")


def _link_files(conn: duckdb.DuckDBPyConnection, source: Source, linked: Linked) -> list[tuple[str, str]]:
    path = str(source.get("path"))
    remote = source.remote_path() is not None
    pattern, fmt, hive = (
        _remote_pattern(source, path) if remote else _local_pattern(source, Path(path).expanduser())
    )
    if remote or _has_glob(pattern) or pattern.endswith("/"):
        linked.allowed_directories.append(_prefix_of(pattern))
    else:
        linked.allowed_paths.append(pattern)
    reader = reader_sql(source, "read_parquet" if fmt == "parquet" else "read_csv", pattern, hive)
    target = pinned_view(conn, source, reader, pattern)
    conn.execute(f"SELECT * FROM {target} LIMIT 0")  # fails now, with the reader's message, if unreadable
    return [(source.prefix + source.name, target)]


def _local_pattern(source: Source, path: Path) -> tuple[str, str, bool]:
    if path.is_dir():
        fmt = source.get("format") or ("parquet" if next(path.rglob("*.parquet"), None) else "csv")
        hive = source.get("hive", any("=" in p.name for p in path.iterdir() if p.is_dir()))
        return f"{path.resolve()}/**/*.{fmt}", fmt, hive
    text = str(path)
    if not _has_glob(text) and not path.is_file():
        raise SourceError(f"source {source.name}: no file or folder at {path}")
    if _has_glob(text) and not glob.glob(text, recursive=True):
        raise SourceError(f"source {source.name}: no file matches {path}")
    fmt = source.get("format") or _format_from_name(source, text)
    anchored = text if os.path.isabs(text) else str(Path.cwd() / text)
    return anchored, fmt, bool(source.get("hive", False))


def _remote_pattern(source: Source, url: str) -> tuple[str, str, bool]:
    if url.endswith("/"):
        fmt = source.get("format") or "parquet"
        return f"{url}**/*.{fmt}", fmt, bool(source.get("hive", True))
    return url, source.get("format") or _format_from_name(source, url), bool(source.get("hive", False))


def _format_from_name(source: Source, name: str) -> str:
    lowered = name.lower()
    if lowered.endswith((".parquet", ".pq")):
        return "parquet"
    if lowered.endswith((".csv", ".tsv", ".txt", ".csv.gz", ".csv.zst")):
        return "csv"
    raise SourceError(
        f'source {source.name}: cannot tell the format of {name}; set format = "parquet" or "csv"'
    )


def _attach(conn: duckdb.DuckDBPyConnection, source: Source, linked: Linked) -> list[tuple[str, str]]:
    alias = source.alias
    if source.type == "postgres":
        _attach_postgres(conn, source)
    elif source.type == "ducklake":
        _attach_ducklake(conn, source, linked)
    else:
        from analytics_agent.db.linked.motherduck import attach_motherduck

        attach_motherduck(conn, source)
        alias = str(source.get("database"))
    schema = str(source.get("schema") or _DEFAULT_SCHEMA[source.type])
    found = _tables_in(conn, alias, schema)
    if source.tables:
        missing = sorted(set(source.tables) - set(found))
        if missing:
            raise SourceError(
                f"source {source.name}: no table {missing[0]!r} in {schema}; it has {', '.join(found)}"
            )
        found = [t for t in found if t in source.tables]
    if source.type == "postgres":
        _postgres_keys(conn, alias, schema, {t: source.prefix + t for t in found}, linked)
    return [
        (source.prefix + table, f"{quote_ident(alias)}.{quote_ident(schema)}.{quote_ident(table)}")
        for table in found
    ]


_PG_KEYS = """
SELECT c.contype::text AS kind, t.relname::text AS tab, a.attname::text AS col,
       coalesce(ft.relname::text, '') AS target, coalesce(fa.attname::text, '') AS key
FROM pg_constraint c
JOIN pg_class t ON t.oid = c.conrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
LEFT JOIN pg_class ft ON ft.oid = c.confrelid
LEFT JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = c.confkey[1]
WHERE n.nspname = '{schema}' AND c.contype IN ('p', 'f') AND array_length(c.conkey, 1) = 1
  AND (c.contype = 'p' OR ft.relnamespace = n.oid)
"""


def _postgres_keys(
    conn: duckdb.DuckDBPyConnection, alias: str, schema: str, views: dict[str, str], linked: Linked
) -> None:
    """The single-column primary and foreign keys PostgreSQL declares among the linked tables: keys it
    enforces, so a link along one is many-to-one without scanning a remote table for duplicates. A
    catalog that cannot be read only costs the links (logged), never the source."""
    query = _PG_KEYS.format(schema=_sql_text(schema)).replace("'", "''")
    try:
        rows = conn.execute(f"SELECT * FROM postgres_query({quote_ident(alias)}, '{query}')").fetchall()
    except duckdb.Error as exc:
        log.info("source %s: keys not read: %s", alias, _first_line(exc))
        return
    for kind, table, column, target, key in rows:
        if table not in views:
            continue
        linked.own_names[views[table]] = table
        if kind == "p":
            linked.primary_keys[views[table]] = column
        elif target in views:
            linked.foreign_keys.append((views[table], column, views[target], key))


def _password_secret(conn: duckdb.DuckDBPyConnection, source: Source, name: str | None) -> bool:
    """A PostgreSQL password from ``password_env`` as a DuckDB secret, which keeps it out of the attached
    path (``duckdb_databases()`` shows that to SQL). ``name=None`` makes the default postgres secret."""
    password_env = source.get("password_env")
    if not password_env:
        return False
    password = os.environ.get(password_env)
    if password is None:
        raise SourceError(f"source {source.name}: the environment variable {password_env} is not set")
    conn.execute(
        f"CREATE OR REPLACE TEMPORARY SECRET {name or ''} (TYPE postgres, PASSWORD '{_sql_text(password)}')"
    )
    return True


def _attach_postgres(conn: duckdb.DuckDBPyConnection, source: Source) -> None:
    options = ["TYPE postgres", "READ_ONLY"]
    dsn = str(source.get("dsn"))
    if _password_secret(conn, source, f"{source.alias}_secret"):
        options.append(f"SECRET {source.alias}_secret")
        dsn = as_keywords(dsn)  # the extension adds the secret as key=value words, which a URI cannot take
    dsn = _sql_text(with_timeouts(dsn))
    with remember(source.name):  # its server's address, to end a wait on it that never ends (stalls)
        conn.execute(f"ATTACH '{dsn}' AS {quote_ident(source.alias)} ({', '.join(options)})")


def _attach_ducklake(conn: duckdb.DuckDBPyConnection, source: Source, linked: Linked) -> None:
    options = ["READ_ONLY"]
    if source.get("data_path"):
        options.append(f"DATA_PATH '{_sql_text(str(source.get('data_path')))}'")
    catalog = str(source.get("catalog"))
    if catalog.lower().startswith("postgres:"):  # a PostgreSQL catalog: the same bounds
        pg = catalog[len("postgres:") :]
        pg = as_keywords(pg) if source.get("password_env") else pg  # as in _attach_postgres
        catalog = "postgres:" + with_timeouts(pg)
    # DuckLake opens its PostgreSQL catalog with the default postgres secret.
    _password_secret(conn, source, None)
    conn.execute(
        f"ATTACH 'ducklake:{_sql_text(catalog)}' AS {quote_ident(source.alias)} ({', '.join(options)})"
    )
    version = _ducklake_snapshot(conn, source.alias)
    if version is not None:
        linked.versions[source.name] = version
    data_path = source.get("data_path") or _ducklake_data_path(conn, source.alias)
    if data_path:
        linked.allowed_directories.append(str(data_path) if str(data_path).endswith("/") else f"{data_path}/")


def _ducklake_data_path(conn: duckdb.DuckDBPyConnection, alias: str) -> str | None:
    """Where the catalog keeps its files (DuckLake records it in its own metadata)."""
    metadata = quote_ident(f"__ducklake_metadata_{alias}")
    row = conn.execute(f"SELECT value FROM {metadata}.ducklake_metadata WHERE key = 'data_path'").fetchone()
    return row[0] if row else None


def _ducklake_snapshot(conn: duckdb.DuckDBPyConnection, alias: str) -> str | None:
    """The lake's latest snapshot: every commit to it (by any process) makes a new one. None where it
    cannot be read (a catalog laid out otherwise): the lake is then read as before, profiles kept."""
    metadata = quote_ident(f"__ducklake_metadata_{alias}")
    try:
        row = conn.execute(f"SELECT max(snapshot_id) FROM {metadata}.ducklake_snapshot").fetchone()
    except duckdb.Error as exc:
        log.info("source %s: snapshot not read: %s", alias, _first_line(exc))
        return None
    return f"snapshot {row[0]}" if row and row[0] is not None else None


def _tables_in(conn: duckdb.DuckDBPyConnection, database: str, schema: str) -> list[str]:
    rows = conn.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = ? "
        "UNION SELECT view_name FROM duckdb_views() WHERE database_name = ? AND schema_name = ? "
        "AND NOT internal ORDER BY 1",
        [database, schema, database, schema],
    ).fetchall()
    return [r[0] for r in rows]


def _has_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _prefix_of(pattern: str) -> str:
    """The folder above the first glob character: what the sandbox must allow."""
    cut = min((pattern.index(ch) for ch in "*?[" if ch in pattern), default=len(pattern))
    head = pattern[:cut]
    return head if head.endswith("/") else head.rsplit("/", 1)[0] + "/"


def _sql_text(text: str) -> str:
    return text.replace("'", "''")


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


class SourceSetUp:
    """The sandbox's set-up step for ``open_sandbox(set_up=…)``: attach the sources, install their (cached)
    profiles, lock the connection down; afterwards it holds the linked tables and the problems found."""

    def __init__(self, sources: Sequence[Source]) -> None:
        self.sources = sources
        self.tables: dict[str, str] = {}
        self.problems: list[str] = []
        self.versions: dict[str, str] = {}

    def __call__(self, conn: duckdb.DuckDBPyConnection) -> None:
        from analytics_agent.db.catalog import table_names
        from analytics_agent.db.linked.profiles import install_profiles
        from analytics_agent.db.linked.relationships import declared_links, install_linked_relationships

        linked = link_sources(conn, self.sources, taken=table_names(conn), skip_failing=True)
        skipped = install_profiles(conn, self.sources, linked.tables, versions=linked.versions)
        linked.problems.extend(skipped.values())
        keyed = [
            t
            for t in linked.tables
            if t not in skipped and (t in linked.primary_keys or any(t == f[0] for f in linked.foreign_keys))
        ]
        if keyed:
            links = declared_links(conn, keyed, linked.primary_keys, linked.foreign_keys, linked.own_names)
            install_linked_relationships(conn, links)
        lock_down(conn, linked)
        self.tables, self.problems, self.versions = linked.tables, linked.problems, linked.versions
