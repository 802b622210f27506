"""Secrets: an API key or AWS secret given by environment, config file or flag never appears in what the
user or a file gets: stdout (``--json`` too), stderr (``-v`` logs and errors), transcripts, crash logs.

The CLI runs as a real process against real loopback servers (127.0.0.1): the scripted OpenAI-compatible
model, and the scripted Bedrock endpoint through botocore (``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``). Each server
echoes the credential back in its error bodies, the way some gateways do, to prove the scrubbing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step, last_tool_result

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "providers"))
import bedrock_fake as bf

API_KEY = "sk-test-SECRET-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"
CONFIG_KEY = "sk-config-SECRET-0a1b2c3d4e5f60718293a4b5c6d7e8f9"
CLI = [sys.executable, "-m", "analytics_agent"]


def _scripted(steps: list[Step]):
    script = ScriptedModel(steps)
    return script, lambda path, headers, body: script.respond("POST", path, headers, body)


def _echoing_401(path, headers, body):
    key = headers.get("Authorization", headers.get("authorization", "")).removeprefix("Bearer ")
    error = {
        "error": {"message": f"Incorrect API key provided: {key}. Check it.", "type": "invalid_request_error"}
    }
    return 401, {"content-type": "application/json"}, json.dumps(error).encode()


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env, timeout=600, check=False)


def _everything_written(done: subprocess.CompletedProcess, home: Path) -> str:
    """stdout, stderr and every file the run left in the user's dirs (the config file the test wrote and
    the database excepted): transcripts, logs, crash logs."""
    files = [
        p for p in home.rglob("*")
        if p.is_file() and p.suffix not in (".duckdb", ".toml") and p.stat().st_size < 10**7
    ]  # fmt: skip
    return done.stdout + done.stderr + "".join(p.read_text(errors="replace") for p in files)


def _answer_steps() -> list[Step]:
    answer = lambda body: f"Pune had {last_tool_result(body, 'sales_summary')['orders']} orders."  # noqa: E731
    call = ScriptedCall("sales_summary", {"city": "Pune", "day": "2026-10-24"})
    return [Step(tool_calls=[call]), Step(text=answer)]


@pytest.mark.parametrize("source", ["env", "flag", "config"])
def test_an_openai_key_reaches_the_server_and_nothing_else(serve, sample_db, isolated_user_env, source):
    key = CONFIG_KEY if source == "config" else API_KEY
    script, answer = _scripted(_answer_steps())
    server = serve(answer)
    env = {**os.environ, "LLM_BASE_URL": server.url + "/v1", "LLM_MODEL": "scripted"}
    args = ["--db", str(sample_db), "-v", "ask", "How did Pune do on 24 Oct?", "--json"]
    transcript = isolated_user_env / "t.jsonl"
    args += ["--transcript", str(transcript)]
    if source == "env":
        env["LLM_API_KEY"] = key
    elif source == "flag":
        args += ["--api-key", key]
    else:
        config = isolated_user_env / "config" / "analytics-agent" / "config.toml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(f'api_key = "{key}"\n', encoding="utf-8")
    done = _run(args, env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["answer"] == "Pune had 3 orders."
    assert transcript.exists() and transcript.stat().st_size > 0
    assert all(h.get("Authorization") == f"Bearer {key}" for h in server.headers)  # it was really used
    assert key not in _everything_written(done, isolated_user_env)
    assert key[-12:] not in _everything_written(done, isolated_user_env)  # not even its tail
    script.assert_all_used()


def test_a_server_that_echoes_the_key_in_its_error_gets_it_scrubbed(serve, sample_db, isolated_user_env):
    server = serve(_echoing_401)
    env = {**os.environ, "LLM_BASE_URL": server.url + "/v1", "LLM_MODEL": "m", "LLM_API_KEY": API_KEY}
    done = _run(["--db", str(sample_db), "-v", "ask", "How did Pune do?", "--json"], env)
    assert done.returncode == 1
    assert "Incorrect API key provided" in done.stderr  # the server's own message is passed on...
    assert API_KEY not in _everything_written(done, isolated_user_env)  # ...without the key
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("error: ")


def test_aws_credentials_never_appear_even_when_the_endpoint_echoes_them(serve, sample_db, isolated_user_env):
    def answer(path, headers, body):
        echoed = (
            f"User {bf.FAKE_ENV['AWS_ACCESS_KEY_ID']} with {bf.FAKE_ENV['AWS_SECRET_ACCESS_KEY']} is denied"
        )
        head = {
            "content-type": "application/json",
            "x-amzn-ErrorType": "AccessDeniedException:http://internal",
        }
        return 403, head, json.dumps({"message": echoed}).encode()

    server = serve(answer)
    env = {**os.environ, **bf.FAKE_ENV, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": server.url}
    args = ["--db", str(sample_db), "-v", "ask", "How did Pune do?", "--provider", "bedrock"]
    done = _run([*args, "--model", "us.amazon.nova-micro-v1:0", "--json"], env)
    assert done.returncode == 1 and server.headers, done.stderr
    assert any(bf.FAKE_ENV["AWS_ACCESS_KEY_ID"] in h.get("Authorization", "") for h in server.headers)
    written = _everything_written(done, isolated_user_env)
    for secret in (bf.FAKE_ENV["AWS_SECRET_ACCESS_KEY"], bf.FAKE_ENV["AWS_SESSION_TOKEN"]):
        assert secret not in written
    assert "Traceback" not in done.stderr


def test_a_bedrock_answer_with_credentials_in_env_keeps_them_out_of_the_transcript(
    serve, sample_db, isolated_user_env
):
    fake = bf.FakeBedrock(
        [
            bf.reply(
                bf.tool_use("tooluse_1", "sales_summary", city="Pune", day="2026-10-24"), stop="tool_use"
            ),
            bf.reply(bf.text("Pune had 3 orders.")),
        ]
    )
    server = serve(lambda path, headers, body: fake.handle(path, body))
    env = {**os.environ, **bf.FAKE_ENV, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": server.url}
    transcript = isolated_user_env / "t.jsonl"
    args = ["--db", str(sample_db), "-v", "ask", "How did Pune do?", "--provider", "bedrock", "--json"]
    done = _run([*args, "--model", "us.amazon.nova-micro-v1:0", "--transcript", str(transcript)], env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["answer"] == "Pune had 3 orders." and transcript.stat().st_size > 0
    written = _everything_written(done, isolated_user_env)
    for secret in bf.SECRETS:
        assert secret not in written
