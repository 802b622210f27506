"""``python -m tests.bench --quick``, as docs/performance.md prints it, can start every benchmark.

A full run takes minutes (tests/bench is not collected), so this checks what broke it before without
running it: every name the benchmarks import from the package, and every attribute they read or patch
on one of its modules (``bounds.MAX_PARALLEL_CALLS`` moved once, and ``--quick`` crashed), exists.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench"
FILES = sorted(BENCH.rglob("*.py"))


def _module(name: str) -> object | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(BENCH)))
def test_every_package_name_a_benchmark_uses_exists(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, object] = {}
    missing = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("analytics_agent"):
            source = importlib.import_module(node.module)
            for alias in node.names:
                sub = _module(f"{node.module}.{alias.name}")
                if sub is not None:
                    modules[alias.asname or alias.name] = sub
                elif not hasattr(source, alias.name):
                    missing.append(f"line {node.lineno}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("analytics_agent") and alias.asname:
                    modules[alias.asname] = importlib.import_module(alias.name)
    for node in ast.walk(tree):
        named = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if named and node.value.id in modules and not hasattr(modules[node.value.id], node.attr):  # type: ignore[attr-defined]
            missing.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    assert missing == []


def test_the_quick_option_is_accepted_and_names_every_benchmark() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench", "--quick", "--only", "nosuch"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode != 0 and "Traceback" not in done.stderr
    from tests.bench.run import NAMES

    assert all(name in done.stderr + done.stdout for name in NAMES)
