"""Open the database: a sandboxed read-only connection for tools, a plain one for writes.

DuckDB refuses two connections to one file with different configurations in one process, so write work
(first-use seeding, loading) happens on a connection that is closed before the sandbox opens.
``read_only=True`` alone still lets SQL read and write local files; the sandbox also turns external
access off and locks the configuration, so a query cannot ``SET`` its way back out.

External access off still leaves DuckDB's own files on its allow-list (the database, its WAL, its temp
folder), so ``read_blob('<the database>')`` would return the raw bytes, rows of dropped tables included.
The sandbox therefore also disables DuckDB's local file system once the database is open: every file
reader (``read_blob``, ``read_csv``, ``glob``, ``ATTACH``, a ``FROM 'file'`` scan...) then fails, while the
tables, read through the handle already open, still work. Spilling to disk is off too (no temp folder), so
a query larger than the memory limit fails instead of writing temp files.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import duckdb

from analytics_agent.errors import DatabaseError

DEFAULT_MEMORY_LIMIT = "1GB"
DEFAULT_THREADS = 2


def open_sandbox(
    path: Path, *, memory_limit: str = DEFAULT_MEMORY_LIMIT, threads: int = DEFAULT_THREADS
) -> duckdb.DuckDBPyConnection:
    """A read-only connection that cannot touch any file (its own included) or the network, nor change its
    own settings."""
    config = {
        "enable_external_access": False,
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
        "memory_limit": memory_limit,
        "threads": threads,
        "temp_directory": "",  # no spill files: nothing on disk but the database itself
    }
    try:
        conn = duckdb.connect(str(path), read_only=True, config=config)
    except duckdb.Error as exc:
        raise DatabaseError(_explain_open_failure(path, exc)) from None
    try:
        _close_file_system(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn


def _close_file_system(conn: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Disable the local file system, lock the configuration, then prove the database file is unreadable.

    The file system can only be disabled after the database is open (DuckDB refuses it at start-up), and
    only before the lock. A second sandbox on the same file in this process shares the first one's
    already-locked instance; the proof covers that case too.
    """
    locked = conn.execute("SELECT current_setting('lock_configuration')").fetchone()[0]
    if not locked:
        conn.execute("SET disabled_filesystems = 'LocalFileSystem'")
        conn.execute("SET lock_configuration = true")
    try:
        conn.execute("SELECT count(*) FROM glob(?)", [str(path)]).fetchall()
    except duckdb.PermissionException:
        return
    raise DatabaseError(f"cannot open {path} safely: the sandbox could still read files; not continuing")


@contextlib.contextmanager
def open_writer(path: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = duckdb.connect(str(path))
    except (duckdb.Error, OSError) as exc:
        raise DatabaseError(_explain_open_failure(path, exc)) from None
    try:
        yield conn
    finally:
        conn.close()


def ensure_database(path: Path) -> bool:
    """Create the database with the sample data on first use. Returns True if it was created.

    Built in a temporary file beside the target and renamed into place, so a crash or a second process
    never leaves a half-seeded database behind.
    """
    if path.exists():
        return False
    from analytics_agent.db.seed import seed_sample_data

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=".seeding-", suffix=".duckdb", dir=path.parent)
    except OSError as exc:
        raise DatabaseError(
            f"cannot create the database in {path.parent}: {exc.strerror}; choose another place with --db"
        ) from None
    os.close(fd)
    tmp = Path(tmp_name)
    tmp.unlink()  # DuckDB wants to create the file itself
    try:
        with open_writer(tmp) as conn:
            seed_sample_data(conn)
            conn.execute("CHECKPOINT")
        if path.exists():  # another process won the race; keep theirs
            return False
        os.replace(tmp, path)
        return True
    finally:
        for leftover in (tmp, tmp.with_name(tmp.name + ".wal")):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()


def _explain_open_failure(path: Path, exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if "lock" in text.lower():
        return (
            f"the database {path} is in use by another analytics-agent process (a load or chat); "
            "wait for it to finish or use another --db"
        )
    if isinstance(exc, OSError):
        return f"cannot open the database {path}: {exc.strerror or text}"
    if "not a valid DuckDB database" in text or "Corrupt" in text or "invalid" in text.lower():
        return f"{path} is not a DuckDB database this version can read; point --db at another file"
    return f"cannot open the database {path}: {text}"
