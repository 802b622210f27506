"""Run the real CLI as a child process and measure it: wall time and the child's own peak RSS.

The peak comes from ``os.wait4``'s resource usage for that one child (``ru_maxrss``, KiB on Linux). Linux
starts a new program's peak at the peak of the process it was spawned from, so a CLI spawned straight from
a pytest worker that has grown to 1.3 GB reports 1.3 GB whatever it used: the CLI is spawned by a small
launcher instead, which reports the CLI's own peak. A child still running at ``timeout`` is killed (with
the launcher) and the run reports ``timed_out``.
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
# argv: the file for the peak (KiB), then the command. Exits as the command did (a signal is raised again).
_LAUNCHER = """
import os, signal, sys
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ)
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


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
        peak_file = Path(tempfile.mkdtemp()) / "peak"
        started = time.monotonic()
        child = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER, str(peak_file), *CLI, *args],
            stdin=inp, stdout=out, stderr=err, env=env, cwd=cwd, start_new_session=True,
        )  # fmt: skip
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            os.killpg(child.pid, signal.SIGKILL)  # the launcher and the CLI it started

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        peak_kib = int(peak_file.read_text()) if peak_file.exists() else usage.ru_maxrss
        out.seek(0)
        err.seek(0)
        return Run(
            returncode=child.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
            seconds=seconds,
            peak_rss_bytes=peak_kib * 1024,
            timed_out=killed.is_set(),
        )
