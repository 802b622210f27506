"""Load the DuckDB extensions a source needs, from a ``duckdb-extension-<name>`` wheel when one is
installed for this DuckDB version (``pip install "analytics-agent[lake]"``), else from DuckDB's own
extension repository (which needs the network).

Extensions are installed into our own folder, not the user's ``~/.duckdb``, and only while the connection
is still open for set-up; the sandbox turns autoloading off, so a query can never pull one in.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import duckdb

from analytics_agent.errors import SourceError

LAKE_EXTRA = 'pip install "analytics-agent[lake]"'


def wheel_file(name: str, version: str | None = None) -> Path | None:
    """The extension file a ``duckdb-extension-<name>`` wheel ships for this DuckDB, if any."""
    spec = importlib.util.find_spec(f"duckdb_extension_{name}")
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations)))
    candidate = base / "extensions" / f"v{version or duckdb.__version__}" / f"{name}.duckdb_extension"
    return candidate if candidate.is_file() else None


def load_extension(conn: duckdb.DuckDBPyConnection, name: str) -> str:
    """Install (if needed) and load one extension; returns where it came from. One clear line if missing."""
    if _loaded(conn, name):
        return "already loaded"
    local = wheel_file(name)
    try:
        if local is not None:
            _install_from_wheel(conn, name, local)
            origin = f"wheel duckdb-extension-{name}"
        else:
            conn.execute(f"INSTALL {name}")
            origin = "DuckDB's extension repository"
        conn.execute(f"LOAD {name}")
    except duckdb.Error as exc:
        raise SourceError(
            f"the DuckDB extension {name!r} is not available (DuckDB {duckdb.__version__}): "
            f"{_first_line(exc)}; install it with {LAKE_EXTRA} (wheels exist for DuckDB 1.5.5), or let DuckDB "
            "download it"
        ) from None
    return origin


def _install_from_wheel(conn: duckdb.DuckDBPyConnection, name: str, local: Path) -> None:
    """Copy the wheel's extension into the connection's extension folder. The wheel is there, so a failure
    is the folder's (a read-only data folder in a container): said as such, not as a missing extra."""
    try:
        conn.execute(f"INSTALL '{_sql_text(str(local))}'")
    except duckdb.IOException as exc:
        row = conn.execute("SELECT current_setting('extension_directory')").fetchone()
        folder = row[0] if row else "the extension folder"
        raise SourceError(
            f"the DuckDB extension {name!r} cannot be installed into {folder}: {_first_line(exc)}; the data "
            "folder must be writable (set XDG_DATA_HOME to a writable folder; a cache: it may start empty)"
        ) from None


def _loaded(conn: duckdb.DuckDBPyConnection, name: str) -> bool:
    aliases = {"postgres": "postgres_scanner", "sqlite": "sqlite_scanner"}
    row = conn.execute(
        "SELECT bool_or(loaded) FROM duckdb_extensions() WHERE extension_name IN (?, ?)",
        [name, aliases.get(name, name)],
    ).fetchone()
    return bool(row and row[0])


def _sql_text(text: str) -> str:
    return text.replace("'", "''")


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
