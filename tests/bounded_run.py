"""Run an attack in a child process whose memory is capped, so a regression fails the test (a
MemoryError, a killed child) instead of taking the machine down with it."""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap
from pathlib import Path

GIB = 1024**3


def run_capped(
    code: str,
    *,
    memory_bytes: int = 3 * GIB,
    cpu_seconds: int | None = None,
    cwd: Path | None = None,
    timeout: float = 300,
) -> subprocess.CompletedProcess:
    """``python -c code`` under an address-space cap (and, for work that must stay linear, a CPU-time
    budget many times what it needs, after which the kernel stops the child). ``timeout`` is only a
    safety net for a regression that hangs; the tests assert on what the child printed, never on how
    long it took."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        if cpu_seconds is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))

    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd, preexec_fn=cap, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
