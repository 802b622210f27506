"""``aa.connect(url)``: a team server's tools from Python as a signed-in user (our app under a real
uvicorn with personal tokens; the loopback stand-in model for ``ask``)."""

from __future__ import annotations

import pytest

pytest.importorskip("mcp")

import anyio
from example_model import ExampleModel
from signed_in import serving, team_app

import analytics_agent as aa
from analytics_agent.errors import ConfigError, ToolError

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def team(sample_db):
    app, port, alice, seen, close = team_app(sample_db)
    yield app, port, alice, seen
    close()


async def test_call_and_ask_run_on_the_server_as_the_signed_in_user(team, monkeypatch):
    app, port, alice, seen = team
    monkeypatch.setenv("ANALYTICS_AGENT_TOKEN", alice)

    def use(url: str):
        with aa.connect(url) as ts, ExampleModel() as model:
            summary = ts.call("sales_summary", {"city": "Pune", "day": "2026-10-24"})
            with pytest.raises(ToolError, match="city"):
                ts.call("sales_summary", {"city": "Atlantis", "day": "2026-10-24"})
            answer = ts.ask("How did Pune do on 2026-10-24?", model="stand-in", base_url=model.url)
            return summary, answer, ts.tools()

    async with serving(app, port) as url:
        summary, answer, tools = await anyio.to_thread.run_sync(use, f"{url}/mcp")
    assert summary.value["orders"] == 3 and summary.value["revenue"] == 4798
    assert answer.text == "Pune had 3 orders and ₹4,798 revenue on 24 Oct 2026."
    assert answer.unverified_numbers == [] and [c.name for c in answer.calls] == ["sales_summary"]
    assert "sales_summary" in tools
    calls = [p.name for m, p in seen.handlers if m == "tools/call"]
    assert calls == ["alice", "alice", "alice"]


async def test_no_token_or_a_refused_one_is_a_config_error_with_the_reason(team, monkeypatch):
    app, port, _, seen = team
    monkeypatch.delenv("ANALYTICS_AGENT_TOKEN", raising=False)
    async with serving(app, port) as url:
        with pytest.raises(ConfigError, match="connect\\(\\) needs a token: token=, token_file="):
            await anyio.to_thread.run_sync(aa.connect, f"{url}/mcp")
        with pytest.raises(ConfigError, match="refused the token: unknown or revoked personal token"):
            await anyio.to_thread.run_sync(lambda: aa.connect(f"{url}/mcp", token="aat_wrong"))
        alice = team[2]
        with pytest.raises(ConfigError, match="answered 404 Not Found: give the team server's MCP address"):
            await anyio.to_thread.run_sync(lambda: aa.connect(url, token=alice))
    assert seen.handlers == []
