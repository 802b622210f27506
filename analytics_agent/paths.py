"""Per-user folders (XDG on Linux, the usual places elsewhere) and the default database file."""

from __future__ import annotations

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
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        status = os.fstat(fd)
        if hasattr(os, "fchmod") and stat.S_ISREG(status.st_mode) and status.st_uid == os.getuid():
            os.fchmod(fd, 0o600)  # a regular file of ours only: never a device such as /dev/null
        return os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace")
    except BaseException:
        os.close(fd)
        raise
