"""The one registry: every tool by name, and the tool payloads every client reads.

``openai_tools()``, ``bedrock_tool_config()`` and ``mcp_tools()`` are rendered from the definitions the
pydantic models that validate arguments are built from (a tool's ``json_schema``: the model's own schema,
or the same schema rendered from the same specs without pydantic, pinned equal by tests), so what the model
is told and what is checked cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from analytics_agent.errors import ToolDefinitionError
from analytics_agent.tools.args.schema import strict_schema
from analytics_agent.tools.base import Tool
from analytics_agent.tools.deferred import DeferredTool
from analytics_agent.tools.results.shaping import ROWS_SCHEMA
from analytics_agent.tools.sqlfile.parse import TOOL_NAME_RE

# Every tool only reads a sandboxed, read-only connection: no side effects, nothing outside the database.
MCP_ANNOTATIONS = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}


class Registry:
    def __init__(self, tools: Iterable[Tool]) -> None:
        self._tools: dict[str, Tool] = {}
        self._schemas: dict[str, dict[str, Any]] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        if not TOOL_NAME_RE.match(tool.name):
            raise ToolDefinitionError(f"tool name {tool.name!r} must match ^[a-zA-Z0-9_-]{{1,64}}$")
        if tool.name in self._tools:
            raise ToolDefinitionError(
                f"two tools are named {tool.name!r}; rename one",
                path=getattr(getattr(tool, "spec", None), "path", None),
            )
        if not tool.description.strip():
            raise ToolDefinitionError(f"tool {tool.name!r} needs a description")
        self._tools[tool.name] = tool

    def build_deferred(self) -> None:
        """Build every tool left for first use now, while the connection it reads is open (a registry that
        outlives its connection, as a live workspace's does, must not build later)."""
        for tool in self._tools.values():
            if isinstance(tool, DeferredTool):
                tool.resolve()

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def schema(self, name: str) -> dict[str, Any]:
        """The tool's clean JSON Schema, rendered on first use and kept."""
        if name not in self._schemas:
            self._schemas[name] = self._tools[name].json_schema()
        return self._schemas[name]

    def openai_tools(self, *, strict: bool = False) -> list[dict[str, Any]]:
        tools = []
        for tool in self:
            function: dict[str, Any] = {"name": tool.name, "description": tool.description}
            schema = self.schema(tool.name)
            function["parameters"] = strict_schema(schema) if strict else schema
            if strict:
                function["strict"] = True
            tools.append({"type": "function", "function": function})
        return tools

    def bedrock_tool_config(self) -> dict[str, Any]:
        return {
            "tools": [
                {
                    "toolSpec": {
                        "name": t.name,
                        "description": t.description,
                        "inputSchema": {"json": self.schema(t.name)},
                    }
                }
                for t in self
            ],
            "toolChoice": {"auto": {}},
        }

    def mcp_tools(self) -> list[dict[str, Any]]:
        """MCP ``tools/list`` entries in wire form: the same input schema, read-only hints, and the table
        envelope as output schema for tools that answer in rows (their result carries it as
        ``structuredContent``)."""
        tools = []
        for tool in self:
            entry: dict[str, Any] = {
                "name": tool.name,
                "description": tool.description,
                "inputSchema": self.schema(tool.name),
                "annotations": dict(MCP_ANNOTATIONS),
            }
            if tool.returns == "rows":
                entry["outputSchema"] = ROWS_SCHEMA
            tools.append(entry)
        return tools
