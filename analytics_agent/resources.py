"""Where the bundled ``sql/`` tools, ``seeds/`` data and ``evals/`` question sets live, installed or in a
checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _bundled(name: str) -> Path:
    installed = _PACKAGE / "_data" / name  # the wheel carries them here
    return installed if installed.is_dir() else _PACKAGE.parent / name


def sql_dir() -> Path:
    return _bundled("sql")


def seeds_dir() -> Path:
    return _bundled("seeds")


def evals_dir() -> Path:
    return _bundled("evals")
