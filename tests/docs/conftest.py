"""The docs examples' inventory, printed after every run that collected tests/docs."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_blocks import inventory

ROOT = Path(__file__).resolve().parents[2]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    counts = inventory([ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
    terminalreporter.write_line(
        f"docs examples: {counts['output']} output checked, {counts['exit code']} exit code only, "
        f"{counts['illustration']} illustration (marked in the page)"
    )
