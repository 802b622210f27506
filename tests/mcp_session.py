"""What an MCP client sends a fresh stdio server before it can list the tools: the handshake and one
``tools/list``, as the server's standard input. Shared by the tests that start a real server process."""

from __future__ import annotations

import json

FIRST_TOOL_LIST = [
    {"jsonrpc": "2.0", "id": 0, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
]  # fmt: skip
FIRST_TOOL_LIST_STDIN = "".join(json.dumps(message) + "\n" for message in FIRST_TOOL_LIST)
