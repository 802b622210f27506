"""A server for a database that is not there: it starts, and everything it answers says what to fix.

A client starts ``analytics-agent --db PATH mcp`` from its own config file. When PATH names no file (a
typo there), creating an empty database would make every question fail on "no tables", and stopping
at start shows the user only a red "failed" badge in the client, with the reason buried in its logs.
This server instead tells the client's model, in one line, on the tool list, on every tool call, on the
resource list and in its instructions: the file does not exist, and which path to fix.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError

from analytics_agent.mcp_server.render import JSON_MIME, TABLES_URI

STAND_IN_TOOL = "list_tables"
"""The tool offered in place of the real ones: the one a model calls first to see what there is."""


def build_missing_server(problem: str) -> Server[dict[str, Any]]:
    """A server whose every answer is ``problem`` (one line: the missing file and what to fix)."""
    tool = types.Tool(
        name=STAND_IN_TOOL,
        description=f"Unavailable: {problem}",
        input_schema={"type": "object", "properties": {}, "additionalProperties": True},
    )
    resource = types.Resource(
        name="tables", uri=TABLES_URI, description=f"Unavailable: {problem}", mime_type=JSON_MIME
    )

    async def list_tools(ctx: ServerRequestContext[Any], params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool])

    async def call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        return types.CallToolResult(content=[types.TextContent(text=f"Error: {problem}")], is_error=True)

    async def list_resources(ctx: ServerRequestContext[Any], params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[resource])

    async def read_resource(
        ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        raise MCPError(types.INVALID_PARAMS, problem)

    async def list_prompts(ctx: ServerRequestContext[Any], params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[])

    from analytics_agent.mcp_server.wire import server_version

    return Server(
        "analytics-agent",
        version=server_version(),
        instructions=f"analytics-agent cannot serve: {problem}",
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
    )
