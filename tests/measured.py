"""Run the real CLI as a child process and measure it: wall time and the child's own peak RSS.

The peak comes from ``os.wait4``'s resource usage for that one child (``ru_maxrss``, KiB on Linux), so
nothing else the test process ran can blur it. A child still running at ``timeout`` is killed and the
run reports ``timed_out``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

CLI = [sys.executable, "-m", "analytics_agent"]


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_bytes: int
    timed_out: bool


def run_cli(
    args: list[str],
    env: dict[str, str],
    *,
    timeout: float = 600.0,
    cwd: Path | None = None,
    stdin: str | None = None,
) -> Run:
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp:
        inp.write((stdin or "").encode())
        inp.seek(0)
        started = time.monotonic()
        child = subprocess.Popen([*CLI, *args], stdin=inp, stdout=out, stderr=err, env=env, cwd=cwd)
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            child.send_signal(signal.SIGKILL)

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Run(
            returncode=child.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            seconds=seconds,
            peak_rss_bytes=usage.ru_maxrss * 1024,
            timed_out=killed.is_set(),
        )
