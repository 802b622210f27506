"""``analytics-agent mcp --http --auth users`` as a small team runs it: two users added by the real command,
the server in its own process, the SDK's client with each token, and a removal that takes effect on the
running server. And the start-up mistakes, each a one-line error before anything serves."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import anyio
import httpx
from signed_in import free_port, token_client

from tests.loopback import wait_listening

pytestmark = pytest.mark.anyio
ROOT = Path(__file__).resolve().parents[2]
PUNE = {"city": "Pune", "day": "2026-10-24"}


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )


async def test_two_users_sign_in_with_their_tokens_and_a_removed_one_is_refused_at_once(sample_db, tmp_path):
    db = ["--db", str(sample_db)]
    added = [_cli(*db, "users", "add", "alice", "--group", "sales"), _cli(*db, "users", "add", "bob")]
    assert [a.returncode for a in added] == [0, 0], [a.stderr for a in added]
    alice, bob = (a.stdout.strip() for a in added)
    port, err = free_port(), tmp_path / "stderr.txt"
    with err.open("w") as stderr:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "analytics_agent",
                *db,
                "mcp",
                "--http",
                "--port",
                str(port),
                "--auth",
                "users",
            ],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=_env(),
        )
        try:
            await anyio.to_thread.run_sync(wait_listening, port, proc)
            url = f"http://127.0.0.1:{port}"
            answers = []
            for token in (alice, bob):
                async with token_client(url, token) as client:
                    answers.append(await client.call_tool("sales_summary", PUNE))
            removed = await anyio.to_thread.run_sync(lambda: _cli(*db, "users", "remove", "bob"))
            async with httpx.AsyncClient(timeout=30) as http:
                after = {
                    name: await http.post(f"{url}/mcp", json={}, headers={"Authorization": f"Bearer {token}"})
                    for name, token in (("alice", alice), ("bob", bob))
                }
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    assert [json.loads(a.content[0].text)["orders"] for a in answers] == [3, 3]
    assert removed.returncode == 0, removed.stderr
    assert after["bob"].status_code == 401
    assert after["bob"].json()["error_description"] == "unknown or revoked personal token"
    assert after["alice"].status_code != 401  # still signed in (the empty body is the protocol's problem)
    logged = err.read_text()
    assert alice not in logged and bob not in logged
    assert "without authentication" not in logged
    users = sample_db.with_name(f"{sample_db.stem}.users.json")
    assert f"analytics-agent MCP server on http://127.0.0.1:{port}/mcp (" in logged
    assert f"sign-in: personal tokens from {users})" in logged


async def test_the_rate_and_burst_given_on_the_command_line_hold_each_user(sample_db, tmp_path):
    """``--rate`` and ``--burst`` reach the running server's gate: with a burst of 2 and a rate too slow
    to refill, alice's third call is turned away with the limits as given, and bob still has his two."""
    db = ["--db", str(sample_db)]
    added = [_cli(*db, "users", "add", "alice"), _cli(*db, "users", "add", "bob")]
    assert [a.returncode for a in added] == [0, 0], [a.stderr for a in added]
    alice, bob = (a.stdout.strip() for a in added)
    port = free_port()
    flags = ["mcp", "--http", "--port", str(port), "--auth", "users", "--rate", "0.001", "--burst", "2"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "analytics_agent", *db, *flags],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    try:
        await anyio.to_thread.run_sync(wait_listening, port, proc)
        url = f"http://127.0.0.1:{port}"
        calls: dict[str, list] = {}
        for name, token, count in (("alice", alice, 3), ("bob", bob, 2)):
            async with token_client(url, token) as client:
                calls[name] = [await client.call_tool("sales_summary", PUNE) for _ in range(count)]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert [c.is_error for c in calls["alice"]] == [False, False, True]
    assert (
        calls["alice"][2]
        .content[0]
        .text.startswith("rate limit: user alice may make 0.001 calls a second (2 at once); call again in ")
    )
    assert [c.is_error for c in calls["bob"]] == [False, False]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--http", "--auth", "users"], "no users in "),
        (["--auth", "users"], "--auth users signs in HTTP clients: add --http"),
        (
            ["--http", "--auth", "oidc", "--issuer", "https://id.example.com"],
            "--auth oidc needs --issuer URL",
        ),
        (["--http", "--auth", "sso"], "--auth 'sso' is not one of: none, users, oidc"),
        (["--http", "--issuer", "https://id.example.com"], "need --auth oidc"),
        (["--http", "--rate", "10"], "--rate limit each signed-in user, and this server signs no one in"),
        (["--burst", "5"], "--burst limit each signed-in user"),
        (["--http", "--auth", "users", "--rate", "0"], "--rate must be calls a second > 0"),
        (["--http", "--auth", "users", "--rate", "5000"], "at most 1,000, not 5000.0"),
        (["--http", "--auth", "users", "--burst", "0"], "--burst must be a whole number of calls from 1"),
    ],
)
def test_start_up_mistakes_are_one_line_errors(sample_db, flags, message, capsys, monkeypatch):
    from analytics_agent.cli.app import main

    monkeypatch.setattr(
        sys, "argv", ["analytics-agent", "--db", str(sample_db), "mcp", *flags, "--port", "1"]
    )
    with pytest.raises(SystemExit) as exited:
        main()
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith("error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_an_issuer_that_cannot_be_reached_fails_at_start_not_on_every_request(sample_db, capsys, monkeypatch):
    from analytics_agent.cli.app import main

    port = free_port()  # nothing listens there
    flags = ["--http", "--auth", "oidc", "--issuer", f"http://127.0.0.1:{port}", "--audience", "http://x/mcp"]
    monkeypatch.setattr(sys, "argv", ["analytics-agent", "--db", str(sample_db), "mcp", *flags])
    with pytest.raises(SystemExit) as exited:
        main()
    err = capsys.readouterr().err
    assert exited.value.code == 2 and len(err.strip().splitlines()) == 1
    assert (
        f"the issuer http://127.0.0.1:{port} publishes no key set (/.well-known/openid-configuration:" in err
    )
    assert err.rstrip().endswith("check --issuer")
