"""``eval --provider bedrock`` in a real process, against a loopback server speaking Converse (fake
credentials, botocore's own endpoint setting), as ``ask`` is tested."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "providers"))
from bedrock_fake import FAKE_ENV, SECRETS, FakeBedrock, reply, text, tool_use

MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"


def test_eval_with_bedrock_judges_a_grounded_answer(sample_db: Path, tmp_path: Path) -> None:
    cases = tmp_path / "one.jsonl"
    sql = "SELECT sum(amount) FROM orders WHERE city = 'Pune' AND day = DATE '2026-10-24' AND status = 'delivered'"
    cases.write_text(
        json.dumps({"id": "pune", "question": "Pune's delivered revenue on 2026-10-24?", "sql": sql})
    )
    fake = FakeBedrock(
        [
            reply(tool_use("t1", "get_order", order_id="A-1040"), stop="tool_use"),
            reply(text("Order A-1040 was delivered: ₹1,299.")),
        ]
    )
    server = fake.serve()
    args = ["--db", str(sample_db), "eval", str(cases), "--provider", "bedrock", "--model", MODEL]
    env = {**os.environ, **FAKE_ENV, "AWS_ENDPOINT_URL_BEDROCK_RUNTIME": server.url, "HOME": str(tmp_path)}
    try:
        result = subprocess.run(
            [sys.executable, "-m", "analytics_agent", *args, "--region", "us-east-1", "--json", "-q"],
            capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path,
        )  # fmt: skip
    finally:
        server.close()
    assert result.returncode == 0, result.stderr
    [outcome] = json.loads(result.stdout)["results"]
    assert (outcome["model"], outcome["passed"], outcome["grounded"]) == (MODEL, True, True)
    assert outcome["expected"] == [1299] and outcome["tool_calls"] == 1
    assert not any(secret in result.stdout + result.stderr for secret in SECRETS)
