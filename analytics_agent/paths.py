"""Per-user folders (XDG on Linux, the usual places elsewhere) and the default database file."""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
