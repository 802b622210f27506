"""The MCP server answers each signed-in reader as the access policy lets them see: tools, resources,
the guidance prompt and every error name only their tables and columns. In memory, a server middleware
inside the sign-in one runs each handler ``acting_as`` the reader, as the HTTP edge does for a verified
token; the last test signs in for real over HTTP."""

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


class ActAs:
    """An SDK server middleware: every handler runs as ``principal`` (placed inside ``ActAsSignedIn``)."""

    def __init__(self, principal: Principal) -> None:
        self.principal = principal

    async def __call__(self, ctx, call_next):
        with acting_as(self.principal):
            return await call_next(ctx)


def _as_reader(server, principal: Principal = ANN):
    server.middleware.append(ActAs(principal))
    return server


async def _refusal(client: Client, uri: str) -> str:
    with pytest.raises(Exception) as caught:  # the SDK raises the server's JSON-RPC error as MCPError
        await client.read_resource(uri)
    return str(caught.value)


async def test_a_reader_lists_and_calls_only_their_tools_over_mcp(shop, make_server):
    db, tools = shop
    _, server = make_server(db, tool_dirs=[tools], allow_sql=True)
    async with Client(_as_reader(server)) as client:
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
    async with Client(_as_reader(server)) as client:
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


async def test_signed_in_users_over_http_see_what_the_policy_grants_their_groups(shop):
    """End to end: personal tokens at the real HTTP edge set the principal; the policy beside the database
    shows alice (group sales) her five tables and bob (in no group it names) none."""
    from signed_in import serving, team_app, token_client

    from analytics_agent.team.users import add_user, users_file

    db, _ = shop
    app, port, alice_token, _, close = team_app(db)
    bob_token = add_user(users_file(db), "bob")
    try:
        async with serving(app, port) as url:
            async with token_client(url, alice_token) as alice:
                alice_tables = await alice.call_tool("list_tables", {})
                alice_uris = [str(r.uri) for r in (await alice.list_resources()).resources]
                probe = await alice.call_tool("describe_table", {"table": "employees"})
            async with token_client(url, bob_token) as bob:
                bob_tables = await bob.call_tool("list_tables", {})
    finally:
        close()
    assert [row[0] for row in json.loads(alice_tables.content[0].text)["rows"]] == SALES_TABLES
    assert alice_uris == ["analytics-agent://tables"] + [TABLE_URI + t for t in SALES_TABLES]
    assert probe.is_error and leaks(probe.content[0].text.replace("employees", "")) == []
    assert json.loads(bob_tables.content[0].text)["rows"] == []
