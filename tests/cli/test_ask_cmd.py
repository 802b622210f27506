"""ask / chat / demo end to end: the real CLI, the real OpenAIProvider, a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from loopback import LoopbackServer
from typer.testing import CliRunner

from analytics_agent.cli.app import app, main
from analytics_agent.providers.scripted import ScriptedCall, ScriptedModel, Step

REFERENCE_ANSWER = "Pune had 3 orders on 24 Oct 2026 (₹4,798 revenue; 1 cancelled). Order A-1042 was delivered on 2026-10-18."
API_KEY = "sk-test-Zq8uY2mLwP4xKe7R"


class ScriptedServer:
    """A loopback server that speaks the OpenAI protocol from a script, and the script's record."""

    def __init__(self, script: ScriptedModel) -> None:
        self.script = script
        self.server = LoopbackServer(lambda path, headers, body: script.respond("POST", path, headers, body))
        self.url = self.server.url + "/v1"

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def serve() -> Iterator:
    servers: list[ScriptedServer] = []

    def start(*steps: Step) -> ScriptedServer:
        server = ScriptedServer(ScriptedModel(list(steps)))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def run_main(
    args: list[str], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, *, stdin: str = ""
):
    """Run the console entry point in-process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "argv", ["analytics-agent", *args])
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as info:
        main()
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else (0 if code is None else 1)), out, err


def tool_flow_steps() -> list[Step]:
    """429 first; then an id-less call with object arguments plus a normal one, finish_reason "stop"."""
    return [
        Step(status=429, headers={"retry-after": "0"}, error_message="Rate limit reached, try again in 0s"),
        Step(
            tool_calls=[
                ScriptedCall(
                    "sales_summary", {"city": "Pune", "day": "2026-10-24"}, omit_id=True, as_object=True
                ),
                ScriptedCall("get_order", {"order_id": "A-1042"}, id="call_order"),
            ],
            finish_reason="stop",
        ),
        Step(text="Pune had 3 orders; A-1042 was delivered."),
    ]


@pytest.mark.parametrize("stream", [False, True])
def test_ask_against_a_loopback_server_answers_every_call_exactly_once(
    stream: bool, serve, sample_db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    server = serve(*tool_flow_steps())
    transcript = tmp_path / "t.jsonl"
    args = ["--db", str(sample_db), "ask", "How did Pune do?", "--base-url", server.url, "--model", "m"]
    args += ["--api-key", API_KEY, "--transcript", str(transcript), "--stream" if stream else "--no-stream"]
    code, out, err = run_main(args, capsys, monkeypatch)
    assert code == 0, err
    assert out.strip() == "Pune had 3 orders; A-1042 was delivered."
    requests = [r.body for r in server.script.requests]
    assert len(requests) == 3 and requests[0] == requests[1]  # the 429 was retried with the same body
    assert all(r.headers["authorization"] == f"Bearer {API_KEY}" for r in server.script.requests)
    assert all(bool(body.get("stream")) is stream for body in requests)

    messages = requests[2]["messages"]
    assistant = next(m for m in messages if m["role"] == "assistant")
    ids = [c["id"] for c in assistant["tool_calls"]]
    assert ids[1] == "call_order" and ids[0] and ids[0] != ids[1]  # the id-less call got an id
    assert all(isinstance(c["function"]["arguments"], str) for c in assistant["tool_calls"])
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {
        "city": "Pune",
        "day": "2026-10-24",
    }
    tool_messages = [m for m in messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ids  # each id answered exactly once, in order
    assert all(isinstance(m["content"], str) for m in tool_messages)
    assert json.loads(tool_messages[0]["content"])["orders"] == 3
    assert json.loads(tool_messages[1]["content"])["status"] == "delivered"
    server.script.assert_all_used()

    assert "sales_summary" in err and "get_order" in err and "[step 2]" in err
    text = transcript.read_text(encoding="utf-8")
    assert API_KEY not in out + err + text
    assert '"type": "answer"' in text and "SELECT" in text


def test_ask_json_prints_answer_steps_tool_calls_and_usage_without_the_key(
    serve, sample_db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    server = serve(*tool_flow_steps())
    args = ["--db", str(sample_db), "ask", "q", "--base-url", server.url, "--model", "m", "--json"]
    args += ["--transcript", str(tmp_path / "t.jsonl")]
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    code, out, err = run_main(args, capsys, monkeypatch)
    assert code == 0, err
    payload = json.loads(out)
    assert {"answer", "steps", "tool_calls", "usage"} <= set(payload)
    assert payload["steps"] == 2
    assert [c["name"] for c in payload["tool_calls"]] == ["sales_summary", "get_order"]
    assert payload["tool_calls"][0]["arguments"] == {"city": "Pune", "day": "2026-10-24"}
    assert payload["usage"]["input_tokens"] > 0
    assert API_KEY not in out + err + (tmp_path / "t.jsonl").read_text(encoding="utf-8")
    assert server.script.requests[0].headers["authorization"] == f"Bearer {API_KEY}"


def test_demo_prints_the_reference_answer_and_the_repaired_date(sample_db: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["--db", str(sample_db), "demo", "--no-stream", "--transcript", str(tmp_path / "demo.jsonl")]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == REFERENCE_ANSWER
    assert 'sales_summary {"city": "Pune", "day": "24 Oct 2026"} -> error' in result.stderr
    assert "day: Input should be a valid date in YYYY-MM-DD format" in result.stderr
    assert 'repaired: day "24 Oct 2026" -> "2026-10-24"' in result.stderr
    assert "[step 3]" in result.stderr
    records = [
        json.loads(line) for line in (tmp_path / "demo.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    tools = [r for r in records if r["type"] == "tool"]
    assert [(t["name"], t["is_error"]) for t in tools] == [
        ("sales_summary", True), ("get_order", False), ("sales_summary", False),
    ]  # fmt: skip


def test_demo_streams_the_answer_when_asked(sample_db: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["--db", str(sample_db), "demo", "--stream", "-q", "--transcript", str(tmp_path / "d.jsonl")]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == REFERENCE_ANSWER
    assert result.stdout.count(REFERENCE_ANSWER) == 1


def test_without_a_model_ask_says_how_to_configure_one_and_exits_2(capsys, monkeypatch) -> None:
    code, out, err = run_main(["ask", "How did Pune do?"], capsys, monkeypatch)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "--model" in err and "analytics-agent demo" in err


def test_chat_without_a_model_exits_2(capsys, monkeypatch) -> None:
    code, _, err = run_main(["chat"], capsys, monkeypatch)
    assert code == 2 and "analytics-agent demo" in err


def test_a_dead_endpoint_is_one_line_and_a_non_zero_exit(
    sample_db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    args = ["--db", str(sample_db), "ask", "q", "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m"]
    args += ["--api-key", API_KEY, "--max-retries", "0", "--connect-timeout", "1"]
    args += ["--transcript", str(tmp_path / "t.jsonl"), "-q"]
    code, out, err = run_main(args, capsys, monkeypatch)
    assert code == 1
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1
    assert f"127.0.0.1:{port}" in err and "Traceback" not in err
    assert API_KEY not in err + (tmp_path / "t.jsonl").read_text(encoding="utf-8")


def test_a_dead_endpoint_in_a_real_process_neither_hangs_nor_shows_a_traceback(
    sample_db: Path, tmp_path: Path
) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    args = ["--db", str(sample_db), "ask", "q", "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m"]
    args += ["--max-retries", "1", "--connect-timeout", "1", "--transcript", str(tmp_path / "t.jsonl")]
    result = subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        capture_output=True, text=True, timeout=600, env={**os.environ}, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: ") and "Traceback" not in result.stderr


def test_chat_keeps_the_conversation_across_questions(
    serve, sample_db: Path, tmp_path: Path, capsys, monkeypatch
) -> None:
    server = serve(
        Step(tool_calls=[ScriptedCall("get_order", {"order_id": "A-1042"})]),
        Step(text="It was delivered."),
        Step(text="On 2026-10-18."),
    )
    args = ["--db", str(sample_db), "chat", "--base-url", server.url, "--model", "m", "-q"]
    args += ["--transcript", str(tmp_path / "t.jsonl"), "--no-stream"]
    code, out, err = run_main(args, capsys, monkeypatch, stdin="What happened to A-1042?\nWhen?\n/exit\n")
    assert code == 0, err
    assert "It was delivered." in out and "On 2026-10-18." in out
    third = server.script.requests[2].body["messages"]
    roles = [m["role"] for m in third]
    assert roles == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert third[1]["content"] == "What happened to A-1042?" and third[-1]["content"] == "When?"
    server.script.assert_all_used()


def test_bad_flag_values_are_one_line_errors(capsys, monkeypatch) -> None:
    code, _, err = run_main(
        ["ask", "q", "--model", "m", "--base-url", "localhost:1", "--today", "x"], capsys, monkeypatch
    )
    assert code == 2 and err.count("\n") == 1 and "--base-url must be an http" in err


def test_bedrock_without_aws_credentials_is_one_line(
    capsys, monkeypatch, sample_db: Path, tmp_path: Path
) -> None:
    # The Bedrock provider needs AWS credentials; with none, the failure must still be one line.
    args = ["--db", str(sample_db), "ask", "q", "--provider", "bedrock", "--model", "amazon.nova-micro-v1:0"]
    args += ["--max-retries", "0", "--transcript", str(tmp_path / "t.jsonl"), "-q"]
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    code, out, err = run_main(args, capsys, monkeypatch)
    assert code != 0 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err
    assert "AWS" in err  # it reached the Bedrock provider, not a "not available" stub
