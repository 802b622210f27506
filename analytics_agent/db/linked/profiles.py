"""Profiles of linked tables, computed once and kept on disk: a remote scan costs time and money, so a
source's profiles are read from ``<data dir>/sources/<name>.json`` while the source's settings are
unchanged, and recomputed by ``analytics-agent sources refresh``. A source with a version of its own (a
DuckLake's snapshot, which every commit by any process advances) is profiled again when it changes: the
profile of a lake another process wrote to is not kept, and servers on several machines over one lake
describe it alike.

They reach the catalog through a session-only table (``linked._agent.profiles``), so every reader of
profiles (describe_table, tool enums, did-you-mean) finds them as it finds a loaded table's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import duckdb

from analytics_agent.db.bounded import time_bound
from analytics_agent.db.catalog import LINKED, META_SCHEMA, compute_profile, quote_ident
from analytics_agent.db.linked.spec import Source
from analytics_agent.db.values import to_jsonable
from analytics_agent.paths import data_dir


def cache_dir() -> Path:
    return data_dir() / "sources"


def fingerprint(source: Source, version: str | None = None) -> str:
    settings = source.as_mapping()
    text = json.dumps(settings if version is None else [settings, version], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


PROFILE_LIMIT_S = 60.0
"""How long one linked table's first profile may scan (cached afterwards). A view that selects without end
(``generate_series(1, 1e13)``) is skipped past it instead of holding every command."""


def install_profiles(
    conn: duckdb.DuckDBPyConnection,
    sources: Sequence[Source],
    tables: dict[str, str],
    *,
    folder: Path | None = None,
    versions: dict[str, str] | None = None,
) -> dict[str, str]:
    """Fill the session's profile table for every linked table. A table whose profile fails (a remote view
    that errors: division by zero, a dropped function) or runs past ``PROFILE_LIMIT_S`` is left out:
    returned with the one-line reason, its view dropped and its entry removed from ``tables``.
    ``versions``: each source's version (``Linked.versions``); a cached profile of another one is stale."""
    folder = folder or cache_dir()
    versions = versions or {}
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {LINKED}.{META_SCHEMA}")
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {LINKED}.{META_SCHEMA}.profiles (table_name VARCHAR, profile VARCHAR)"
    )
    skipped: dict[str, str] = {}
    for source in sources:
        mine = [t for t, owner in tables.items() if owner == source.name]
        key = fingerprint(source, versions.get(source.name))
        cached = _read(folder, source, key)
        fresh: dict[str, Any] = {}
        for table in mine:
            profile = cached.get(table) or _profile(conn, table)
            if isinstance(profile, str):
                skipped[table] = f"source {source.name}: table {table!r} is skipped: {profile}"
                continue
            profile = _as_loaded(source, profile)
            fresh[table] = profile
        if fresh != cached:
            _write(folder, source, key, fresh)
        for table, profile in fresh.items():
            conn.execute(
                f"INSERT INTO {LINKED}.{META_SCHEMA}.profiles VALUES (?, ?)", [table, json.dumps(profile)]
            )
    for table in skipped:
        conn.execute(f"DROP VIEW IF EXISTS {LINKED}.main.{quote_ident(table)}")
        tables.pop(table, None)
    return skipped


def _as_loaded(source: Source, profile: dict[str, Any]) -> dict[str, Any]:
    """What a load's profile keeps beside the columns' stats (``catalog.store_profile``): the file's own
    names, and the unit written beside each amount read as a number (``%``, ``$``), for the answers."""
    if source.get("columns"):
        profile = {**profile, "original_names": {s: o for o, s in source.get("columns").items()}}
    units = {c: a["unit"] for c, a in (source.get("amounts") or {}).items() if a.get("unit")}
    if units:
        columns = [{**c, "unit": units[c["name"]]} if c["name"] in units else c for c in profile["columns"]]
        profile = {**profile, "units": units, "columns": columns}
    return profile


def _profile(conn: duckdb.DuckDBPyConnection, table: str) -> dict[str, Any] | str:
    """The table's profile, or why it cannot have one (one line)."""
    with time_bound(conn, PROFILE_LIMIT_S) as bound:
        try:
            return cast("dict[str, Any]", to_jsonable(compute_profile(conn, table)))
        except duckdb.Error as exc:
            if bound.expired:
                return (
                    f"reading it took longer than {PROFILE_LIMIT_S:g} s (a view over far more rows than a "
                    "table holds?); leave it out with the source's tables list"
                )
            reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
            return f"it cannot be read ({reason})"


def forget_profiles(name: str, *, folder: Path | None = None) -> bool:
    """Drop a source's cached profiles (the next open recomputes them)."""
    path = (folder or cache_dir()) / f"{name}.json"
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        return True
    return False


def _read(folder: Path, source: Source, key: str) -> dict[str, Any]:
    try:
        document = json.loads((folder / f"{source.name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(document, dict) or document.get("fingerprint") != key:
        return {}
    profiles = document.get("profiles")
    return profiles if isinstance(profiles, dict) else {}


def _write(folder: Path, source: Source, key: str, profiles: dict[str, Any]) -> None:
    """Best effort: a cache that cannot be written only costs a rescan next time."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".profiles-", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"fingerprint": key, "profiles": profiles}, fh)
        os.replace(tmp, folder / f"{source.name}.json")
    except OSError:
        pass
