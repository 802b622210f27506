"""Shared helpers for the benchmarks: timing, memory, tables, results and the repository root."""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESULTS_DIR = ROOT / "tests" / "bench" / "results"


@dataclass
class Result:
    """One benchmark's outcome: its rows (for the table and the JSON), targets and notes."""

    name: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "columns": self.columns,
            "rows": self.rows,
            "summary": self.summary,
            "notes": self.notes,
        }


def median_time(fn: Callable[[], Any], *, runs: int, warmup: int = 1) -> float:
    """Median wall time of ``fn`` in seconds."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


@dataclass(frozen=True)
class Pair:
    """Medians of two alternating functions: wall time and process CPU time (all threads), in seconds."""

    first_wall: float
    second_wall: float
    first_cpu: float
    second_cpu: float
    runs: int


def interleaved(first: Callable[[], Any], second: Callable[[], Any], *, runs: int) -> Pair:
    """Run two functions alternately (the caller has warmed both up), so noise from other processes hits
    both alike. CPU time is reported too: on a shared machine it moves far less than wall time."""
    wall: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for i in range(runs):
        order = ((first, 0), (second, 1)) if i % 2 == 0 else ((second, 1), (first, 0))
        for fn, side in order:
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            wall[side].append(time.perf_counter() - w0)
            cpu[side].append(time.process_time() - c0)
    med = statistics.median
    return Pair(med(wall[0]), med(wall[1]), med(cpu[0]), med(cpu[1]), runs)


def proc_status_kib(key: str) -> int:
    """A ``/proc/self/status`` field in KiB (VmRSS: now, VmHWM: peak); 0 where /proc is missing."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def open_fds() -> int:
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return -1


def fmt_ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def print_table(result: Result) -> None:
    """A plain fixed-width table, then the summary and notes."""
    cells = [[_cell(v) for v in row] for row in result.rows]
    widths = [len(c) for c in result.columns]
    for row in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
    print(f"\n## {result.name}")
    print("  ".join(c.ljust(w) for c, w in zip(result.columns, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.rjust(w) if _numeric(c) else c.ljust(w) for c, w in zip(row, widths, strict=True)))
    for key, value in result.summary.items():
        print(f"{key}: {_cell(value)}")
    for note in result.notes:
        print(f"note: {note}")
    sys.stdout.flush()


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 10 else f"{value:,.1f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _numeric(text: str) -> bool:
    return bool(text) and text.replace(",", "").replace(".", "").replace("-", "").replace("x", "").isdigit()


def machine() -> dict[str, Any]:
    import duckdb

    return {
        "python": platform.python_version(),
        "duckdb": duckdb.__version__,
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def write_results(results: Sequence[Result], out: Path | None, *, args: dict[str, Any]) -> Path:
    """Write every result and the machine facts as one JSON file; returns its path."""
    if out is None:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        out = RESULTS_DIR / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = {"machine": machine(), "args": args, "results": [r.as_dict() for r in results]}
    out.write_text(json.dumps(payload, indent=2, default=str), encoding="utf-8")
    return out
