"""``analytics-agent mcp`` at the edges: without the extra it says how to install it; a busy port is one line."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

# Runs the command as the console script does, with the SDK made unimportable (as without the extra).
WITHOUT_SDK = """
import sys
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
