"""The MCP server answers each signed-in reader as the access policy lets them see: tools, resources,
the guidance prompt and every error name only their tables and columns. The principal is set with
``acting_as`` around the SDK's in-memory client, as the HTTP edge sets it around each request."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from mcp import Client

from analytics_agent.team.principal import Principal, acting_as
from tests.workspace.access_fixtures import SALES_TABLES, SALES_TOOLS, build_shop, build_template, leaks

pytestmark = pytest.mark.anyio
ANN = Principal("ann", groups=("sales",))
TABLE_URI = "analytics-agent://tables/"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_template(tmp_path_factory.mktemp("mcp-access"))


@pytest.fixture
def shop(template: Path, tmp_path: Path) -> tuple[Path, Path]:
    return build_shop(template, tmp_path)


async def _refusal(client: Client, uri: str) -> str:
    with pytest.raises(Exception) as caught:  # the SDK raises the server's JSON-RPC error as MCPError
        await client.read_resource(uri)
    return str(caught.value)


async def test_a_reader_lists_and_calls_only_their_tools_over_mcp(shop, make_server):
    db, tools = shop
    _, server = make_server(db, tool_dirs=[tools], allow_sql=True)
    with acting_as(ANN):
        async with Client(server) as client:
            listed = (await client.list_tools()).tools
            hidden = await client.call_tool("aggregate", {"table": "employees", "metrics": [{"fn": "count"}]})
            absent = await client.call_tool("aggregate", {"table": "zmployees", "metrics": [{"fn": "count"}]})
            sql = await client.call_tool("run_sql", {"query": "SELECT * FROM duckdb_tables()"})
            tool = await client.call_tool("reps_per_title", {})
    assert {t.name for t in listed} == SALES_TOOLS
    assert leaks(json.dumps([t.model_dump(mode="json") for t in listed])) == []
    told = [
        r.content[0].text.replace(name, "<name>")
        for r, name in ((hidden, "employees"), (absent, "zmployees"))
    ]
    assert hidden.is_error and told[0] == told[1] and leaks(told[0]) == []
    assert sql.is_error and leaks(sql.content[0].text) == []
    assert tool.is_error and "unknown tool" in tool.content[0].text
    assert leaks(tool.content[0].text.replace("reps_per_title", "")) == []


async def test_resources_and_the_guidance_name_only_the_readers_tables(shop, make_server):
    db, _ = shop
    _, server = make_server(db)
    with acting_as(ANN):
        async with Client(server) as client:
            uris = [str(r.uri) for r in (await client.list_resources()).resources]
            listing = await client.read_resource("analytics-agent://tables")
            customers = await client.read_resource(TABLE_URI + "customers")
            hidden = await _refusal(client, TABLE_URI + "employees")
            absent = await _refusal(client, TABLE_URI + "zmployees")
            guidance = await client.get_prompt("analytics", {"question": "Who sells most?"})
    assert uris == ["analytics-agent://tables"] + [TABLE_URI + t for t in SALES_TABLES]
    assert [row[0] for row in json.loads(listing.contents[0].text)["rows"]] == SALES_TABLES
    assert leaks(customers.contents[0].text) == [] and "segment" in customers.contents[0].text
    assert hidden.replace("employees", "<name>") == absent.replace("zmployees", "<name>")
    assert "orders" in hidden and leaks(hidden) == ["employees"]  # the asked name only, as for any name
    text = guidance.messages[0].content.text
    assert "orders (2,000 rows" in text and leaks(text) == []


async def test_the_local_user_still_sees_every_table_beside_a_policy(shop, make_server):
    db, _ = shop
    _, server = make_server(db)
    async with Client(server) as client:  # no sign-in: stdio, or a test without acting_as
        uris = [str(r.uri) for r in (await client.list_resources()).resources]
        guidance = await client.get_prompt("analytics", {"question": "Who sells most?"})
    assert TABLE_URI + "employees" in uris and len(uris) == 13
    assert "employees (40 rows" in guidance.messages[0].content.text
