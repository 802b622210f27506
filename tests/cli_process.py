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
        cwd=cwd, env=full, input=stdin, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def run_in_terminal(
    args: list[str], *, cwd: Path, env: dict[str, str] | None = None, columns: int = 80
) -> tuple[int, str]:
    """Run with stdout and stderr on a pseudo-terminal (as a user at a terminal sees it): (exit code, screen)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    full = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm", **(env or {})}
    full = {k: v for k, v in full.items() if v is not None}
    proc = subprocess.Popen(
        [sys.executable, "-m", "analytics_agent", *args],
        cwd=cwd, env=full, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
    )  # fmt: skip
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.wait(timeout=600), b"".join(chunks).decode("utf-8", "replace")


_ENTRY_SCRIPT = """
import json, sys
out, entry = sys.argv[1], sys.argv[2]
sys.argv = ["analytics-agent", *sys.argv[3:]]
if entry == "entry":
    from analytics_agent.cli.entry import main
else:
    from analytics_agent.cli.app import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
with open(out, "w") as fh:
    json.dump({"code": code, "typer": "typer" in sys.modules}, fh)
"""


def run_entry(entry: str, args: list[str], *, cwd: Path, env: dict[str, str]) -> tuple[dict, str, str]:
    """Run ``args`` through the console script's ``main`` (``entry``) or typer's app (``app``) in a child:
    ({"code": exit code, "typer": whether typer was imported}, stdout, stderr). The plain-line readers
    (``load``, ``tools call``) are held to say what typer says, byte for byte."""
    import json

    out = cwd / f"{entry}.json"
    done = subprocess.run(
        [sys.executable, "-c", _ENTRY_SCRIPT, str(out), entry, *args],
        cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    return json.loads(out.read_text()), done.stdout, done.stderr
