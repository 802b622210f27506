"""A server that cannot stream with tools (llama-cpp-python's closes the stream before sending anything):
the request goes again unstreamed, the user is told once, and the choice is remembered per endpoint and
model, so the next question does not pay for the failed stream. A real loopback server, the real CLI."""

from __future__ import annotations

import json
from pathlib import Path

from cli_process import run_cli
from loopback import LoopbackServer


def test_a_refused_stream_is_asked_again_unstreamed_and_remembered(sample_db: Path, tmp_path: Path) -> None:
    streamed: list[bool] = []

    def answer(path: str, headers: dict[str, str], body: bytes):
        request = json.loads(body)
        streamed.append(bool(request.get("stream")))
        if request.get("stream") and request.get("tools"):
            return 200, {"content-type": "text/event-stream"}, b""  # closed before any event
        reply = {
            "choices": [
                {"message": {"role": "assistant", "content": "No tool needed."}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3},
        }
        return 200, {"content-type": "application/json"}, json.dumps(reply).encode()

    server = LoopbackServer(answer)
    try:
        args = ["--db", str(sample_db), "ask", "hello", "--stream", "--base-url", server.url + "/v1",
                "--model", "llama", "--api-key", "k", "--max-retries", "0"]  # fmt: skip
        first = run_cli(args, cwd=tmp_path)
        assert first.returncode == 0, first.stderr
        assert first.stdout.count("No tool needed.") == 1, first.stdout
        assert "closed the stream before sending anything; asked again without streaming" in first.stderr
        assert streamed == [True, False]
        second = run_cli(args, cwd=tmp_path)
        assert second.returncode == 0, second.stderr
        assert streamed == [True, False, False]  # remembered: no failed stream first
        assert "closed the stream" not in second.stderr
    finally:
        server.close()
