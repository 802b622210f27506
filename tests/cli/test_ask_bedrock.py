"""``analytics-agent ask --provider bedrock`` in a real process, against a loopback server speaking Converse.

The server is reached through botocore's own endpoint setting (``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``),
answers Converse with JSON and ConverseStream with hand-encoded event-stream frames, throttles the first
attempt, and checks every request against the conversation rules. Credentials are fake.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "providers"))
from bedrock_fake import FAKE_ENV, SECRETS, Failure, FakeBedrock, reasoning, reply, text, tool_use

MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
QUESTION = "How did Pune do on 24 Oct, and what happened to order A-1042?"
ANSWER = "Pune on 2026-10-24: 3 orders, revenue 4798. Order A-1042 was delivered on 2026-10-18."


def run_cli(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "analytics_agent", *args],
        capture_output=True, text=True, timeout=600, env={**os.environ, **env}, cwd=cwd,
    )  # fmt: skip


@pytest.mark.parametrize("stream", ["--no-stream", "--stream"])
def test_ask_with_bedrock_answers_the_reference_question_through_a_loopback_endpoint(
    sample_db: Path, tmp_path: Path, stream: str
) -> None:
    fake = FakeBedrock(
        [
            Failure(429, "ThrottlingException", "Too many requests, please wait before trying again."),
            reply(
                reasoning("Two lookups.", "c2lnbmVk"),
                tool_use("functions.sales_summary:0", "sales_summary", city="Pune", day="24 Oct"),
                tool_use("functions.get_order:1", "get_order", order_id="A-1042"),
                stop="tool_use",
            ),
            reply(
                tool_use("functions.sales_summary:2", "sales_summary", city="Pune", day="2026-10-24"),
                stop="tool_use",
            ),
            reply(text(ANSWER)),
        ]
    )
    server = fake.serve()
    transcript = tmp_path / "t.jsonl"
    args = ["--db", str(sample_db), "ask", QUESTION, "--provider", "bedrock", "--model", MODEL]
    args += ["--region", "us-east-1", "--transcript", str(transcript), stream]
    try:
        result = run_cli(args, tmp_path, **FAKE_ENV, AWS_ENDPOINT_URL_BEDROCK_RUNTIME=server.url)
    finally:
        server.close()
    assert result.returncode == 0, result.stderr
    assert ANSWER in result.stdout
    endpoint = "converse-stream" if stream == "--stream" else "converse"
    assert fake.paths == [f"/model/{MODEL}/{endpoint}"] * 4  # the throttled attempt was retried
    assert len(fake.requests) == 4 and fake.script == []  # each one passed the rule check
    repaired = fake.requests[3]["messages"][-1]["content"][0]["toolResult"]["content"][0]["json"]
    assert (repaired["orders"], repaired["revenue"]) == (3, 4798)
    everything = result.stdout + result.stderr + transcript.read_text(encoding="utf-8")
    assert "Traceback" not in everything
    for secret in SECRETS:
        assert secret not in everything


def test_ask_with_bedrock_and_no_region_says_how_to_set_one(sample_db: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in FAKE_ENV.items() if k != "AWS_REGION"}
    args = ["--db", str(sample_db), "ask", "q", "--provider", "bedrock", "--model", MODEL]
    result = run_cli([*args, "--transcript", str(tmp_path / "t.jsonl")], tmp_path, **env)
    assert result.returncode == 2  # a configuration error, told before any request is traced
    assert result.stderr.strip().splitlines() == [
        "error: no AWS region: pass --region (e.g. us-east-1) or set AWS_REGION"
    ]


def test_ask_with_bedrock_and_no_credentials_says_how_to_provide_them(
    sample_db: Path, tmp_path: Path
) -> None:
    args = [
        "--db",
        str(sample_db),
        "ask",
        "q",
        "--provider",
        "bedrock",
        "--model",
        MODEL,
        "--region",
        "eu-west-1",
    ]
    result = run_cli([*args, "--transcript", str(tmp_path / "t.jsonl")], tmp_path)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: no usable AWS credentials") and "AWS_PROFILE" in last
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [["--help"], ["ask", "--help"]])
def test_help_does_not_import_boto3(tmp_path: Path, args: list[str]) -> None:
    code = (
        "import sys\n"
        f"sys.argv = ['analytics-agent', *{args!r}]\n"
        "from analytics_agent.cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('boto3' in sys.modules, 'botocore' in sys.modules, file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert "--region" in result.stdout or args == ["--help"]
    assert result.stderr.split()[-2:] == ["False", "False"]
