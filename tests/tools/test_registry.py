"""One registry, two payloads: OpenAI tools and Bedrock toolConfig from the same pydantic models."""

from __future__ import annotations

import json
import re

import boto3
import bpe_openai
import pytest
from botocore.stub import Stubber
from json_nodes import json_dicts

NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
O200K = bpe_openai.get_encoding("o200k_base")


def test_there_are_at_least_twelve_domain_tools_plus_the_catalog_tools(workspace):
    names = workspace.registry.names
    assert {"list_tables", "describe_table", "sales_summary", "get_order"} <= set(names)
    assert len(set(names) - {"list_tables", "describe_table", "aggregate", "run_sql"}) >= 12


def test_openai_payload_has_the_documented_shape_and_clean_schemas(workspace):
    tools = workspace.registry.openai_tools()
    assert len(tools) == len(workspace.registry)
    for tool in tools:
        assert set(tool) == {"type", "function"} and tool["type"] == "function"
        function = tool["function"]
        assert set(function) == {"name", "description", "parameters"}
        assert NAME.match(function["name"]) and function["description"].strip()
        schema = function["parameters"]
        assert schema["type"] == "object" and "additionalProperties" not in schema
        for node in json_dicts(schema):
            assert not {"$ref", "$defs", "definitions", "title", "$schema"} & set(node)
        if hasattr(workspace.registry.get(function["name"]), "spec"):  # the .sql header demands it
            for prop in schema["properties"].values():
                assert prop.get("description"), "every parameter of a SQL tool is described"


def test_enums_come_from_the_data(workspace):
    cur = workspace.cursor()
    cities = [r[0] for r in cur.execute("SELECT DISTINCT city FROM orders ORDER BY 1").fetchall()]
    schema = workspace.registry.schema("sales_summary")
    assert schema["properties"]["city"]["enum"] == cities
    assert schema["properties"]["day"] == {
        "type": "string",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",  # not format: date, which Gemini rejects
        "description": schema["properties"]["day"]["description"],
    }


def test_strict_payload_requires_everything_and_has_no_defaults(workspace):
    for tool in workspace.registry.openai_tools(strict=True):
        function = tool["function"]
        assert function["strict"] is True
        schema = function["parameters"]
        for node in json_dicts(schema):
            assert "default" not in node
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert sorted(node.get("required", [])) == sorted(node.get("properties", {}))


def test_bedrock_tool_config_passes_botocores_own_validation(workspace):
    """Stubber runs botocore's parameter validation against the bedrock-runtime service model."""
    config = workspace.registry.bedrock_tool_config()
    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="AKIAFAKE",
        aws_secret_access_key="fake-secret",
    )
    request = {
        "modelId": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        "messages": [{"role": "user", "content": [{"text": "How did Pune do on 24 Oct?"}]}],
        "toolConfig": config,
    }
    response = {
        "output": {"message": {"role": "assistant", "content": [{"text": "ok"}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 1},
    }
    with Stubber(client) as stubber:
        stubber.add_response("converse", response, request)
        assert client.converse(**request)["stopReason"] == "end_turn"
        stubber.assert_no_pending_responses()


def test_bedrock_tool_config_follows_the_rules_botocore_does_not_check(workspace):
    config = workspace.registry.bedrock_tool_config()
    assert config["toolChoice"] == {"auto": {}}
    for entry in config["tools"]:
        assert set(entry) == {"toolSpec"}
        spec = entry["toolSpec"]
        assert NAME.match(spec["name"]) and len(spec["description"]) >= 1
        schema = spec["inputSchema"]["json"]
        assert schema["type"] == "object"
        assert not any({"$ref", "$defs", "definitions"} & set(node) for node in json_dicts(schema))
        for node in json_dicts(schema):
            assert not ("enum" in node and not node["enum"]), "an empty enum accepts nothing"


def test_the_whole_tool_set_fits_in_1800_o200k_tokens(workspace):
    for payload in (workspace.registry.openai_tools(), workspace.registry.bedrock_tool_config()):
        text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
        assert len(O200K.encode(text)) <= 1800  # issue 34: the spec set's bound


def test_revenue_is_defined_wherever_it_is_mentioned(workspace):
    for tool in workspace.registry:
        text = tool.description.lower()
        if "revenue" in text and "not for revenue" not in text:
            assert "cancelled" in text and "returned" in text, tool.name


def test_two_tools_with_one_name_are_refused(workspace):
    from analytics_agent.errors import ToolDefinitionError

    with pytest.raises(ToolDefinitionError, match="two tools are named 'sales_summary'"):
        workspace.registry.add(workspace.registry.get("sales_summary"))


def test_mcp_payload_is_the_same_schema_with_read_only_hints(workspace):
    registry = workspace.registry
    openai = {t["function"]["name"]: t["function"]["parameters"] for t in registry.openai_tools()}
    tools = registry.mcp_tools()
    assert [t["name"] for t in tools] == registry.names
    for tool in tools:
        assert tool["inputSchema"] == openai[tool["name"]] and tool["inputSchema"]["type"] == "object"
        assert tool["annotations"]["readOnlyHint"] is True
        assert (
            tool["annotations"]["destructiveHint"] is False and tool["annotations"]["openWorldHint"] is False
        )
    with_output = {t["name"] for t in tools if "outputSchema" in t}
    # tools that answer in rows declare the table envelope; one-answer objects (their keys vary) do not
    assert {"city_ranking", "aggregate", "list_tables"} <= with_output
    assert not {"sales_summary", "get_order", "describe_table"} & with_output


def test_every_rows_answer_fits_the_declared_output_schema(workspace):
    from analytics_agent.tools.results.shaping import ROWS_SCHEMA

    jsonschema = pytest.importorskip("jsonschema")
    calls = {
        "city_ranking": {"period": "2026-01-01..2026-10-31"},
        "list_tables": {},
        "aggregate": {"table": "orders", "metrics": [{"fn": "count"}], "group_by": ["customer_id"]},  # cut
    }
    for name, arguments in calls.items():
        answer = json.loads(workspace.executor.execute(name, arguments).text)
        jsonschema.validate(answer, ROWS_SCHEMA)
    assert answer["truncated"] is True  # the cut envelope fits too
