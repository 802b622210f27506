"""A server that cannot stream with tools (llama-cpp-python's closes the stream before sending anything):
the request goes again unstreamed, the user is told once, and the choice is remembered per endpoint and
model, so the next question does not pay for the failed stream; an explicit ``--stream`` tries again, and
``modes forget`` forgets. A real loopback server, the real CLI (on a terminal, where streaming is the
default)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_process import run_cli, run_in_terminal
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
        assert "remembered for " + server.url + "/v1 llama (--stream tries again)" in first.stderr
        unasked = [a for a in args if a != "--stream"]
        code, screen = run_in_terminal(unasked, cwd=tmp_path)  # a terminal streams unless remembered
        assert code == 0, screen
        assert streamed == [True, False, False]  # remembered: no failed stream first
        assert "closed the stream" not in screen
        again = run_cli(args, cwd=tmp_path)  # --stream by name: the user wants to try again
        assert again.returncode == 0, again.stderr
        assert streamed == [True, False, False, True, False]
        assert "closed the stream before sending anything" in again.stderr
    finally:
        server.close()


def test_remembered_modes_are_listed_and_forgotten(tmp_path: Path) -> None:
    """``modes list`` shows what is remembered per endpoint and model, ``modes forget [TEXT]`` forgets it
    (all, or the choices whose endpoint or model contains TEXT); a TEXT that matches nothing is an error."""
    from analytics_agent.paths import data_dir
    from analytics_agent.providers.tool_mode import ToolModeMemory

    memory = ToolModeMemory(data_dir() / "tool_modes.json")
    memory.remember("http://a:8080/v1 llama", "text", "does not support tools")
    memory.remember("http://a:8080/v1 llama (streaming)", "off", "closed the stream")
    memory.remember("http://b:11434/v1 qwen3:8b", "text", "does not support tools")
    listed = run_cli(["modes", "list"], cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    expected = [
        ("http://a:8080/v1 llama  tool mode text since ", ": does not support tools"),
        ("http://a:8080/v1 llama  no streaming since ", ": closed the stream"),
        ("http://b:11434/v1 qwen3:8b  tool mode text since ", ": does not support tools"),
    ]
    assert len(lines) == len(expected)
    for line, (start, end) in zip(lines, expected, strict=True):
        assert line.startswith(start) and line.endswith(end), line
    wrong = run_cli(["modes", "forget", "http://c"], cwd=tmp_path)
    assert wrong.returncode == 2  # a configuration mistake, as every ConfigError
    assert (
        "nothing remembered matches 'http://c'; remembered: http://a:8080/v1 llama, http://b" in wrong.stderr
    )
    forgot = run_cli(["modes", "forget", "a:8080"], cwd=tmp_path)
    assert forgot.returncode == 0, forgot.stderr
    assert forgot.stdout.splitlines() == [
        "forgot tool mode text for http://a:8080/v1 llama",
        "forgot no streaming for http://a:8080/v1 llama",
    ]
    assert set(memory.entries()) == {"http://b:11434/v1 qwen3:8b"}
    assert (
        run_cli(["modes", "forget"], cwd=tmp_path).stdout
        == "forgot tool mode text for http://b:11434/v1 qwen3:8b\n"
    )
    assert memory.entries() == {}
