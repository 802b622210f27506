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
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb

from analytics_agent.db.catalog import SEARCH_PATH
from analytics_agent.db.rows import first_row
from analytics_agent.errors import DatabaseError

DEFAULT_MEMORY_LIMIT = "1GB"
# error paths only: compiled on first use (re's cache)
_DUCKDB_ERROR_KIND = r"^[A-Za-z ]*Error: "  # "IO Error: ", "Error: "
_NEWER_FORMAT = r"database file with version number \d+, but we can only read"
DEFAULT_THREADS = 2
# How long a writer waits for readers to let go of the file. A long-running reader (the MCP server) closes
# its connection within a couple of seconds of its last call, so a `load` from another terminal gets in.
WRITER_LOCK_WAIT_S = 10.0
# Every file we create or write is stored in the format of the oldest DuckDB we support (pyproject: duckdb>=1.3),
# so the DuckDB of the lake extra (pinned older than the default one) still reads databases made before it was
# installed. DuckDB keeps a file's format once created; only files we create are affected. Not older than
# v1.3.0: v1.1.0 lacks 1.3's dictionary FSST for strings, and writing a table in it cost a load 22-29 % more
# CPU than DuckDB's default format (1M orders 1.84 against 1.39 s, files 40 % larger on wide text).
STORAGE_VERSION = "v1.3.0"


def open_sandbox(
    path: Path,
    *,
    memory_limit: str = DEFAULT_MEMORY_LIMIT,
    threads: int = DEFAULT_THREADS,
    lock_wait_s: float = 0.0,
    set_up: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
) -> duckdb.DuckDBPyConnection:
    """A read-only connection that cannot touch files or the network, nor change its own settings.

    Without sources it reads no file at all, its own included (``_close_file_system``).
    ``lock_wait_s``: how long to wait while another process writes the file (0: fail at once).
    ``set_up`` (attaching linked sources) runs while the connection can still reach outside; it must end
    by locking the connection down itself (``linked.link.lock_down``); the sources' folders stay readable
    to their views, so ``run_sql`` refuses file readers in the statement itself.
    """
    config: dict[str, object] = {
        "enable_external_access": set_up is not None,
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
        "memory_limit": memory_limit,
        "threads": threads,
        "lock_configuration": False,  # locked below, once the file system is closed or the sources linked
    }
    if set_up is not None:
        config["extension_directory"] = str(extension_dir())
    else:
        config["temp_directory"] = ""  # no spill files: nothing on disk but the database itself
    try:
        conn = _connect_waiting(path, lock_wait_s, read_only=True, config=config)
    except duckdb.Error as exc:
        raise DatabaseError(_explain_open_failure(path, exc)) from None
    try:
        # DuckDB draws its progress bar on stdout for a statement past 2 s (a local setting: cursors made
        # later copy it): a linked view's first profile wrote it into `tables --json`
        with contextlib.suppress(duckdb.Error):  # Jupyter without ipywidgets refuses any change
            conn.execute("SET enable_progress_bar = false")
        _refuse_shadowing_macros(conn, path)
        if set_up is None:
            _close_file_system(conn, path)
            return conn
        set_up(conn)
    except BaseException:
        conn.close()
        raise
    if not _locked(conn):  # never hand out an open connection, whatever set_up did
        conn.close()
        raise DatabaseError("internal: the sandbox was not locked after attaching sources")
    return LinkedConnection(conn)  # type: ignore[return-value]  # a proxy: the connection plus search path


def _refuse_shadowing_macros(conn: duckdb.DuckDBPyConnection, path: Path) -> None:
    """A database someone sent may define a macro named like a built-in function (``CREATE MACRO sum(x)
    AS 42``): DuckDB then calls it instead of its own, and every sum the tools return is wrong without a
    sign. Such a database is refused, in one line naming the macro and how to remove it."""
    # each scan of duckdb_functions() lists DuckDB's ~3,000 own functions (10-18 ms of CPU, a tenth of a
    # `tools call`), so the built-ins are listed only when the database has functions of its own
    own = conn.execute(
        "SELECT DISTINCT function_name FROM duckdb_functions() WHERE NOT internal "
        "AND database_name = current_database()"
    ).fetchall()
    if not own:
        return
    rows = conn.execute(
        "SELECT DISTINCT function_name FROM duckdb_functions() WHERE internal AND function_name IN "
        "(SELECT unnest(?)) ORDER BY 1",
        [[r[0] for r in own]],
    ).fetchall()
    if rows:
        names = ", ".join(str(r[0]) for r in rows[:5]) + (
            f" (and {len(rows) - 5} more)" if len(rows) > 5 else ""
        )
        raise DatabaseError(
            f"the database {path} defines {names} as its own macro, in place of DuckDB's function of that "
            f"name: answers would be wrong; remove it (DROP MACRO {rows[0][0]}) or use another database"
        )


def _close_file_system(conn: duckdb.DuckDBPyConnection, path: Path) -> None:
    """Disable the local file system, lock the configuration, then prove the database file is unreadable.

    The file system can only be disabled after the database is open (DuckDB refuses it at start-up), and
    only before the lock. A second sandbox on the same file in this process shares the first one's
    already-locked instance; the proof covers that case too.
    """
    locked = first_row(conn.execute("SELECT current_setting('lock_configuration')"))[0]
    if not locked:
        conn.execute("SET disabled_filesystems = 'LocalFileSystem'")
        conn.execute("SET lock_configuration = true")
    try:
        conn.execute("SELECT count(*) FROM glob(?)", [str(path)]).fetchall()
    except duckdb.PermissionException:
        return
    raise DatabaseError(f"cannot open {path} safely: the sandbox could still read files; not continuing")


class LinkedConnection:
    """The sandbox with linked sources: every cursor also searches the ``linked`` catalog, since DuckDB
    gives each cursor its own search path. Everything else is the wrapped connection's."""

    def __init__(self, conn: duckdb.DuckDBPyConnection) -> None:
        self._conn = conn
        conn.execute(f"SET search_path = '{SEARCH_PATH}'")

    def cursor(self) -> duckdb.DuckDBPyConnection:
        cur = self._conn.cursor()
        cur.execute(f"SET search_path = '{SEARCH_PATH}'")
        return cur

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)


def extension_dir() -> Path:
    """Our own folder for DuckDB extensions (never the user's ~/.duckdb)."""
    from analytics_agent.paths import data_dir

    return data_dir() / "duckdb-extensions"


def _locked(conn: duckdb.DuckDBPyConnection) -> bool:
    row = conn.execute(
        "SELECT bool_and(value = 'false') FILTER (WHERE name = 'enable_external_access') AND "
        "bool_and(value = 'true') FILTER (WHERE name = 'lock_configuration') FROM duckdb_settings()"
    ).fetchone()
    return bool(row and row[0])


@contextlib.contextmanager
def open_writer(path: Path, *, threads: int | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """The writing connection. ``threads``: DuckDB's worker threads (None: its default, one per core)."""
    config: dict[str, object] = {"storage_compatibility_version": STORAGE_VERSION}
    if threads is not None:
        config["threads"] = threads
    try:
        conn = _connect_waiting(path, WRITER_LOCK_WAIT_S, config=config)
    except (duckdb.Error, OSError) as exc:
        raise DatabaseError(_explain_open_failure(path, exc)) from None
    try:
        # DuckDB draws its own progress bar on stdout for a statement past 2 s: `load big.csv > out.txt`
        # wrote it into the output (we draw ours on stderr, from query_progress, at a terminal only)
        with contextlib.suppress(duckdb.Error):  # in Jupyter without ipywidgets DuckDB refuses any change
            conn.execute("SET enable_progress_bar_print = false")  # and draws no text bar there anyway
        yield conn
    finally:
        conn.close()


def _connect_waiting(path: Path, wait_s: float, **kwargs: Any) -> duckdb.DuckDBPyConnection:
    """``duckdb.connect``, retried while another process holds a conflicting lock, for up to ``wait_s``."""
    refuse_special_file(path)
    wal = path.with_name(path.name + ".wal")
    if wal.is_symlink():
        # DuckDB would write its log through the link, wherever someone pointed it
        raise DatabaseError(f"{wal} is a symbolic link; remove it, then open {path.name} again")
    # DuckDB 2 opens a CSV or Parquet file given as the database as a new in-memory database: a load
    # "into" it would report rows stored and keep none. The file's first bytes say what it is.
    foreign = _not_duckdb(path) if path.is_file() else None
    if foreign is not None:
        raise DatabaseError(foreign)
    deadline = time.monotonic() + wait_s
    while True:
        try:
            return duckdb.connect(str(path), **kwargs)
        except duckdb.IOException as exc:
            if not is_lock_conflict(exc) or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def refuse_special_file(path: Path) -> None:
    """A database is a regular file (through links): opening a FIFO blocks until someone writes to it,
    which held ``tables``, ``load`` and ``mcp`` forever; a device or a socket is no database either.
    ``stat`` does not open the file, so this check cannot block."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return  # missing or unreadable: DuckDB creates it or says why
    if not stat.S_ISREG(mode):
        kind = "a named pipe (FIFO)" if stat.S_ISFIFO(mode) else "a device, socket or other special file"
        raise DatabaseError(f"{path} is {kind}, not a database file; point --db at a DuckDB file")


def is_new_database(path: Path, *, sample_data: bool) -> bool:
    """Whether ``path`` names no file yet (a database to create), after the checks every creation needs:
    not a folder, not a special file, and, unless it is the default database's (``sample_data``), a
    folder that exists."""
    if path.is_dir():
        raise DatabaseError(f"{path} is a folder; --db takes a database file path")
    if path.exists():
        refuse_special_file(path)
        return False
    if not sample_data and not path.parent.is_dir():
        raise DatabaseError(
            f"no folder {path.parent} for the database {path.name}; create the folder first or fix --db"
        )
    return True


def holds_tables(path: Path) -> bool:
    """Whether the database file holds any table, in any schema (False when it cannot be opened)."""
    try:
        with duckdb.connect(str(path), read_only=True) as conn:
            return bool(first_row(conn.execute("SELECT count(*) FROM duckdb_tables()"))[0])
    except duckdb.Error:
        return False


def ensure_database(path: Path, *, sample_data: bool) -> bool:
    """Create the database on first use: empty, or with the sample data (``sample_data``, for the default
    database and the demo). Returns True if it was created.

    Only the default database's folder is made here; a missing folder in a path the user gave is a
    mistyped path, not a request for new folders. Built in a temporary file beside the target and renamed
    into place, so a crash or a second process never leaves a half-built database behind.
    """
    if not is_new_database(path, sample_data=sample_data):
        return False
    from analytics_agent.db.seed import seed_sample_data

    try:
        if sample_data:
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
            if sample_data:
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


def is_lock_conflict(exc: BaseException) -> bool:
    """Another process holds the file. Matched on DuckDB's own words: a corrupt *block* also says "lock"."""
    text = str(exc)
    return "Could not set lock on file" in text or "Conflicting lock" in text


# Every DuckDB database file has these bytes at offset 8 (after the header block's checksum).
_DUCKDB_MAGIC = b"DUCK"
_DATA_FILE = r"(?i)\.(csv|tsv|txt|parquet|pq)(\.(gz|zst|zstd))?$|\.zip$"
"""A data file's name (compiled on the error path only, not by every process that opens a database)."""


def _not_duckdb(path: Path) -> str | None:
    """What to do with a file that is not a DuckDB database (no magic bytes), or None when it is one or
    cannot be read: a data file is named with the command that loads it (DuckDB's own error for a CSV
    passed as --db is a catalog error about in-memory databases)."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return None
    if not head or (len(head) == 12 and head[8:12] == _DUCKDB_MAGIC):
        return None  # a DuckDB file, or an empty one (DuckDB starts a database in it)
    if re.search(_DATA_FILE, path.name):
        import shlex  # the error path only

        return (
            f"{path} is not a DuckDB database; to load it: analytics-agent --db new.duckdb load "
            f"{shlex.quote(str(path))}"
        )
    return f"{path} is not a DuckDB database; point --db at a DuckDB file (or a new name to create one)"


def _explain_open_failure(path: Path, exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if is_lock_conflict(exc):
        return (
            f"the database {path} is in use by another analytics-agent process (a load or chat); "
            "wait for it to finish or use another --db"
        )
    if isinstance(exc, OSError):
        return f"cannot open the database {path}: {exc.strerror or text}"
    if re.search(_NEWER_FORMAT, text):
        return (
            f"the database {path} was written by a newer DuckDB than the installed {duckdb.__version__}; "
            'upgrade DuckDB (pip install -U duckdb), or reinstall analytics-agent without the "lake" extra'
        )
    if "corrupt" in text.lower() or "checksum" in text.lower():
        return (
            f"the database {path} is corrupt ({re.sub(_DUCKDB_ERROR_KIND, '', text)}); restore it from a backup, or move "
            "it aside and run again to start over with the sample data (then load your files again)"
        )
    if "not a valid DuckDB database" in text or "invalid" in text.lower():
        return f"{path} is not a DuckDB database this version can read; point --db at another file"
    if not path.exists():  # a new database of a load's own that DuckDB could not create
        reason = re.sub(_DUCKDB_ERROR_KIND, "", text)
        return f"cannot create the database {path} ({reason}); choose another place with --db"
    return f"cannot open the database {path}: {text}"
