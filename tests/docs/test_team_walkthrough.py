"""docs/team-server.md's walk-through, run end to end as a new admin would: every block of its first section,
in order, in a fresh folder, as real processes.

The files (```` ```yaml title="access.yaml" ````) are written; each shell command runs in bash with this
checkout's code; the ``mcp --http`` command starts the server in the background (on a free port, put in
place of the page's everywhere) and the commands after it run while it serves; the Python blocks run in
their own interpreter. Every ``# ...`` line right under a command or a statement is shown output and must
appear in what it printed (spacing ignored, ``...`` matches anything); the server's shown lines are checked
against what it printed on starting. The general docs test (test_examples.py) runs the same page without a
server, so there the server's command, the Python that needs it and the audit of its calls are marked as
illustrations; here they run.
"""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("mcp")

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "team-server.md"
SECTION = "## From nothing to two users"
PAGE_PORT = "8765"


@dataclass
class Step:
    kind: str  # "file", "shell" or "python"
    code: str
    line: int
    shown: list[str] = field(default_factory=list)


def walkthrough(text: str) -> list[Step]:
    """The steps of the page's first section, in order."""
    start = text.index(SECTION)
    end = text.find("\n## ", start + 1)
    lines = text[start : end if end > 0 else None].splitlines()
    first = text[:start].count("\n") + 1
    steps: list[Step] = []
    i = 0
    while i < len(lines):
        opening = re.match(r"^```(\w+)(.*)$", lines[i])
        i += 1
        if not opening:
            continue
        language, rest = opening.groups()
        body_line = first + i
        body = []
        while not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        title = re.search(r'title="([^"]+)"', rest)
        if title:
            steps.append(Step("file", "\n".join(body) + "\n", body_line, [title.group(1)]))
        elif language == "bash":
            steps += _commands(body, body_line)
        elif language == "python":
            steps.append(Step("python", "\n".join(body), body_line, _shown(body)))
    return steps


def _commands(body: list[str], line: int) -> list[Step]:
    steps: list[Step] = []
    after_command = False
    for offset, text in enumerate(body):
        stripped = text.strip()
        if stripped.startswith("#"):
            if after_command:
                steps[-1].shown.append(stripped[1:].strip())
        elif stripped:
            steps.append(Step("shell", stripped, line + offset))
            after_command = True
        else:
            after_command = False
    return steps


def _shown(body: list[str]) -> list[str]:
    shown, after_statement = [], False
    for text in body:
        stripped = text.strip()
        if stripped.startswith("#"):
            if after_statement:
                shown.append(stripped[1:].strip())
        else:
            after_statement = bool(stripped)
    return shown


def missing(shown: list[str], printed: str) -> list[str]:
    """The shown lines that do not appear in ``printed``, spacing ignored, ``...`` matching anything."""
    flat = [" ".join(line.split()) for line in printed.splitlines()]
    out = []
    for line in shown:
        if line.startswith("illustration"):
            continue
        pattern = ".*".join(re.escape(part) for part in " ".join(line.split()).split("..."))
        if not any(re.search(pattern, candidate) for candidate in flat):
            out.append(line)
    return out


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),  # this checkout's code, wherever the venv's editable install points
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_COLOR": "1",
    }


def _serve(command: str, folder: Path) -> tuple[subprocess.Popen[str], Path]:
    log = folder / "server.log"
    argv = shlex.split(command)
    argv[0] = str(Path(sys.executable).with_name("analytics-agent"))
    with log.open("w") as out:  # the server writes to its own copy of the descriptor
        server = subprocess.Popen(
            argv, cwd=folder, env=_env(), stdout=out, stderr=subprocess.STDOUT, text=True
        )
    port = re.search(r"--port (\d+)", command)
    assert port, f"{command}: the walk-through's server command names its --port"
    import httpx

    deadline = time.monotonic() + 120  # a safety net for a server that never starts, not a measurement
    while True:
        assert server.poll() is None, f"the server stopped: {log.read_text()[-1000:]}"
        try:
            if httpx.get(f"http://127.0.0.1:{port.group(1)}/readyz", timeout=2).status_code == 200:
                return server, log
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, f"the server did not get ready: {log.read_text()[-1000:]}"
        time.sleep(0.2)


def _run(step: Step, folder: Path) -> str:
    argv = [sys.executable, "-c", step.code] if step.kind == "python" else ["bash", "-c", step.code]
    done = subprocess.run(argv, cwd=folder, env=_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{PAGE.name}:{step.line}: {step.code[:80]}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def test_the_walkthrough_runs_as_printed(tmp_path):
    (tmp_path / "tests" / "data").mkdir(parents=True)
    (tmp_path / "tests" / "data" / "real").symlink_to(ROOT / "tests" / "data" / "real")
    port = str(free_port())
    steps = walkthrough(PAGE.read_text(encoding="utf-8").replace(PAGE_PORT, port))
    assert {s.kind for s in steps} == {"file", "shell", "python"}
    server = None
    try:
        for step in steps:
            if step.kind == "file":
                (tmp_path / step.shown[0]).write_text(step.code)
                continue
            if step.kind == "shell" and re.search(r"\bmcp\b.*--http", step.code):
                assert server is None, "one server in the walk-through"
                server, log = _serve(step.code, tmp_path)
                printed = log.read_text()
            else:
                printed = _run(step, tmp_path)
            assert not missing(step.shown, printed), (
                f"{PAGE.name}:{step.line}: shown output not printed: {missing(step.shown, printed)}\n{printed}"
            )
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=60)
    assert server is not None, "the walk-through starts a server"


def test_the_shown_output_check_can_fail():
    printed = "user  groups    created\nana   analysts  2026-12-06T20:13:51Z\n"
    assert missing(["ana analysts ..."], printed) == []
    assert missing(["ana planning ..."], printed) == ["ana planning ..."]
    assert missing(["raj ..."], printed) == ["raj ..."]
