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

from collections.abc import Mapping
from typing import Any

import duckdb

from analytics_agent.db.catalog import (
    LINKED,
    META_SCHEMA,
    SAMPLE_ROWS,
    Written,
    get_profiles,
    quote_ident,
    sample_clause,
    table_names,
    written_tables,
)
from analytics_agent.db.key_names import grain_key, is_free_text
from analytics_agent.db.relationships_base import (
    KEY_TYPES,
    MAX_LOOKUP_ROWS,
    MIN_COVERAGE,
    MIN_VALUE_COVERAGE,
    Relationship,
    key_family,
    may_be_key,
    names_match,
    within,
)
from analytics_agent.db.role_links import role_candidates, role_links
from analytics_agent.db.rows import first_row

__all__ = ["KEY_TYPES", "MIN_COVERAGE", "Relationship", "key_family", "names_match"]  # for linked sources


def _catalog(cur: duckdb.DuckDBPyConnection) -> dict[str, dict[str, str]]:
    return written_tables(cur)[0]


def duplicate_keys(cur: duckdb.DuckDBPyConnection, table: str, key: str, *, rows: int | None = None) -> int:
    """Rows of ``table`` that repeat a ``key`` value or have none: 0 for a unique key. With ``rows`` above
    the sample size, counted on a sample of whole vectors (a quick way to rule a key out, not in)."""
    sample = sample_clause(rows) if rows is not None else ""
    col = quote_ident(key)
    return int(
        first_row(cur.execute(f"SELECT count(*) - count(DISTINCT {col}) FROM {quote_ident(table)}{sample}"))[
            0
        ]
    )


def coverage(
    cur: duckdb.DuckDBPyConnection, table: str, column: str, target: str, key: str, *, rows: int | None = None
) -> float:
    """Share of ``table.column``'s distinct non-null values present in ``target.key``; from a sample of
    about ``SAMPLE_ROWS`` rows (whole vectors, fixed seed) when the table is big: a threshold of 50 %
    or 90 % needs no exact count."""
    col, k = quote_ident(column), quote_ident(key)
    sample = sample_clause(_row_count(cur, table) if rows is None else rows)
    found, total = first_row(
        cur.execute(
            f"SELECT count(t.{k}), count(*) FROM (SELECT DISTINCT {col} AS v FROM {quote_ident(table)}{sample}) s "
            f"LEFT JOIN {quote_ident(target)} t ON s.v = t.{k} WHERE s.v IS NOT NULL"
        )
    )
    return found / total if total else 0.0


def _candidates(
    catalog: dict[str, dict[str, str]], sizes: dict[str, int], touching: str | None
) -> list[tuple[str, str, str, str, bool]]:
    """(table, column, target, key, named) pairs the catalog alone allows: same type family, and names
    that match, or a text column and a lookup-sized target; only pairs from or to ``touching`` if given.
    Each column's family is worked out once, not once per pair (60 columns beside the sample tables: 4,560
    calls, 0.6 ms of a small load)."""
    families = {t: {c: key_family(k) for c, k in columns.items()} for t, columns in catalog.items()}
    return [
        (table, column, target, key, names_match(column, target, key))
        for table, columns in catalog.items()
        for column, kind in columns.items()
        if KEY_TYPES.match(kind)
        for target, target_columns in catalog.items()
        if target != table and touching in (None, table, target)
        for key in target_columns
        if families[target][key] == families[table][column]
        and (names_match(column, target, key) or (kind == "VARCHAR" and sizes[target] <= MAX_LOOKUP_ROWS))
    ]


def infer_relationships(
    cur: duckdb.DuckDBPyConnection,
    *,
    touching: str | None = None,
    catalog: dict[str, dict[str, str]] | None = None,
    profiles_stored: bool | None = None,
    known: Mapping[str, dict[str, Any]] | None = None,
) -> list[Relationship]:
    """Every many-to-one link the names or the data support, in a stable order. A load must stay fast:
    candidates come from the catalog, a key with nulls (stored profile) is no key, a key repeating a value
    in a sample is no key, and coverage reads a sample. A key of a big table that passes is marked
    unverified: the full uniqueness check runs when a question first joins to it. ``touching``: only
    links from or to that table (the one just loaded). ``catalog`` and ``profiles_stored``: what the
    caller already read (``_catalog``, whether ``_agent.profiles`` exists); ``known``: profiles it has just
    stored (``get_profiles``)."""
    catalog = _catalog(cur) if catalog is None else catalog
    stored = get_profiles(cur, list(catalog), stored=profiles_stored, known=known)
    # each table's rows as its profile counted them, at its load (or now, for a table without one): a
    # query counting every table first touched each of them, 0.9 ms of a small load
    sizes = {t: int(p["rows"]) for t, p in stored.items()}
    profiles = {t: {c["name"]: c for c in p["columns"]} for t, p in stored.items()}
    grains = {t: grain_key(t, profiles[t], KEY_TYPES) for t in catalog}
    pairs = [
        (table, column, target, key, named)
        for table, column, target, key, named in _candidates(catalog, sizes, touching)
        if may_be_key(profiles[target][key], sizes[target])
        and not is_free_text(column, profiles[table][column])
        and not is_free_text(key, profiles[target][key])
        and (named or key == grains[target])  # by values alone, only to the table's grain
    ]
    fit = _codes_that_fit(
        cur, [(profiles[t][c], t2, k, profiles[t2][k]) for t, c, t2, k, named in pairs if not named]
    )
    keys: dict[tuple[str, str], bool] = {}
    checked = []
    for table, column, target, key, named in pairs:
        if not named and not _fits(profiles[table][column], profiles[target][key], target, key, fit):
            continue
        if _unique(cur, keys, target, key, sizes[target]):
            checked.append((table, column, target, key, named))
    shares = _coverages(cur, [(t, c, t2, k) for t, c, t2, k, _ in checked], sizes, catalog)
    found = []
    for (table, column, target, key, named), share in zip(checked, shares, strict=True):
        if share >= (MIN_COVERAGE if named else MIN_VALUE_COVERAGE):
            verified = sizes[target] <= SAMPLE_ROWS
            found.append(Relationship(table, column, target, key, round(share, 4), verified=verified))
    linked = {(r.table, r.column) for r in found} | {(t, c) for t, c, _, _, named in pairs if named}
    roles = role_links(
        [
            c
            for c in role_candidates(catalog, profiles, sizes, grains, touching)
            if (c[0], c[1]) not in linked
        ],
        lambda target, key: _unique(cur, keys, target, key, sizes[target]),
        lambda pairs: _coverages(cur, pairs, sizes, catalog),
        sizes,
    )
    return sorted(found + roles, key=lambda r: (r.table, r.column, r.target))


def _unique(
    cur: duckdb.DuckDBPyConnection, known: dict[tuple[str, str], bool], target: str, key: str, rows: int
) -> bool:
    """Whether ``target.key`` repeats no value (on a sample of a big table), asked once per key."""
    if (target, key) not in known:
        known[target, key] = duplicate_keys(cur, target, key, rows=rows) == 0
    return known[target, key]


def _coverages(
    cur: duckdb.DuckDBPyConnection,
    pairs: list[tuple[str, str, str, str]],
    sizes: dict[str, int],
    catalog: dict[str, dict[str, str]],
) -> list[float]:
    """``coverage`` of each (table, column, target, key). Unsampled columns of one type that point at one
    key share a join (each join reads the whole key: 62 -> 38 ms for two columns against a new table's
    million keys); each column keeps its own counts, as in its own join."""
    shares: dict[int, float] = {}
    groups: dict[tuple[str, str, str], list[int]] = {}
    for i, (table, column, target, key) in enumerate(pairs):
        if sizes[table] <= SAMPLE_ROWS:
            groups.setdefault((target, key, catalog[table][column]), []).append(i)
    for (target, key, _), members in groups.items():
        if len(members) < 2:
            continue
        branches = " UNION ALL ".join(
            f"SELECT DISTINCT {n} AS i, {quote_ident(pairs[i][1])} AS v FROM {quote_ident(pairs[i][0])}"
            for n, i in enumerate(members)
        )
        k = quote_ident(key)
        rows = cur.execute(
            f"SELECT s.i, count(t.{k}), count(*) FROM ({branches}) s LEFT JOIN {quote_ident(target)} t "
            f"ON s.v = t.{k} WHERE s.v IS NOT NULL GROUP BY s.i"
        ).fetchall()
        counts = {int(n): (found, total) for n, found, total in rows}
        for n, i in enumerate(members):
            found, total = counts.get(n, (0, 0))
            shares[i] = found / total if total else 0.0
    return [
        shares[i] if i in shares else coverage(cur, table, column, target, key, rows=sizes[table])
        for i, (table, column, target, key) in enumerate(pairs)
    ]


def _codes_that_fit(
    cur: duckdb.DuckDBPyConnection, checks: list[tuple[dict[str, Any], str, str, dict[str, Any]]]
) -> dict[tuple[str, str], set[Any]]:
    """For each (target, key) of a text column and a lookup table: which of the columns' smallest and
    largest values are keys, all in one query (a query per key cost a load of a table of many text
    columns 7 ms of CPU against the sample data's four tables). The keys are all text (``_candidates``),
    so the branches share a type."""
    wanted: dict[tuple[str, str], set[Any]] = {}
    for source, target, key, key_profile in checks:
        if within(source, key_profile):
            wanted.setdefault((target, key), set()).update((source["min"], source["max"]))
    if not wanted:
        return {}
    branches = " UNION ALL ".join(
        f"SELECT DISTINCT {n} AS i, {quote_ident(key)} AS k FROM {quote_ident(target)} "
        f"WHERE {quote_ident(key)} IN (SELECT unnest(?))"
        for n, (target, key) in enumerate(wanted)
    )
    found: dict[tuple[str, str], set[Any]] = {pair: set() for pair in wanted}
    pairs = list(wanted)
    for n, value in cur.execute(branches, [sorted(values) for values in wanted.values()]).fetchall():
        found[pairs[n]].add(value)
    return found


def _fits(
    source: dict[str, Any],
    key_profile: dict[str, Any],
    target: str,
    key: str,
    found: dict[tuple[str, str], set[Any]],
) -> bool:
    """A quick look before reading values: codes of a lookup table lie within its key's range, and the
    smallest or largest of them is one of its keys (customers.city is not in products.name)."""
    keys = found.get((target, key), set())
    return within(source, key_profile) and (source["min"] in keys or source["max"] in keys)


def _row_count(cur: duckdb.DuckDBPyConnection, table: str) -> int:
    return int(first_row(cur.execute(f"SELECT count(*) FROM {quote_ident(table)}"))[0])


def store_relationships(
    conn: duckdb.DuckDBPyConnection,
    changed: str | None = None,
    *,
    written: Written | None = None,
    known: Mapping[str, dict[str, Any]] | None = None,
) -> list[Relationship]:
    """Infer and store the database's links (on a writable connection, inside the caller's transaction).

    ``changed``: the table just loaded, replaced or dropped; only links from or to it are inferred again
    and the others are kept, so a load pays for its own table only. ``written``: ``written_tables`` as
    the caller has just read it (a writer has no linked sources). The stored links are rewritten only
    when they change: a rewrite costs its queries and a bigger checkpoint at close. ``known``: profiles
    the caller has just stored (``get_profiles``).
    """
    catalog, meta = written_tables(conn) if written is None else written
    if not meta:
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {META_SCHEMA}")
    exists = "relationships" in meta
    stored = _stored_rows(conn) if exists else []
    kept = [r for r in _links_between(stored, set(catalog)) if changed not in (r.table, r.target)]
    found = kept + infer_relationships(
        conn,
        touching=changed if exists else None,
        catalog=catalog,
        profiles_stored="profiles" in meta,
        known=known,
    )
    found.sort(key=lambda r: (r.table, r.column, r.target))
    rows = [(r.table, r.column, r.target, r.key, r.coverage, r.verified) for r in found]
    if exists and rows == stored:
        return found
    if not exists:
        conn.execute(
            f"CREATE TABLE {META_SCHEMA}.relationships (table_name VARCHAR, column_name VARCHAR, "
            "target VARCHAR, key VARCHAR, coverage DOUBLE, verified BOOLEAN)"
        )
    else:  # a table just made is empty
        conn.execute(f"DELETE FROM {META_SCHEMA}.relationships")
    if found:
        conn.executemany(f"INSERT INTO {META_SCHEMA}.relationships VALUES (?, ?, ?, ?, ?, ?)", rows)
    return found


def _linked_links(cur: duckdb.DuckDBPyConnection) -> list[Relationship]:
    exists = cur.execute(
        "SELECT 1 FROM duckdb_tables() WHERE database_name = ? AND schema_name = ? AND table_name = 'relationships'",
        [LINKED, META_SCHEMA],
    ).fetchone()
    if not exists:
        return []
    rows = cur.execute(f"SELECT * FROM {LINKED}.{META_SCHEMA}.relationships ORDER BY 1, 2, 3").fetchall()
    return [Relationship(r[0], r[1], r[2], r[3], r[4], verified=r[5]) for r in rows]


def _stored(cur: duckdb.DuckDBPyConnection) -> bool:
    return bool(
        cur.execute(
            "SELECT 1 FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = ? "
            "AND table_name = 'relationships'",
            [META_SCHEMA],
        ).fetchone()
    )


def read_relationships(cur: duckdb.DuckDBPyConnection) -> list[Relationship]:
    """The stored links whose tables still exist, or links inferred now when none were ever stored; then
    the linked sources' links declared by their databases' keys (kept for the session)."""
    linked = _linked_links(cur)
    if not _stored(cur):
        inferred = infer_relationships(cur)
        return inferred + [
            r for r in linked if (r.table, r.column) not in {(i.table, i.column) for i in inferred}
        ]
    return _stored_links(cur, set(table_names(cur))) + linked


def _stored_links(cur: duckdb.DuckDBPyConnection, tables: set[str]) -> list[Relationship]:
    """The stored links between ``tables`` (those that still exist)."""
    return _links_between(_stored_rows(cur), tables)


def _stored_rows(cur: duckdb.DuckDBPyConnection) -> list[tuple[Any, ...]]:
    """The stored links by table, column and target (NULLs last, as DuckDB orders them), sorted here:
    DuckDB's ORDER BY of a few rows cost a load 0.3 ms of CPU."""
    rows = [tuple(row) for row in cur.execute(f"SELECT * FROM {META_SCHEMA}.relationships").fetchall()]
    return sorted(rows, key=lambda row: tuple((v is None, "" if v is None else v) for v in row[:3]))


def _links_between(rows: list[tuple[Any, ...]], tables: set[str]) -> list[Relationship]:
    # rows of an earlier layout have no "verified": their keys were checked in full
    return [
        Relationship(row[0], row[1], row[2], row[3], row[4], verified=row[5] if len(row) > 5 else True)
        for row in rows
        if row[0] in tables and row[2] in tables
    ]
