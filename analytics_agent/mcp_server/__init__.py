"""The MCP front door: the workspace's tools, tables and guidance for any MCP client.

Thin by design: ``server`` wires a ``LiveWorkspace`` (registry + executor over short-lived read-only
connections) to the SDK's low-level server, ``render`` maps our values to MCP results, ``notify`` tells
clients about changes, ``transports`` runs Streamable HTTP (and stdio for the missing-database server).
On stdio, ``front`` answers the handshake and the tool list itself (``wire``: the same bytes) and loads
the SDK only for the first message it does not answer. Needs the ``mcp`` extra.

Importing this package loads nothing of the SDK: the names below load their module on first use.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["MCP_PATH", "build_server", "serve_http", "serve_stdio"]
_HOMES = {
    "build_server": "server",
    "MCP_PATH": "transports",
    "serve_http": "transports",
    "serve_stdio": "transports",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOMES[name]}"), name)
