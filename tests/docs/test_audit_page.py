"""docs/audit.md states the limits the code applies: each number on the page is read from its constant."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("mcp")

from analytics_agent.mcp_server.gate import BURST, PER_CLIENT, QUEUED_PER_CLIENT, RATE, WAIT_S
from analytics_agent.mcp_server.lifecycle import DEFAULT_GRACE_S
from analytics_agent.team.audit import DEFAULT_BACKUPS, DEFAULT_MAX_BYTES, MAX_LINE_BYTES
from analytics_agent.team.scrub import MAX_DEPTH, MAX_ITEMS, MAX_TEXT
from analytics_agent.tools.executor import DEFAULT_TIMEOUT_S

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "audit.md").read_text(encoding="utf-8")


def test_the_page_s_limits_are_the_code_s():
    stated = [
        f"| calls running at once, per user | {PER_CLIENT} |",
        f"| calls running or waiting, per user | {QUEUED_PER_CLIENT} |",
        f"| rate, per signed-in user | {RATE:g} calls a second on average, {BURST} at once |",
        f"| waiting for a turn and a worker | {WAIT_S:g} s |",
        f"waited {WAIT_S:g} s for a free worker",
        f"| one query's time | {DEFAULT_TIMEOUT_S:g} s |",
        f"up to {DEFAULT_GRACE_S:g} s to finish",
        f"past {DEFAULT_MAX_BYTES // 1024 // 1024} MB",
        f"`.2` … `.{DEFAULT_BACKUPS}`",
        f"pass {MAX_LINE_BYTES // 1024} kB",
        f"cut at {MAX_TEXT:,} characters",
        f"at {MAX_ITEMS}\n  items and {MAX_DEPTH} levels",
    ]
    assert [s for s in stated if s not in PAGE] == []
