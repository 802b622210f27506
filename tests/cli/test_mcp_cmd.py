"""``analytics-agent mcp`` at the edges: without the extra it says how to install it; a busy port is one line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

# Runs the command as the console script does, with the SDK made unimportable (as without the extra).
WITHOUT_SDK = """
import sys
from pathlib import Path
sys.modules["mcp"] = None
sys.argv = ["analytics-agent", *sys.argv[1:]]
from analytics_agent.cli.app import main
main()
"""


def test_without_the_extra_the_command_says_how_to_install_it(sample_db):
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_SDK, "--db", str(sample_db), "mcp"],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ),
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert (
        done.stderr.strip() == "error: the mcp command needs the MCP SDK: pip install 'analytics-agent[mcp]'"
    )


def test_a_busy_port_is_one_line_naming_the_flag(sample_db):
    pytest.importorskip("mcp")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        serve_http = ["mcp", "--http", "--port", str(port)]
        done = subprocess.run(
            [sys.executable, "-m", "analytics_agent", "--db", str(sample_db), *serve_http],
            capture_output=True,
            text=True,
            timeout=600,
            env=dict(os.environ),
        )
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: cannot serve on 127.0.0.1:{port}: ")
    assert done.stderr.strip().endswith("choose another --port") and "Traceback" not in done.stderr


def _serve_stdio(*args: str, cwd) -> subprocess.CompletedProcess:
    """``analytics-agent ... mcp`` in its own process with this checkout's code, stdin closed (a server
    that did start would stop at once)."""
    root = str(Path(__file__).resolve().parents[2])
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": root},
    )


def test_a_broken_access_policy_stops_the_server_with_its_file_and_line(sample_db, tmp_path):
    pytest.importorskip("mcp")
    (tmp_path / "team.yaml").write_text("groups:\n  ops:\n    tabels: [orders]\n", encoding="utf-8")
    named = _serve_stdio("--db", str(sample_db), "mcp", "--access", "team.yaml", cwd=tmp_path)
    assert named.returncode == 2 and "Traceback" not in named.stderr
    assert named.stderr.strip().splitlines()[-1] == (
        "error: team.yaml:3: groups.ops: unknown key 'tabels'; did you mean 'tables'?; keys: tables, "
        "sources, hidden_columns, run_sql"
    )
    beside = sample_db.with_name("access.yaml")  # the default: access.yaml beside the database
    beside.write_text("groups: [ops]\n", encoding="utf-8")
    default = _serve_stdio("--db", str(sample_db), "mcp", cwd=tmp_path)
    assert default.returncode == 2
    assert default.stderr.strip().splitlines()[-1] == f"error: {beside}:1: groups: expected a mapping"
    missing = _serve_stdio("--db", str(sample_db), "mcp", "--access", "nope.yaml", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines()[-1].startswith("error: nope.yaml: no such file")


def test_an_access_policy_over_http_without_sign_in_is_refused(sample_db, tmp_path):
    """Without sign-in every HTTP client is the owner: a policy there would limit no one, silently."""
    pytest.importorskip("mcp")
    beside = sample_db.with_name("access.yaml")
    beside.write_text("groups:\n  sales:\n    tables: [orders]\n", encoding="utf-8")
    served = _serve_stdio("--db", str(sample_db), "mcp", "--http", "--port", "8765", cwd=tmp_path)
    assert served.returncode == 2 and "Traceback" not in served.stderr
    assert served.stderr.strip().splitlines()[-1] == (
        f"error: {beside} limits who reads what, but without sign-in every HTTP client is the owner and sees "
        "everything: add --auth users (or --auth oidc)"
    )
