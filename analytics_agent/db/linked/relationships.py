"""Links among a linked source's tables, from the keys its own database enforces, kept for the session
beside the source's profiles (nothing about a source is written into the database's file)."""

from __future__ import annotations

import duckdb

from analytics_agent.db.catalog import LINKED, META_SCHEMA
from analytics_agent.db.key_names import is_free_text, role_targets
from analytics_agent.db.relationships import (
    KEY_TYPES,
    MIN_COVERAGE,
    Relationship,
    coverage,
    key_family,
    names_match,
)
from analytics_agent.db.relationships_base import MIN_VALUE_COVERAGE


def declared_links(
    cur: duckdb.DuckDBPyConnection,
    tables: list[str],
    primary_keys: dict[str, str],
    foreign_keys: list[tuple[str, str, str, str]],
    own_names: dict[str, str],
) -> list[Relationship]:
    """Links among linked ``tables`` (``own_names``: each one's name in its database, without a prefix) from the keys their database enforces: every foreign key whose target
    is a primary key, and a column named for another table's primary key (``customer_id`` →
    ``customers.id``) whose values that key covers at least half of (one sampled query each), and a
    role-named column (``_role_link``). No scan for duplicates: the database guarantees the key unique."""
    found = {
        (t, c): Relationship(t, c, target, key)
        for t, c, target, key in foreign_keys
        if t in tables and target in tables and primary_keys.get(target) == key
    }
    kinds: dict[str, dict[str, str]] = {}
    for table, column, kind in cur.execute(
        "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = ? "
        "AND schema_name = 'main' ORDER BY table_name, column_index",
        [LINKED],
    ).fetchall():
        kinds.setdefault(table, {})[column] = kind
    for table in tables:
        for column, kind in kinds.get(table, {}).items():
            if (table, column) in found or not KEY_TYPES.match(kind):
                continue
            for target, key in primary_keys.items():
                if target == table or target not in tables or key not in kinds.get(target, {}):
                    continue
                if names_match(column, own_names.get(target, target), key) and key_family(
                    kinds[target][key]
                ) == key_family(kind):
                    share = coverage(cur, table, column, target, key)
                    if share >= MIN_COVERAGE:
                        found[table, column] = Relationship(table, column, target, key, round(share, 4))
                        break
    for table in tables:
        for column, kind in kinds.get(table, {}).items():
            if (table, column) not in found and KEY_TYPES.match(kind):
                link = _role_link(cur, table, column, kind, tables, primary_keys, kinds, own_names)
                if link is not None:
                    found[table, column] = link
    return sorted(found.values(), key=lambda r: (r.table, r.column, r.target))


def _role_link(
    cur: duckdb.DuckDBPyConnection,
    table: str,
    column: str,
    kind: str,
    tables: list[str],
    primary_keys: dict[str, str],
    kinds: dict[str, dict[str, str]],
    own_names: dict[str, str],
) -> Relationship | None:
    """A role-named column (``account_manager_id``, ``reports_to``) to the primary key of the table its
    name means (``key_names.role_targets``, by the tables' own names), when that key holds 90 % of its
    values; of two tables that fit equally, neither. A table's own key is no role column."""
    if primary_keys.get(table) == column or is_free_text(column, {"type": kind}):
        return None
    by_own = {own_names.get(t, t): t for t in tables if t in primary_keys}
    fits = []
    for rank, own in role_targets(column, own_names.get(table, table), list(by_own)):
        target = by_own[own]
        key = primary_keys[target]
        if key in kinds.get(target, {}) and key_family(kinds[target][key]) == key_family(kind):
            share = coverage(cur, table, column, target, key)
            if share >= MIN_VALUE_COVERAGE:
                fits.append((rank, target, key, share))
    fits.sort()
    if not fits or (len(fits) > 1 and fits[0][0] == fits[1][0]):
        return None
    _, target, key, share = fits[0]
    return Relationship(table, column, target, key, round(share, 4))


def install_linked_relationships(conn: duckdb.DuckDBPyConnection, links: list[Relationship]) -> None:
    """Keep the linked tables' links for this session (``linked._agent.relationships``), beside their
    profiles: nothing about a source is written into the database's file."""
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {LINKED}.{META_SCHEMA}")
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {LINKED}.{META_SCHEMA}.relationships (table_name VARCHAR, "
        "column_name VARCHAR, target VARCHAR, key VARCHAR, coverage DOUBLE, verified BOOLEAN)"
    )
    if links:
        conn.executemany(
            f"INSERT INTO {LINKED}.{META_SCHEMA}.relationships VALUES (?, ?, ?, ?, ?, ?)",
            [(r.table, r.column, r.target, r.key, r.coverage, r.verified) for r in links],
        )
