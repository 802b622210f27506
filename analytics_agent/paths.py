"""Per-user folders (XDG on Linux, the usual places elsewhere) and the default database file."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from pathlib import Path
from typing import IO

APP = "analytics-agent"
DB_ENV = "ANALYTICS_AGENT_DB"


def _base(xdg_var: str, linux_default: str, mac_default: str) -> Path:
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / mac_default
    value = os.environ.get(xdg_var)
    return Path(value) if value and Path(value).is_absolute() else Path.home() / linux_default


def data_dir() -> Path:
    return _base("XDG_DATA_HOME", ".local/share", "Library/Application Support") / APP


def config_dir() -> Path:
    return _base("XDG_CONFIG_HOME", ".config", "Library/Application Support") / APP


def config_path() -> Path:
    return config_dir() / "config.toml"


def builtin_db_path() -> Path:
    """The default database: the only one created with the sample data (besides the demo's)."""
    return data_dir() / "analytics.duckdb"


def demo_db_path() -> Path:
    """Where ``demo`` runs when no --db is given: its own copy of the sample data."""
    return data_dir() / "demo.duckdb"


def default_db_path() -> Path:
    value = os.environ.get(DB_ENV)
    return Path(value).expanduser() if value else builtin_db_path()


def open_private_log(path: Path) -> IO[str]:
    """``path`` opened for appending text, readable by its owner only (0600; its new folders 0700).

    Transcripts and crash logs hold questions, answers and data: not for other users of the machine.
    A file that already exists and belongs to us is tightened to 0600 too. Lone surrogates (from a
    reply that slipped past every check) are written escaped instead of failing the write.

    Raises:
        OSError: the folder or the file cannot be created or opened.
    """
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    refuse_symlink(path)
    # O_NONBLOCK: opening a FIFO for writing must fail at once rather than wait for a reader
    flags = (
        os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    )
    try:
        fd = os.open(path, flags, 0o600)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):
            raise _not_regular(path) from None
        raise
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode) and not _is_null_device(status):
            raise _not_regular(path)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        if hasattr(os, "fchmod") and stat.S_ISREG(status.st_mode) and status.st_uid == os.getuid():
            os.fchmod(fd, 0o600)  # a regular file of ours only: never a device such as /dev/null
        return os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace")
    except BaseException:
        os.close(fd)
        raise


def _is_null_device(status: os.stat_result) -> bool:
    # /dev/null is the one special file a log may go to on purpose (to switch it off)
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(status.st_mode) and (status.st_dev, status.st_ino) == (null.st_dev, null.st_ino)


def _not_regular(path: Path) -> OSError:
    return OSError(errno.EINVAL, f"{path} is not a regular file (a pipe, device or link); choose a file path")


def refuse_symlink(path: Path) -> None:
    """Refuse a symbolic link at ``path``: someone may have planted it to make us write elsewhere.

    Raises:
        OSError: ``path`` is a symbolic link (strerror says so in one line).
    """
    if path.is_symlink():
        raise OSError(errno.ELOOP, f"{path} is a symbolic link; remove it or write to another path")


def write_file(path: Path, data: str | bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``path`` whole or not at all, never through a symbolic link.

    The bytes go to a temporary file in the same folder, which is then renamed over ``path``: a reader
    never sees half a file, and a link planted at ``path`` is refused, never followed. ``private`` makes
    the file 0600; otherwise it keeps an existing file's mode, or gets the usual mode for a new file.

    Raises:
        OSError: ``path`` is a symbolic link or not a regular file, or the write fails.
    """
    import tempfile

    refuse_symlink(path)
    try:
        existing: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise _not_regular(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        if private:
            mode = 0o600
        elif existing is not None:
            mode = stat.S_IMODE(existing.st_mode)
        else:
            mode = 0o666 & ~_umask()
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current
