"""Many-to-one relationships between tables: inferred from the data, stored next to the profiles.

A column ``flights.carrier`` refers to ``airlines.carrier`` when the target column is a unique key of its
table (no duplicates, no nulls) and the source values fall within it. Only many-to-one links are kept:
joining along one never repeats a row of the source table, so counts and sums stay right. Inference
runs after every load (a load can add a table, or break a key by appending duplicates); the semantic
file can declare more and correct these.

Names must match (``carrier`` = ``carrier``, or the ``<table>_id`` / ``id`` habit) with the key covering at
least half of the source's distinct values (real exports have orphans: 269 tailnums of flights are missing
from planes); or, for a text column and a lookup-sized table, the values alone must fall within the key
(90 %: flights.origin and flights.dest hold airports.faa codes). Tables without a stored list (written by
other tools) are inferred on read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import duckdb

from analytics_agent.db.catalog import META_SCHEMA, quote_ident, table_names

MIN_COVERAGE = 0.5
MIN_VALUE_COVERAGE = 0.9
MAX_LOOKUP_ROWS = 100_000
_KEY_TYPES = re.compile(r"^(VARCHAR|U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|UUID)$")


@dataclass(frozen=True)
class Relationship:
    """``table.column`` refers to ``target.key`` (many rows of ``table`` to one of ``target``)."""

    table: str
    column: str
    target: str
    key: str
    coverage: float = 1.0
    """Share of the source's distinct values found in the key (1.0 when declared)."""
    declared: bool = False


def _family(kind: str) -> str:
    """Types that join without surprise: any integer width with any other; text with text."""
    return "integer" if "INT" in kind.upper() else kind.upper()


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and not name.endswith("ss") else name


def names_match(column: str, target: str, key: str) -> bool:
    """``carrier``→``carrier``, ``customer_id``→``customers.id``/``customers.customer_id``."""
    if column == key:
        return True
    return key == "id" and column in (f"{target}_id", f"{_singular(target)}_id")


def _catalog(cur: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    catalog: dict[str, dict[str, str]] = {}
    for table, column, kind in cur.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = "
        "current_database() AND schema_name = 'main' ORDER BY table_name, column_index"
    ).fetchall():
        catalog.setdefault(table, {})[column] = kind
    return catalog


def _unique_keys(cur: duckdb.DuckDBPyConnection, table: str, columns: Iterable[str]) -> set[str]:
    """Which of ``columns`` hold no null and no duplicate, in one scan."""
    columns = list(columns)
    if not columns:
        return set()
    parts = ", ".join(f"count(DISTINCT {quote_ident(c)}) = count(*)" for c in columns)
    row = cur.execute(f"SELECT {parts} FROM {quote_ident(table)}").fetchone() or ()
    return {c for c, unique in zip(columns, row, strict=True) if unique}


def coverage(cur: duckdb.DuckDBPyConnection, table: str, column: str, target: str, key: str) -> float:
    """Share of ``table.column``'s distinct non-null values present in ``target.key``."""
    col, k = quote_ident(column), quote_ident(key)
    found, total = cur.execute(
        f"SELECT count(t.{k}), count(*) FROM (SELECT DISTINCT {col} AS v FROM {quote_ident(table)} "
        f"WHERE {col} IS NOT NULL) s LEFT JOIN {quote_ident(target)} t ON s.v = t.{k}"
    ).fetchone()
    return found / total if total else 0.0


def infer_relationships(cur: duckdb.DuckDBPyConnection) -> list[Relationship]:
    """Every many-to-one link the names or the data support, in a stable order. Candidates come from
    the catalog first, so only a few key columns are scanned (a load must stay fast)."""
    catalog = _catalog(cur)
    small = _small_tables(cur, catalog)
    candidates = [
        (table, column, target, key, names_match(column, target, key))
        for table, columns in catalog.items()
        for column, kind in columns.items()
        if _KEY_TYPES.match(kind)
        for target, target_columns in catalog.items()
        if target != table
        for key, key_kind in target_columns.items()
        if _family(key_kind) == _family(kind)
        and (names_match(column, target, key) or (kind == "VARCHAR" and target in small))
    ]
    wanted: dict[str, set[str]] = {}
    for _, _, target, key, _ in candidates:
        wanted.setdefault(target, set()).add(key)
    unique = {target: _unique_keys(cur, target, sorted(keys)) for target, keys in wanted.items()}
    found = []
    for table, column, target, key, named in candidates:
        if key in unique[target]:
            share = coverage(cur, table, column, target, key)
            if share >= (MIN_COVERAGE if named else MIN_VALUE_COVERAGE):
                found.append(Relationship(table, column, target, key, round(share, 4)))
    return found


def _small_tables(cur: duckdb.DuckDBPyConnection, catalog: dict[str, dict[str, str]]) -> set[str]:
    """Lookup-sized tables: where a text column of another table may refer by value alone
    (flights.origin holds airports.faa codes)."""
    sizes = dict(
        cur.execute(
            "SELECT table_name, estimated_size FROM duckdb_tables() WHERE database_name = current_database() "
            "AND schema_name = 'main'"
        ).fetchall()
    )
    return {t for t in catalog if (sizes.get(t) or 0) <= MAX_LOOKUP_ROWS}


def store_relationships(conn: duckdb.DuckDBPyConnection) -> list[Relationship]:
    """Infer and store the links of the whole database (on a writable connection, inside the caller's
    transaction, after a load): a new table can be the target of old ones and the other way round."""
    found = infer_relationships(conn)
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {META_SCHEMA}")
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {META_SCHEMA}.relationships (table_name VARCHAR, column_name VARCHAR, "
        "target VARCHAR, key VARCHAR, coverage DOUBLE)"
    )
    conn.execute(f"DELETE FROM {META_SCHEMA}.relationships")
    if found:
        conn.executemany(
            f"INSERT INTO {META_SCHEMA}.relationships VALUES (?, ?, ?, ?, ?)",
            [(r.table, r.column, r.target, r.key, r.coverage) for r in found],
        )
    return found


def read_relationships(cur: duckdb.DuckDBPyConnection) -> list[Relationship]:
    """The stored links whose tables still exist, or links inferred now when none were ever stored."""
    stored = cur.execute(
        "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = ? "
        "AND table_name = 'relationships'",
        [META_SCHEMA],
    ).fetchone()
    if not stored:
        return infer_relationships(cur)
    tables = set(table_names(cur))
    rows = cur.execute(
        f"SELECT table_name, column_name, target, key, coverage FROM {META_SCHEMA}.relationships "
        "ORDER BY table_name, column_name, target"
    ).fetchall()
    return [Relationship(*row) for row in rows if row[0] in tables and row[2] in tables]
