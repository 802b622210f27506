"""The MCP front door: the workspace's tools, tables and guidance for any MCP client.

Thin by design: ``server`` wires a ``LiveWorkspace`` (registry + executor over short-lived read-only
connections) to the SDK's low-level server, ``render`` maps our values to MCP results, ``notify`` tells
clients about changes, ``transports`` runs stdio or Streamable HTTP. Needs the ``mcp`` extra.
"""

from analytics_agent.mcp_server.server import build_server
from analytics_agent.mcp_server.transports import MCP_PATH, serve_http, serve_stdio

__all__ = ["MCP_PATH", "build_server", "serve_http", "serve_stdio"]
