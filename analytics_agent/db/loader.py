"""Load CSV or Parquet files into one table, all or nothing.

Everything happens in one transaction on the writer connection: read with ``CREATE TABLE … AS SELECT``
(every column of every row is converted, so a bad value anywhere fails the load), swap for ``--replace``,
store the profile, ``COMMIT``. Any failure before ``COMMIT`` (a bad row, Ctrl-C, a full disk, the
process killed) leaves the database exactly as it was: DuckDB only makes committed work durable.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.catalog import (
    column_types,
    drop_profile,
    get_profile,
    quote_ident,
    store_profile,
    table_names,
)
from analytics_agent.db.connect import ensure_database, open_writer
from analytics_agent.db.load_errors import explain_load_error
from analytics_agent.db.names import safe_column_names, safe_identifier, table_name_from_path
from analytics_agent.db.relationships import store_relationships
from analytics_agent.db.sources import (
    LoadOptions,
    check_options,
    file_kind,
    map_type_overrides,
    reader_sql,
    resolve_files,
)
from analytics_agent.errors import LoadError
from analytics_agent.suggest import did_you_mean

ProgressCallback = Callable[[float], None]
_POLL_S = 0.2


@dataclass(frozen=True)
class ColumnSummary:
    name: str
    original: str
    type: str
    nulls: int


@dataclass(frozen=True)
class LoadSummary:
    """What a load did, for the closing summary."""

    table: str
    files: list[Path]
    mode: str
    rows_loaded: int
    rows_total: int
    columns: list[ColumnSummary]
    seconds: float
    created_database: bool = False


def load_files(
    db_path: Path,
    patterns: Sequence[str],
    options: LoadOptions,
    *,
    on_progress: ProgressCallback | None = None,
) -> LoadSummary:
    """Load the files into one table. Raises LoadError (database unchanged) or DatabaseError."""
    started = time.perf_counter()
    files = resolve_files(patterns)
    kind = file_kind(files)
    options = check_options(options, kind)
    created = ensure_database(db_path)
    with open_writer(db_path) as conn:
        reserved = _reserved_words(conn)
        table = _target_table(options, patterns, reserved)
        sniffed = _source_columns(conn, kind, files, options)
        originals = list(sniffed)
        safe = safe_column_names(originals, reserved=reserved)
        # DuckDB guesses BIGNUM for thousands-separated integers; BIGINT is what every tool expects
        bignums = {o: "BIGINT" for o, t in sniffed.items() if t == "BIGNUM" and kind == "csv"}
        types = bignums | map_type_overrides(options.types, originals, safe)
        source, params = reader_sql(kind, files, options, types=types)
        select = ", ".join(
            f"{quote_ident(o)} AS {quote_ident(s)}" for o, s in zip(originals, safe, strict=True)
        )
        query = f"SELECT {select} FROM {source}"
        renamed = {s: o for o, s in zip(originals, safe, strict=True) if o != s}
        try:
            with _progress(conn, on_progress):
                loaded = _write(conn, table, query, params, options.mode, safe, renamed)
        except duckdb.Error as exc:
            raise LoadError(
                explain_load_error(str(exc), files, stored_names=dict(zip(originals, safe, strict=True)))
            ) from None
        profile = get_profile(conn, table)
    return LoadSummary(
        table=table,
        files=files,
        mode=options.mode,
        rows_loaded=loaded,
        rows_total=int(profile["rows"]),
        columns=_column_summaries(profile),
        seconds=time.perf_counter() - started,
        created_database=created,
    )


def drop_table(db_path: Path, table: str) -> int:
    """Drop one table and its profile in one transaction. Returns how many rows it held."""
    if not db_path.exists():
        raise LoadError(f"no database at {db_path}; nothing to drop")
    with open_writer(db_path) as conn:
        names = table_names(conn)
        if table not in names:
            raise LoadError(
                f"no table {table!r}{did_you_mean(table, names)}; tables: {', '.join(names) or 'none'}"
            )
        rows = conn.execute(f"SELECT count(*) FROM {quote_ident(table)}").fetchone()[0]
        with _transaction(conn):
            conn.execute(f"DROP TABLE {quote_ident(table)}")
            drop_profile(conn, table)
            store_relationships(conn, table)
    return int(rows)


def _write(
    conn: duckdb.DuckDBPyConnection,
    table: str,
    query: str,
    params: list[Any],
    mode: str,
    columns: list[str],
    renamed: dict[str, str],
) -> int:
    """The one transaction: write rows, store the profile. Returns the rows written."""
    with _transaction(conn):
        exists = table in table_names(conn)
        target = quote_ident(table)
        if exists and mode == "create":
            raise LoadError(
                f"table {table!r} already exists; add --replace to overwrite it or --append to add rows"
            )
        if exists and mode == "append":
            _check_same_columns(conn, table, columns)
            loaded = conn.execute(f"INSERT INTO {target} BY NAME {query}", params).fetchone()[0]
            renamed = {**get_profile(conn, table).get("original_names", {}), **renamed}
        elif exists:  # replace: build beside the old table, then swap, all before COMMIT
            temporary = f"_loading_{uuid.uuid4().hex[:12]}"
            loaded = conn.execute(f"CREATE TABLE {quote_ident(temporary)} AS {query}", params).fetchone()[0]
            conn.execute(f"DROP TABLE {target}")
            conn.execute(f"ALTER TABLE {quote_ident(temporary)} RENAME TO {target}")
        else:
            loaded = conn.execute(f"CREATE TABLE {target} AS {query}", params).fetchone()[0]
        store_profile(conn, table, original_names=renamed or None)
        store_relationships(conn, table)
    return int(loaded)


@contextlib.contextmanager
def _transaction(conn: duckdb.DuckDBPyConnection) -> Iterator[None]:
    conn.execute("BEGIN TRANSACTION")
    try:
        yield
    except BaseException:  # Ctrl-C included: nothing of this load may stay
        with contextlib.suppress(duckdb.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def _check_same_columns(conn: duckdb.DuckDBPyConnection, table: str, columns: list[str]) -> None:
    existing = list(column_types(conn, table))
    missing = [c for c in existing if c not in columns]
    extra = [c for c in columns if c not in existing]
    if missing or extra:
        parts = []
        if extra:
            parts.append(f"the file has {', '.join(extra)} which {table} lacks")
        if missing:
            parts.append(f"{table} has {', '.join(missing)} which the file lacks")
        raise LoadError(
            f"--append needs the same columns: {'; '.join(parts)}; use --replace or another --table"
        )


def _source_columns(
    conn: duckdb.DuckDBPyConnection, kind: str, files: list[Path], options: LoadOptions
) -> dict[str, str]:
    """The file's own column names and guessed types (DuckDB sniffs a sample; nothing converted yet)."""
    source, params = reader_sql(kind, files, options)  # type: ignore[arg-type]
    try:
        described = conn.execute(f"DESCRIBE SELECT * FROM {source}", params).fetchall()
    except duckdb.Error as exc:
        raise LoadError(explain_load_error(str(exc), files)) from None
    return {row[0]: row[1] for row in described}


def _target_table(options: LoadOptions, patterns: Sequence[str], reserved: frozenset[str]) -> str:
    if options.table is not None:
        name = safe_identifier(options.table, reserved=reserved, prefix="t")
    else:
        name = table_name_from_path(patterns[0], reserved=reserved)
    if name.startswith("_"):
        raise LoadError(f"table names starting with '_' are reserved; choose another --table than {name!r}")
    return name


def _reserved_words(conn: duckdb.DuckDBPyConnection) -> frozenset[str]:
    rows = conn.execute(
        "SELECT keyword_name FROM duckdb_keywords() WHERE keyword_category = 'reserved'"
    ).fetchall()
    return frozenset(r[0] for r in rows)


def _column_summaries(profile: dict[str, Any]) -> list[ColumnSummary]:
    original = profile.get("original_names", {})
    return [
        ColumnSummary(c["name"], original.get(c["name"], c["name"]), c["type"], int(c["nulls"]))
        for c in profile["columns"]
    ]


@contextlib.contextmanager
def _progress(conn: duckdb.DuckDBPyConnection, callback: ProgressCallback | None) -> Iterator[None]:
    """Report DuckDB's own progress estimate (0-100) from a side thread while the load runs."""
    if callback is None:
        yield
        return
    conn.execute("SET enable_progress_bar = true")
    conn.execute("SET enable_progress_bar_print = false")  # we draw it, on stderr only
    done = threading.Event()

    def poll() -> None:
        while not done.wait(_POLL_S):
            with contextlib.suppress(duckdb.Error):
                value = conn.query_progress()
                if value >= 0:
                    callback(value)

    thread = threading.Thread(target=poll, name="load-progress", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
