"""Our values as MCP results: tool list, tool results, table resources, the guidance prompt. Pure.

Tool results carry the exact text ``tools call`` prints (the bounded JSON a model reads, or ``Error: …``
with the field or tool named) and, for tools that answer in rows, the same JSON as ``structuredContent``
matching the tool's declared output schema. A failure is a result with ``isError``, never a protocol
error: a protocol error is something the model cannot read and act on.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from analytics_agent.tools.executor import ToolOutcome
from analytics_agent.tools.registry import Registry

URI_PREFIX = "analytics-agent://"
TABLES_URI = URI_PREFIX + "tables"
TABLE_URI_TEMPLATE = TABLES_URI + "/{table}"
JSON_MIME = "application/json"
PROMPT_NAME = "analytics"


def list_tools_result(registry: Registry) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool.model_validate(t) for t in registry.mcp_tools()])


def call_result(outcome: ToolOutcome, *, structured: bool) -> types.CallToolResult:
    """``structured``: the tool declares an output schema, so a successful result must carry its JSON."""
    content: list[types.ContentBlock] = [types.TextContent(text=outcome.text)]
    if outcome.is_error or not structured:
        return types.CallToolResult(content=content, is_error=outcome.is_error)
    return types.CallToolResult(content=content, structured_content=json.loads(outcome.text))


def table_uri(table: str) -> str:
    return f"{TABLES_URI}/{table}"


def table_from_uri(uri: str) -> str | None:
    """The table a profile URI names, or None when the URI is not one of ours."""
    prefix = TABLES_URI + "/"
    return uri[len(prefix) :] if uri.startswith(prefix) and len(uri) > len(prefix) else None


def resources_result(tables: list[str]) -> types.ListResourcesResult:
    listing = types.Resource(
        name="tables",
        uri=TABLES_URI,
        description="Every table with its row and column counts.",
        mime_type=JSON_MIME,
    )
    profiles = [
        types.Resource(
            name=f"{table} profile",
            uri=table_uri(table),
            description=f"Columns of {table}: type, nulls, min/max, and the values of text columns with few.",
            mime_type=JSON_MIME,
        )
        for table in tables
    ]
    return types.ListResourcesResult(resources=[listing, *profiles])


def resource_templates_result() -> types.ListResourceTemplatesResult:
    template = types.ResourceTemplate(
        name="table profile",
        uri_template=TABLE_URI_TEMPLATE,
        description="One table's columns: type, nulls, min/max, and the values of text columns with few.",
        mime_type=JSON_MIME,
    )
    return types.ListResourceTemplatesResult(resource_templates=[template])


def resource_result(uri: str, text: str) -> types.ReadResourceResult:
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=JSON_MIME, text=text)]
    )


def prompts_result() -> types.ListPromptsResult:
    prompt = types.Prompt(
        name=PROMPT_NAME,
        description="How to answer business questions from this database with these tools: today's date, "
        "the tables and their date spans, and the rules that keep numbers honest.",
        arguments=[
            types.PromptArgument(name="question", description="The question to answer.", required=False)
        ],
    )
    return types.ListPromptsResult(prompts=[prompt])


def prompt_result(guidance: str, arguments: dict[str, Any] | None) -> types.GetPromptResult:
    question = str((arguments or {}).get("question") or "").strip()
    text = f"{guidance}\n\nQuestion: {question}" if question else guidance
    return types.GetPromptResult(
        description="analytics-agent's guidance for answering with the tools",
        messages=[types.PromptMessage(role="user", content=types.TextContent(text=text))],
    )
