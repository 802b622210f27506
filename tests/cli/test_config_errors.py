"""A setting the user must fix is one line, exit 2, before any request is traced (issue 25)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import run_cli

NO_ENDPOINT = {name: None for name in (
    "LLM_BASE_URL", "OPENAI_BASE_URL", "LLM_API_KEY", "OPENAI_API_KEY", "ANALYTICS_AGENT_MODEL", "LLM_MODEL",
    "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE",
)}  # fmt: skip


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--base-url", "localhost:11434", "--model", "m"], "--base-url must be an http(s) URL"),
        (["--model", "gpt-4o-mini"], "https://api.openai.com/v1 needs an API key"),
        (["--provider", "bedrock", "--model", "amazon.nova-micro-v1:0"], "no AWS region"),
        (
            ["--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--max-tokens", "-5"],
            "--max-tokens must be",
        ),
    ],
    ids=["base-url", "api-key", "aws-region", "max-tokens"],
)
def test_a_configuration_error_is_one_line_exit_2_before_any_step(
    sample_db: Path, tmp_path: Path, flags: list[str], message: str
) -> None:
    home = {
        "HOME": str(tmp_path),
        "AWS_CONFIG_FILE": str(tmp_path / "none"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"),
    }
    result = run_cli(
        ["--db", str(sample_db), "ask", "How did Pune do?", *flags], cwd=tmp_path, env={**NO_ENDPOINT, **home}
    )
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert "[step" not in result.stderr and result.stdout == ""
