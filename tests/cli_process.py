"""Run the command line as a user does: a real process, its own environment, stdout and stderr apart."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_cli(
    args: list[str], *, cwd: Path, env: dict[str, str] | None = None, stdin: str | None = None
) -> subprocess.CompletedProcess:
    """``python -m analytics_agent ARGS`` with ``env`` added to (or, for None values, removed from) ours."""
    full = {**os.environ}
    for key, value in (env or {}).items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd, env=full, input=stdin, capture_output=True, text=True, timeout=90,
    )  # fmt: skip
