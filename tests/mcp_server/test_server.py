"""The MCP server in memory, driven by the SDK's own client: the same tools and answers as the CLI."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("mcp")

import anyio
import jsonschema
import mcp_types as types
from bench.workload import domain_arguments, extra_arguments
from mcp import Client

pytestmark = pytest.mark.anyio
PUNE = {"city": "Pune", "day": "2026-10-24"}


def tools_call(cli_runner, db, name: str, arguments: dict) -> tuple[str, int]:
    """What ``analytics-agent tools call`` prints and its exit code, run in this process."""
    from analytics_agent.cli.app import app

    result = cli_runner.invoke(app, ["--db", str(db), "tools", "call", name, json.dumps(arguments)])
    return result.stdout.rstrip("\n"), result.exit_code


@pytest.fixture
def runner():
    from typer.testing import CliRunner

    return CliRunner()


async def test_the_tool_list_is_what_tools_list_prints_with_read_only_hints(sample_db, make_server, runner):
    from analytics_agent.cli.app import app

    _, server = make_server(sample_db)
    listed = json.loads(runner.invoke(app, ["--db", str(sample_db), "tools", "list", "--json"]).stdout)
    spec = json.loads(runner.invoke(app, ["--db", str(sample_db), "tools", "spec"]).stdout)
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
    assert [(t.name, t.description) for t in tools] == [(t["name"], t["description"]) for t in listed]
    # advertised exactly as the providers get it: the registry's schema, untouched by the SDK
    assert [t.input_schema for t in tools] == [s["function"]["parameters"] for s in spec]
    for tool in tools:
        hints = tool.annotations
        assert (hints.read_only_hint, hints.destructive_hint, hints.open_world_hint) == (True, False, False)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_every_domain_tool_and_aggregate_answer_what_tools_call_prints(
    sample_db, make_server, runner, mode
):
    live, server = make_server(sample_db)
    with live.use() as ws:
        cases = [(n, a) for n, a in domain_arguments(ws.cursor(), live.registry).items()]
    cases += [(n, a) for n, calls in extra_arguments().items() if n != "run_sql" for a in calls]
    assert len({n for n, _ in cases}) == len(live.registry)  # every tool is exercised
    async with Client(server, mode=mode) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        for name, arguments in cases:
            result = await client.call_tool(name, arguments)
            text, code = tools_call(runner, sample_db, name, arguments)
            assert (result.content[0].text, result.is_error) == (text, code != 0), name
            schema = listed[name].output_schema
            if schema is None:
                assert result.structured_content is None
            else:  # the table envelope, as JSON and as structured content that fits the declared schema
                assert result.structured_content == json.loads(text)
                jsonschema.validate(result.structured_content, schema)


async def test_the_reference_day_is_answered_exactly(sample_db, make_server):
    _, server = make_server(sample_db)
    async with Client(server) as client:
        result = await client.call_tool("sales_summary", PUNE)
    assert not result.is_error
    assert json.loads(result.content[0].text) == {
        "city": "Pune",
        "day": "2026-10-24",
        "orders": 3,
        "by_status": {"cancelled": 1, "delivered": 1, "in_transit": 1},
        "revenue": 4798,
    }


@pytest.mark.parametrize(
    ("name", "arguments", "named"),
    [
        ("sales_summary", {"city": "Pune", "day": "24 Oct 2026"}, "day"),
        ("sales_summary", {"day": "2026-10-24"}, "city"),
        ("sales_summary", {"city": "Puna", "day": "2026-10-24"}, "Pune"),  # the enum offers the real name
        ("no_such_tool", {}, "sales_summary"),  # the real names
        ("broken_cast", {"city": "Pune"}, "broken_cast could not run"),
    ],
)
async def test_failures_are_tool_results_with_is_error_naming_what_to_fix(
    sample_db, make_server, user_tools, runner, name, arguments, named
):
    _, server = make_server(sample_db, tool_dirs=[user_tools])
    async with Client(server) as client:
        result = await client.call_tool(name, arguments)
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("Error: ") and named in text
    assert "\n" not in text and "Traceback" not in text


async def test_run_sql_is_offered_only_with_allow_sql(sample_db, make_server):
    query = {"query": "SELECT count(*) AS n FROM orders WHERE city = 'Pune'"}
    _, plain = make_server(sample_db)
    async with Client(plain) as client:
        assert "run_sql" not in [t.name for t in (await client.list_tools()).tools]
        assert (await client.call_tool("run_sql", query)).is_error
    live, allowed = make_server(sample_db, allow_sql=True)
    with live.use() as ws:
        expected = ws.cursor().execute(query["query"]).fetchone()[0]
    async with Client(allowed) as client:
        assert "run_sql" in [t.name for t in (await client.list_tools()).tools]
        result = await client.call_tool("run_sql", query)
        refused = await client.call_tool("run_sql", {"query": "DROP TABLE orders"})
    assert result.structured_content["rows"] == [[expected]]
    assert refused.is_error and "SELECT" in refused.content[0].text


async def test_user_sql_tools_appear_and_answer(sample_db, make_server, user_tools):
    live, server = make_server(sample_db, tool_dirs=[user_tools])
    with live.use() as ws:
        expected = ws.cursor().execute("SELECT count(*) FROM orders WHERE city = 'Pune'").fetchone()[0]
    async with Client(server) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        result = await client.call_tool("orders_in_city", {"city": "Pune"})
    assert {"orders_in_city", "broken_cast"} <= set(names)
    assert json.loads(result.content[0].text) == {"city": "Pune", "orders": expected}


async def test_tables_and_profiles_are_resources_with_the_tools_json(sample_db, make_server):
    live, server = make_server(sample_db)
    profile = live.execute("describe_table", {"table": "orders"}).text
    async with Client(server) as client:
        uris = [str(r.uri) for r in (await client.list_resources()).resources]
        read = await client.read_resource("analytics-agent://tables/orders")
        listing = await client.read_resource("analytics-agent://tables")
        templates = (await client.list_resource_templates()).resource_templates
        with pytest.raises(Exception, match="no_such_table"):
            await client.read_resource("analytics-agent://tables/no_such_table")
    assert uris == ["analytics-agent://tables"] + [f"analytics-agent://tables/{t}" for t in live.tables]
    assert read.contents[0].text == profile
    assert json.loads(read.contents[0].text)["rows"] == 42000
    assert [row[0] for row in json.loads(listing.contents[0].text)["rows"]] == live.tables
    assert templates[0].uri_template == "analytics-agent://tables/{table}"


async def test_the_guidance_is_a_prompt_with_the_tables_and_the_question(sample_db, make_server):
    _, server = make_server(sample_db)
    async with Client(server) as client:
        prompts = (await client.list_prompts()).prompts
        got = await client.get_prompt("analytics", {"question": "How did Pune do on 24 Oct 2026?"})
    assert [p.name for p in prompts] == ["analytics"]
    text = got.messages[0].content.text
    assert got.messages[0].role == "user"
    assert "orders (42,000 rows, day 2026-01-01..2026-10-31)" in text
    assert "never guess" in text and text.endswith("Question: How did Pune do on 24 Oct 2026?")
    assert "charts your last tool result" not in text  # Claude or Cursor draws no chart of it


async def test_capabilities_announce_tool_and_resource_list_changes(sample_db, make_server):
    _, server = make_server(sample_db)
    async with Client(server, mode="legacy") as client:
        caps, instructions = client.server_capabilities, client.instructions
    assert caps.tools.list_changed and caps.resources.list_changed
    assert "aggregate-first" in instructions and "YYYY-MM-DD" in instructions


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_a_load_from_another_process_reaches_the_tool_list(
    sample_db, make_server, cli, regions_csv, mode
):
    _, server = make_server(sample_db)
    changed, tables_changed = anyio.Event(), anyio.Event()

    async def on_message(message) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()
        if isinstance(message, types.ResourceListChangedNotification):
            tables_changed.set()

    async with Client(server, mode=mode, message_handler=on_message) as client:
        await client.call_tool("sales_summary", PUNE)  # the connection is open now; the load waits for it
        before = {t.name: t for t in (await client.list_tools()).tools}
        assert "regions" not in before["describe_table"].input_schema["properties"]["table"]["enum"]
        if mode == "auto":  # 2026-07-28: change events only on a subscriptions/listen stream
            async with client.listen(tools_list_changed=True) as events:
                loaded = await anyio.to_thread.run_sync(_load, cli, sample_db, regions_csv)
                with anyio.fail_after(15):
                    async for event in events:
                        assert type(event).__name__ == "ToolsListChanged"
                        break
        else:
            loaded = await anyio.to_thread.run_sync(_load, cli, sample_db, regions_csv)
            with anyio.fail_after(15):
                await changed.wait()
                await tables_changed.wait()  # a new table is a new profile resource
        after = {t.name: t for t in (await client.list_tools(cache_mode="refresh")).tools}
        answer = await client.call_tool("describe_table", {"table": "regions"})
    assert loaded.returncode == 0, loaded.stderr
    assert "regions" in after["describe_table"].input_schema["properties"]["table"]["enum"]
    assert json.loads(answer.content[0].text)["rows"] == 2


def _load(cli, db, csv):
    return cli("--db", str(db), "load", str(csv), "--table", "regions")
