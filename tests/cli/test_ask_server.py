"""``ask`` and ``chat`` with ``--server``: the model runs here (the loopback stand-in), the tools on a team
server (our app under a real uvicorn, personal tokens) as the token's user. The local database is never
opened: the numbers can only have come from the server."""

from __future__ import annotations

import io
import sys

import pytest

pytest.importorskip("mcp")

import anyio
from example_model import ExampleModel
from signed_in import serving, team_app

pytestmark = pytest.mark.anyio
PUNE_ANSWER = "Pune had 3 orders and ₹4,798 revenue on 24 Oct 2026."


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def team(sample_db):
    app, port, alice, seen, close = team_app(sample_db)
    yield app, port, alice, seen
    close()


def _run(capsys, monkeypatch, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    from analytics_agent.cli.app import main

    monkeypatch.setattr(sys, "argv", ["analytics-agent", *args])
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


async def test_ask_takes_its_tools_from_the_team_server_as_the_signed_in_user(
    team, tmp_path, capsys, monkeypatch
):
    app, port, alice, seen = team
    local = tmp_path / "nothing-here.duckdb"
    monkeypatch.setenv("ANALYTICS_AGENT_TOKEN", alice)
    with ExampleModel() as model:
        async with serving(app, port) as url:
            args = ["--db", str(local), "ask", "How did Pune do on 24 Oct 2026?", "--base-url", model.url]
            args += ["--model", "stand-in", "--server", f"{url}/mcp", "--no-stream"]
            code, out, err = await anyio.to_thread.run_sync(lambda: _run(capsys, monkeypatch, *args))
    assert code == 0, err
    assert PUNE_ANSWER in out
    calls = [(m, p.name, p.groups) for m, p in seen.handlers if m == "tools/call"]
    assert calls == [("tools/call", "alice", ("sales",))]
    assert {"tools/list", "prompts/get"} <= {m for m, _ in seen.handlers}  # its tools and its guidance
    assert not local.exists()  # the local database was never opened (nor created)
    assert alice not in out + err


async def test_chat_reads_the_token_from_a_file(team, tmp_path, capsys, monkeypatch):
    app, port, alice, seen = team
    token_file = tmp_path / "alice.token"
    token_file.write_text(alice + "\n")
    monkeypatch.delenv("ANALYTICS_AGENT_TOKEN", raising=False)
    with ExampleModel() as model:
        async with serving(app, port) as url:
            args = ["chat", "--base-url", model.url, "--model", "stand-in", "--no-stream"]
            args += ["--server", f"{url}/mcp", "--token-file", str(token_file)]
            code, out, err = await anyio.to_thread.run_sync(
                lambda: _run(capsys, monkeypatch, *args, stdin="How did Pune do on 24 Oct 2026?\n")
            )
    assert code == 0, err
    assert PUNE_ANSWER in out
    assert [p.name for m, p in seen.handlers if m == "tools/call"] == ["alice"]


async def test_a_refused_or_missing_token_is_one_line_and_no_model_is_called(team, capsys, monkeypatch):
    app, port, _, seen = team
    with ExampleModel() as model:
        async with serving(app, port) as url:
            base = [
                "ask",
                "How did Pune do?",
                "--base-url",
                model.url,
                "--model",
                "stand-in",
                "--server",
                f"{url}/mcp",
            ]
            monkeypatch.setenv("ANALYTICS_AGENT_TOKEN", "aat_stolen-or-mistyped")
            refused = await anyio.to_thread.run_sync(lambda: _run(capsys, monkeypatch, *base))
            monkeypatch.delenv("ANALYTICS_AGENT_TOKEN")
            missing = await anyio.to_thread.run_sync(lambda: _run(capsys, monkeypatch, *base))
        requests = model.requests
    assert refused[0] == 2 and refused[2].strip() == (
        f"error: the team server {url}/mcp refused the token: unknown or revoked personal token"
    )
    assert missing[0] == 2
    assert (
        missing[2].strip()
        == "error: --server needs a token: set ANALYTICS_AGENT_TOKEN or pass --token-file FILE"
    )
    assert "aat_stolen" not in refused[1] + refused[2]
    assert requests == 0 and seen.handlers == []
